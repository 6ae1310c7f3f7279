import { expect } from 'chai';
import { clusterStatus, type StatusInput } from '../src/controller/cluster-status.js';
import { planWorkers } from '../src/controller/worker-plan.js';
import type { WorkerView } from '../src/controller/worker-view.js';
import { worker } from './support/views.js';

const coordinatorUp = {
  pod: { name: 'c', running: true, restarts: 0 },
  engine: { nodeId: 'c', state: 'ACTIVE', coordinator: true, internalAddress: '', workload: {} },
};

function status(workers: WorkerView[], desired: number, more: Partial<StatusInput> = {}) {
  const now = new Date(1_000_000);
  const plan = planWorkers({ workers, desired, templateHash: 'h1', now: now.getTime(), drainTimeoutMs: 60_000 });
  return clusterStatus({
    previous: undefined,
    generation: 3,
    desired,
    templateHash: 'h1',
    workers,
    plan,
    coordinator: coordinatorUp,
    coordinatorURL: 'http://demo.ns.svc:8080',
    selector: 's',
    problems: [],
    missingSecrets: [],
    now,
    ...more,
  });
}

const conditions = (s: ReturnType<typeof status>) => Object.fromEntries(s.conditions!.map((c) => [c.type, `${c.status} ${c.reason}`]));

describe("the cluster's status", () => {
  it('is Available and not Progressing when every worker is ready', () => {
    const s = status([worker('a'), worker('b')], 2);
    expect(s.state).to.equal('Available');
    expect(s.workers).to.deep.equal({ desired: 2, ready: 2, draining: 0, updated: 2 });
    expect(conditions(s)).to.deep.equal({
      Available: 'True CoordinatorAndWorkersReady',
      Progressing: 'False Stable',
      Degraded: 'False AsExpected',
    });
    expect(s.nodes!.map((n) => [n.pod, n.role, n.state])).to.deep.equal([
      ['c', 'coordinator', 'ACTIVE'],
      ['a', 'worker', 'ACTIVE'],
      ['b', 'worker', 'ACTIVE'],
    ]);
    expect(s.observedGeneration).to.equal(3);
  });

  it('says why it is Progressing: scaling out, scaling in (draining), rolling', () => {
    expect(conditions(status([worker('a')], 2)).Progressing).to.equal('True ScalingOut');
    const scaleIn = status([worker('a'), worker('b')], 1);
    expect(conditions(scaleIn).Progressing).to.equal('True ScalingIn');
    expect(scaleIn.workers!.draining).to.equal(1);
    expect(scaleIn.state).to.equal('Progressing');
    expect(conditions(status([worker('a', { hash: 'h0' })], 1)).Progressing).to.equal('True RollingUpdate');
  });

  it('is not Available without an answering coordinator, or without a ready worker', () => {
    expect(conditions(status([worker('a')], 1, { coordinator: {} })).Available).to.equal('False CoordinatorUnavailable');
    expect(conditions(status([worker('a', { listed: false })], 1)).Available).to.equal('False NoWorkerReady');
    expect(status([], 0).state).to.equal('Available');
  });

  it('is Degraded by a crash loop, a timed-out drain (until a drain ends cleanly) or an invalid spec', () => {
    const looping = status([worker('a'), worker('b', { running: false, answers: false, waitingReason: 'CrashLoopBackOff' })], 2);
    expect(conditions(looping).Degraded).to.equal('True WorkerCrashLoop');
    expect(looping.nodes!.find((n) => n.pod === 'b')!.state).to.equal('CrashLoopBackOff');
    const timedOut = status([worker('a'), worker('late', { drain: { startedAt: new Date(0).toISOString() }, state: 'ISOLATING' })], 1);
    expect(conditions(timedOut).Degraded).to.equal('True DrainTimedOut');
    expect(timedOut.state).to.equal('Degraded');
    const later = status([worker('a')], 1, { previous: timedOut });
    expect(conditions(later).Degraded).to.equal('True DrainTimedOut');
    const cleaned = status([worker('a'), worker('done', { drain: {}, exited: true, answers: false })], 1, { previous: timedOut });
    expect(conditions(cleaned).Degraded).to.equal('False AsExpected');
    expect(conditions(status([], 1, { problems: ['bad'] })).Degraded).to.equal('True InvalidSpec');
  });

  it("keeps a condition's lastTransitionTime while its status stays", () => {
    const first = status([worker('a')], 1);
    const again = clusterStatus({
      previous: first,
      generation: 3,
      desired: 1,
      templateHash: 'h1',
      workers: [worker('a')],
      plan: undefined,
      coordinator: coordinatorUp,
      coordinatorURL: '',
      selector: 's',
      problems: [],
      missingSecrets: [],
      now: new Date(2_000_000),
    });
    expect(again.conditions!.map((c) => c.lastTransitionTime)).to.deep.equal(first.conditions!.map((c) => c.lastTransitionTime));
  });
});
