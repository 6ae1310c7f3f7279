// What the operator knows of one worker at the start of a reconcile: its pod as Kubernetes reports it,
// its engine as the node itself answers GET /v1/status, and whether the coordinator lists it
// (healthy). A worker counts as ready only when all three agree: the pod runs, the node is ACTIVE,
// and the coordinator lists it.
import type { V1Pod } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { labels } from '../api/names.js';
import { workerUri } from '../resources/node-addresses.js';
import type { NodeStatus } from '../engine/node-client.js';
import { readDrainRecord, type DrainRecord } from './drain-record.js';

export interface WorkerView {
  name: string;
  pod: V1Pod;
  templateHash: string;
  deleting: boolean;
  drain?: DrainRecord;
  /** The engine container's process runs. */
  running: boolean;
  /** The container ended for good: the pod Succeeded or Failed, or its container exited 0 (a drained worker is not restarted). */
  exited: boolean;
  exitCode?: number;
  /** Why the container waits (ContainerCreating, CrashLoopBackOff, ...). */
  waitingReason?: string;
  restarts: number;
  /** The address the node announces (http://podIP:8080; with TLS https://, see node-addresses.ts), once the pod has an IP. */
  uri?: string;
  /** The node's own answer, when it gave one. */
  engine?: NodeStatus;
  /** The coordinator lists the node and its last health check passed. */
  listed: boolean;
  createdAt: number;
}

export function isReady(w: WorkerView): boolean {
  return !w.deleting && !w.drain && w.running && w.engine?.state === 'ACTIVE' && w.listed;
}

/** A pod whose engine never answered and whose container does not run: removing it disturbs no work. */
export function neverStarted(w: WorkerView): boolean {
  return !w.running && !w.engine;
}

/** The pod's side of a view (the engine's and the coordinator's are filled in afterwards). */
export function podView(cluster: EngineCluster, pod: V1Pod): WorkerView {
  const status = pod.status ?? {};
  const container = status.containerStatuses?.find((c) => c.name === 'engine') ?? status.containerStatuses?.[0];
  const terminated = container?.state?.terminated;
  const phase = status.phase ?? 'Pending';
  return {
    name: pod.metadata!.name!,
    pod,
    templateHash: pod.metadata?.labels?.[labels.templateHash] ?? '',
    deleting: pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionTimestamp !== null,
    drain: readDrainRecord(pod),
    running: container?.state?.running !== undefined && container?.state?.running !== null,
    exited: phase === 'Succeeded' || phase === 'Failed' || terminated?.exitCode === 0,
    exitCode: terminated?.exitCode,
    waitingReason: container?.state?.waiting?.reason,
    restarts: container?.restartCount ?? 0,
    uri: workerUri(cluster, pod.metadata!.name!, status.podIP),
    listed: false,
    createdAt: pod.metadata?.creationTimestamp ? new Date(pod.metadata.creationTimestamp).getTime() : 0,
  };
}
