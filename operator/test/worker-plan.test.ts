import { expect } from 'chai';
import { planWorkers, removalOrder, type PlanInput, type WorkerPlan } from '../src/controller/worker-plan.js';
import type { WorkerView } from '../src/controller/worker-view.js';
import { worker } from './support/views.js';

const now = 1_000_000;

function plan(workers: WorkerView[], desired: number, more: Partial<PlanInput> = {}): WorkerPlan {
  return planWorkers({ workers, desired, templateHash: 'h1', now, drainTimeoutMs: 60_000, ...more });
}

const names = (list: { worker?: WorkerView; name?: string }[]) => list.map((x) => (x.worker ?? (x as WorkerView)).name);

describe('planning the workers', () => {
  it('creates the missing workers, and does nothing once there are enough', () => {
    expect(plan([], 3).create).to.equal(3);
    expect(plan([worker('a')], 3).create).to.equal(2);
    const steady = plan([worker('a'), worker('b')], 2);
    expect(steady).to.deep.equal({ create: 0, remove: [], drain: [], cancelDrain: [], continueDrain: [] });
  });

  it('drains the least busy workers on scale in, never deleting a running one outright', () => {
    const busy = worker('busy', { workload: { runningTasks: 4 } });
    const idle = worker('idle');
    const splits = worker('splits', { workload: { runningSplits: 3 } });
    const p = plan([busy, idle, splits], 1);
    expect(p.drain.map((d) => [d.worker.name, d.reason])).to.deep.equal([
      ['idle', 'ScaleIn'],
      ['splits', 'ScaleIn'],
    ]);
    expect(p.remove).to.deep.equal([]);
    expect(p.create).to.equal(0);
  });

  it('deletes a worker that never started at once, and prefers a not-ready one to a ready one', () => {
    const pending = worker('pending', { running: false });
    const joining = worker('joining', { listed: false });
    const ready = worker('ready');
    const p = plan([ready, joining, pending], 1);
    expect(names(p.remove)).to.deep.equal(['pending']);
    expect(names(p.drain)).to.deep.equal(['joining']);
    expect(removalOrder([ready, joining, pending]).map((w) => w.name)).to.deep.equal(['pending', 'joining', 'ready']);
  });

  it('moves a drain along, deletes a drained pod once it exited, and cuts short a drain past its timeout', () => {
    const draining = worker('draining', { drain: { startedAt: new Date(now - 1000).toISOString() }, state: 'ISOLATING' });
    const done = worker('done', {
      drain: { startedAt: new Date(now - 1000).toISOString(), phase: 'ShuttingDown' },
      exited: true,
      answers: false,
    });
    const late = worker('late', { drain: { startedAt: new Date(now - 61_000).toISOString() }, state: 'ISOLATING' });
    const p = plan([worker('a'), draining, done, late], 1);
    expect(names(p.continueDrain)).to.deep.equal(['draining']);
    expect(p.remove.map((r) => [r.worker.name, r.reason])).to.deep.equal([
      ['done', 'Drained'],
      ['late', 'DrainTimedOut'],
    ]);
    expect(p.create).to.equal(0);
  });

  it('replaces a worker that exited without a drain', () => {
    const p = plan([worker('a'), worker('gone', { exited: true, answers: false, running: false })], 2);
    expect(p.remove.map((r) => [r.worker.name, r.reason])).to.deep.equal([['gone', 'Exited']]);
    expect(p.create).to.equal(1);
  });

  it('calls a drain off instead of making a new pod when more workers are asked for again', () => {
    const isolating = worker('isolating', { drain: {}, state: 'ISOLATING' });
    const shutting = worker('shutting', { drain: { phase: 'ShuttingDown' }, state: 'SHUTTING_DOWN' });
    const p = plan([worker('a'), isolating, shutting], 3);
    expect(names(p.cancelDrain)).to.deep.equal(['isolating']);
    expect(p.create).to.equal(1);
    expect(names(p.continueDrain)).to.deep.equal(['shutting']);
  });

  it('does not count a pod being deleted (kubectl delete pod): a replacement is made at once', () => {
    const p = plan([worker('a'), worker('b', { deleting: true })], 2);
    expect(p.create).to.equal(1);
    expect(p.drain).to.deep.equal([]);
  });

  describe('a rollout (the template changed)', () => {
    it('makes one new pod first, and drains no old one while the new one is not ready', () => {
      const old = [worker('o1', { hash: 'h0' }), worker('o2', { hash: 'h0' })];
      const first = plan(old, 2);
      expect([first.create, first.drain.length]).to.deep.equal([1, 0]);
      const waiting = plan([...old, worker('n1', { listed: false })], 2);
      expect([waiting.create, waiting.drain.length]).to.deep.equal([0, 0]);
    });

    it('drains an old worker once a new one is ready, and makes the next new one meanwhile', () => {
      const old = [worker('o1', { hash: 'h0', workload: { runningTasks: 1 } }), worker('o2', { hash: 'h0' })];
      const p = plan([...old, worker('n1')], 2);
      expect(p.drain.map((d) => [d.worker.name, d.reason])).to.deep.equal([['o2', 'Rollout']]);
      const next = plan([old[0], worker('o2', { hash: 'h0', drain: { reason: 'Rollout' }, state: 'ISOLATING' }), worker('n1')], 2);
      expect([next.create, next.drain.length]).to.deep.equal([1, 0]);
    });

    it('ends with only new workers', () => {
      const p = plan([worker('o1', { hash: 'h0' }), worker('n1'), worker('n2')], 2);
      expect(names(p.drain)).to.deep.equal(['o1']);
      expect(p.create).to.equal(0);
    });
  });
});
