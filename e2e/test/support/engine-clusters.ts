// Reading EngineClusters as a user does with kubectl: the status the operator writes, the worker
// pods, the Events of a reason, and waiting until a cluster is steady.
import { eventually, type TestCluster } from './cluster.js';

export interface ClusterStatus {
  state?: string;
  workers?: { desired: number; ready: number; draining: number; updated: number };
  nodes?: { pod: string; role: string; state: string }[];
  conditions?: { type: string; status: string; reason: string; message: string }[];
}

export const workerSelector = (name: string) => `engine.io/cluster=${name},app.kubernetes.io/component=worker`;

/** Helpers on the EngineClusters of `cluster()` (read when called, so it may be started later); `name` is the default cluster. */
export function engineClusters(cluster: () => TestCluster, name = 'engine') {
  const status = async (of = name): Promise<ClusterStatus> => (await cluster().json(['get', 'enginecluster', of])).status ?? {};
  const workerPods = async (of = name): Promise<string[]> =>
    (await cluster().json(['get', 'pods', '-l', workerSelector(of)])).items
      .filter((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)
      .map((p: { metadata: { name: string } }) => p.metadata.name)
      .sort();
  /** Waits until the cluster is steady with `ready` workers: Available, nothing draining, no other worker pod. */
  const steady = async (ready: number, of = name, timeoutMs = 60_000) =>
    eventually(async () => {
      const s = await status(of);
      return s.state === 'Available' && s.workers?.ready === ready && s.workers.draining === 0 && (await workerPods(of)).length === ready;
    }, timeoutMs);
  /** The messages of the Events of this reason on EngineClusters. */
  const events = async (reason: string): Promise<string[]> =>
    (await cluster().json(['get', 'events', '--field-selector', `involvedObject.kind=EngineCluster,reason=${reason}`])).items.map(
      (e: { message: string }) => e.message,
    );
  return { status, workerPods, steady, events };
}
