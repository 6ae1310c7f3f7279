import { expect } from 'chai';
import { Autoscaler } from '../src/controller/autoscaler.js';
import type { NodeStatus, NodeWorkload } from '../src/engine/node-client.js';
import { engineCluster } from './support/cluster.js';
import { worker } from './support/views.js';

const coordinator = (workload: Partial<NodeWorkload>): NodeStatus => ({ nodeId: 'c', state: 'ACTIVE', workload });

describe('the autoscaler', () => {
  const auto = {
    autoscaling: {
      minReplicas: 1,
      maxReplicas: 5,
      targetRunningSplitsPerWorker: 10,
      targetQueuedQueries: 0,
      scaleInStabilizationSeconds: 60,
    },
  };

  function scaler() {
    let now = 0;
    const a = new Autoscaler(1000, () => now);
    return { a, advance: (ms: number) => (now += ms) };
  }

  it('follows spec.workers.replicas while autoscaling is off', () => {
    const { a } = scaler();
    expect(a.desiredReplicas('k', engineCluster({ workers: { replicas: 3 } }), [], coordinator({}), () => undefined)).to.equal(3);
  });

  it('scales out at once for splits and queued queries, within maxReplicas', () => {
    const { a } = scaler();
    const cluster = engineCluster({ workers: { replicas: 1, ...auto } });
    const changes: string[] = [];
    const busy = [worker('a', { workload: { runningSplits: 25, queuedSplits: 10 } })];
    expect(
      a.desiredReplicas('k', cluster, busy, coordinator({ runningQueries: 2 }), (f, t, why) => changes.push(`${f}->${t}: ${why}`)),
    ).to.equal(4);
    expect(changes).to.deep.equal(['1->4: 35 running and queued splits at 10 per worker']);
    const queued = engineCluster({ workers: { replicas: 1, ...auto } });
    queued.status = { workers: { desired: 4, ready: 4, draining: 0, updated: 4 } };
    expect(a.desiredReplicas('q', queued, [], coordinator({ runningQueries: 3, queuedQueries: 2 }), () => undefined)).to.equal(5);
    const many = [worker('a', { workload: { runningSplits: 1000 } })];
    expect(a.desiredReplicas('m', cluster, many, coordinator({ runningQueries: 1 }), () => undefined)).to.equal(5);
  });

  it('scales in only after a whole stabilization window of lower recommendations, to minReplicas when idle', () => {
    const { a, advance } = scaler();
    const cluster = engineCluster({ workers: { replicas: 1, ...auto } });
    cluster.status = { workers: { desired: 4, ready: 4, draining: 0, updated: 4 } };
    const idle = () => a.desiredReplicas('k', cluster, [worker('a')], coordinator({}), () => undefined);
    expect(idle()).to.equal(4);
    advance(30_000);
    expect(idle()).to.equal(4);
    advance(31_000);
    expect(idle()).to.equal(1);
  });

  it('keeps the highest recommendation of the window when load comes and goes', () => {
    const { a, advance } = scaler();
    const cluster = engineCluster({ workers: { replicas: 1, ...auto } });
    cluster.status = { workers: { desired: 3, ready: 3, draining: 0, updated: 3 } };
    const at = (splits: number) =>
      a.desiredReplicas(
        'k',
        cluster,
        [worker('a', { workload: { runningSplits: splits } })],
        coordinator({ runningQueries: splits ? 1 : 0 }),
        () => undefined,
      );
    expect(at(30)).to.equal(3);
    advance(50_000);
    expect(at(0)).to.equal(3);
    advance(20_000);
    expect(at(0), 'the 3 of 70 s ago left the window, the 1s remain').to.equal(1);
  });

  it('changes nothing while the coordinator does not answer', () => {
    const { a } = scaler();
    const cluster = engineCluster({ workers: { replicas: 2, ...auto } });
    expect(a.desiredReplicas('k', cluster, [], undefined, () => undefined)).to.equal(2);
  });
});
