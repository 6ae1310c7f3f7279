// Pod predicates the workload controllers share (as k8s.io/kubernetes/pkg/api/v1/pod and
// controller_utils): active, ready, available after minReadySeconds.
import type { KubeObject } from '../apiserver/types.js';

interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

function phase(pod: KubeObject): string | undefined {
  return (pod.status as { phase?: string } | undefined)?.phase;
}

/** Counts toward a workload's replicas: not being deleted, not finished. */
export function isActive(pod: KubeObject): boolean {
  return !pod.metadata.deletionTimestamp && phase(pod) !== 'Succeeded' && phase(pod) !== 'Failed';
}

export function readyCondition(pod: KubeObject): PodCondition | undefined {
  return ((pod.status as { conditions?: PodCondition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
}

export function isReady(pod: KubeObject): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** Ready for at least minReadySeconds; `recheckInMs` tells when a ready pod becomes available. */
export function availability(pod: KubeObject, minReadySeconds: number, nowMs = Date.now()): { available: boolean; recheckInMs?: number } {
  const c = readyCondition(pod);
  if (c?.status !== 'True') return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : nowMs;
  const at = since + minReadySeconds * 1000;
  return at <= nowMs ? { available: true } : { available: false, recheckInMs: at - nowMs };
}

/**
 * The order the ReplicaSet controller deletes surplus pods in (controller.ActivePods): unscheduled
 * first, then pending, then not ready, then ready for less time, then more restarts, then newer.
 */
export function deletionOrder(a: KubeObject, b: KubeObject): number {
  const scheduled = (p: KubeObject) => ((p.spec as { nodeName?: string }).nodeName ? 1 : 0);
  const phaseRank = (p: KubeObject) => ({ Pending: 0, Unknown: 1, Running: 2 })[phase(p) ?? 'Unknown'] ?? 1;
  const ready = (p: KubeObject) => (isReady(p) ? 1 : 0);
  const readySince = (p: KubeObject) => Date.parse(readyCondition(p)?.lastTransitionTime ?? '') || 0;
  const restarts = (p: KubeObject) =>
    ((p.status as { containerStatuses?: { restartCount?: number }[] } | undefined)?.containerStatuses ?? []).reduce(
      (n, c) => n + (c.restartCount ?? 0),
      0,
    );
  const created = (p: KubeObject) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return (
    scheduled(a) - scheduled(b) ||
    phaseRank(a) - phaseRank(b) ||
    ready(a) - ready(b) ||
    (ready(a) && ready(b) ? readySince(b) - readySince(a) : 0) ||
    restarts(b) - restarts(a) ||
    created(b) - created(a)
  );
}
