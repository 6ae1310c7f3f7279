// The workers' count when spec.workers.autoscaling is enabled, from the load the nodes report in
// /v1/status: enough workers for the running and queued splits at targetRunningSplitsPerWorker each,
// one more while more queries wait in the coordinator's queue than targetQueuedQueries, and
// minReplicas when nothing runs at all; always within [minReplicas, maxReplicas]. A higher count is
// applied at once; a lower one only once every recommendation over the stabilization window was at
// most that (the highest of them is applied), so a pause between queries does not drain workers that
// the next query needs (and an operator that just started waits a whole window first). Scaling in goes through the drain like any other. Without autoscaling the
// count is spec.workers.replicas.
import type { EngineCluster } from '../api/engine-cluster.js';
import type { NodeStatus } from '../engine/node-client.js';
import type { WorkerView } from './worker-view.js';

interface Recommendation {
  at: number;
  replicas: number;
}

export type ScaledCallback = (from: number, to: number, why: string) => void;

export class Autoscaler {
  /** Per cluster: the recommendations of the stabilization window, and since when they are known. */
  private readonly state = new Map<string, { since: number; history: Recommendation[] }>();

  constructor(
    /** How often an autoscaled cluster is looked at. */
    readonly periodMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  enabled(cluster: EngineCluster): boolean {
    return cluster.spec.workers.autoscaling?.enabled === true;
  }

  forget(key: string): void {
    this.state.delete(key);
  }

  /** The recommendation from the load now, and why. */
  recommend(
    cluster: EngineCluster,
    workers: WorkerView[],
    coordinator: NodeStatus | undefined,
    current: number,
  ): { replicas: number; why: string } {
    const auto = cluster.spec.workers.autoscaling!;
    const clamp = (n: number) => Math.min(auto.maxReplicas, Math.max(auto.minReplicas, n));
    const c = coordinator?.workload ?? {};
    const running = c.runningQueries ?? 0;
    const queued = c.queuedQueries ?? 0;
    const splits =
      workers.reduce((sum, w) => sum + (w.engine?.workload.runningSplits ?? 0) + (w.engine?.workload.queuedSplits ?? 0), 0) +
      (c.queuedSplits ?? 0);
    if (!coordinator) return { replicas: current, why: 'the coordinator does not answer: no change' };
    if (running + queued === 0 && splits === 0) return { replicas: clamp(auto.minReplicas), why: 'no query runs' };
    let replicas = Math.ceil(splits / auto.targetRunningSplitsPerWorker);
    let why = `${splits} running and queued splits at ${auto.targetRunningSplitsPerWorker} per worker`;
    if (queued > auto.targetQueuedQueries) {
      replicas = Math.max(replicas, current + 1);
      why = `${queued} queued queries (target ${auto.targetQueuedQueries})`;
    }
    return { replicas: clamp(Math.max(replicas, running > 0 ? 1 : 0)), why };
  }

  /** The count to run now; `scaled` is told of a change. */
  desiredReplicas(
    key: string,
    cluster: EngineCluster,
    workers: WorkerView[],
    coordinator: NodeStatus | undefined,
    scaled: ScaledCallback,
  ): number {
    if (!this.enabled(cluster)) {
      this.state.delete(key);
      return cluster.spec.workers.replicas;
    }
    const auto = cluster.spec.workers.autoscaling!;
    const current = cluster.status?.workers?.desired ?? cluster.spec.workers.replicas;
    const { replicas, why } = this.recommend(cluster, workers, coordinator, current);
    const now = this.now();
    const windowMs = auto.scaleInStabilizationSeconds * 1000;
    const state = this.state.get(key) ?? { since: now, history: [] };
    state.history = state.history.filter((r) => now - r.at <= windowMs);
    state.history.push({ at: now, replicas });
    this.state.set(key, state);
    // Scaling in waits until a whole window was seen (after a restart of the operator, too).
    const settled = now - state.since >= windowMs;
    const stabilized = Math.max(...state.history.map((r) => r.replicas));
    const next = replicas > current ? replicas : settled ? Math.min(current, stabilized) : current;
    const bounded = Math.min(auto.maxReplicas, Math.max(auto.minReplicas, next));
    if (bounded !== current) scaled(current, bounded, bounded > current ? why : `${why}, lowest for ${auto.scaleInStabilizationSeconds} s`);
    return bounded;
  }
}
