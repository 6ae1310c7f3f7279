// The replica count one Resource metric asks for, as the HPA's ReplicaCalculator computes it
// (pkg/controller/podautoscaler/replica_calculator.go): pods being deleted or failed are ignored;
// for CPU, pods not ready yet (or still in their first 5 minutes without a full metric window since
// they became ready) are left out; pods without metrics are assumed at 100 % of their request when
// scaling down and at 0 when scaling up, unready pods at 0 when scaling up, and nothing moves when
// the usage is within the tolerance of the target or when those assumptions reverse the direction.
import type { KubeObject } from '../apiserver/types.js';
import { parseQuantity } from '../apiserver/quantity.js';

export const tolerance = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period */
const cpuInitializationPeriodMs = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay */
const initialReadinessDelayMs = 30_000;

export interface PodMetric {
  /** The pod's usage of the resource (sum of its containers) in milli-units. */
  milli: number;
  timestampMs: number;
  windowMs: number;
}

export class MetricError extends Error {}

export interface Recommendation {
  replicas: number;
  /** Utilization in percent of the requests (Utilization targets). */
  utilization?: number;
  /** Average usage per pod in milli-units. */
  averageMilli: number;
}

interface PodStatusView {
  phase?: string;
  startTime?: string;
  conditions?: { type: string; status: string; lastTransitionTime?: string }[];
}

interface Grouped {
  readyCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

function groupPods(pods: KubeObject[], metrics: Map<string, PodMetric>, resource: string, nowMs: number): Grouped {
  const g: Grouped = { readyCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name!;
    const status = (pod.status ?? {}) as PodStatusView;
    if (pod.metadata.deletionTimestamp || status.phase === 'Failed') {
      g.ignored.add(name);
      continue;
    }
    if (status.phase === 'Pending') {
      g.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      g.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
      const start = status.startTime ? Date.parse(status.startTime) : undefined;
      let unready: boolean;
      if (!ready || start === undefined) unready = true;
      else {
        const transition = Date.parse(ready.lastTransitionTime ?? '') || 0;
        if (start + cpuInitializationPeriodMs > nowMs)
          unready = ready.status === 'False' || metric.timestampMs < transition + metric.windowMs;
        else unready = ready.status === 'False' && start + initialReadinessDelayMs > transition;
      }
      if (unready) {
        g.unready.add(name);
        continue;
      }
    }
    g.readyCount++;
  }
  return g;
}

/** The pods' requests of `resource` in milli-units; every container must request it. */
function podRequests(pods: KubeObject[], resource: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const c of (pod.spec as { containers?: { name: string; resources?: { requests?: Record<string, unknown> } }[] }).containers ??
      []) {
      const request = c.resources?.requests?.[resource];
      if (request === undefined)
        throw new MetricError(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
      sum += parseQuantity(request) * 1000;
    }
    requests.set(pod.metadata.name!, sum);
  }
  return requests;
}

type Ratio = (metrics: Map<string, number>) => { ratio: number; utilization?: number; averageMilli: number };

function utilizationRatio(requests: Map<string, number>, targetPercent: number): Ratio {
  return (metrics) => {
    let usage = 0;
    let requested = 0;
    for (const [name, milli] of metrics) {
      const request = requests.get(name);
      if (request === undefined) continue;
      usage += milli;
      requested += request;
    }
    if (requested === 0) throw new MetricError('no metrics returned matched known pods');
    const utilization = Math.trunc((usage * 100) / requested);
    return { ratio: (usage * 100) / requested / targetPercent, utilization, averageMilli: usage / metrics.size };
  };
}

function averageRatio(targetMilli: number): Ratio {
  return (metrics) => {
    const average = [...metrics.values()].reduce((a, b) => a + b, 0) / metrics.size;
    return { ratio: average / targetMilli, averageMilli: average };
  };
}

export interface ResourceTarget {
  resource: string;
  /** Percent of the requests, or else an average value per pod in milli-units. */
  utilizationPercent?: number;
  averageMilli?: number;
}

/** GetResourceReplicas (Utilization) and GetRawResourceReplicas (AverageValue). */
export function resourceReplicas(
  currentReplicas: number,
  target: ResourceTarget,
  pods: KubeObject[],
  podMetrics: Map<string, PodMetric>,
  nowMs = Date.now(),
): Recommendation {
  if (pods.length === 0) throw new MetricError('no pods returned by selector while calculating replica count');
  const g = groupPods(pods, podMetrics, target.resource, nowMs);
  const metrics = new Map<string, number>();
  for (const [name, m] of podMetrics)
    if (!g.ignored.has(name) && !g.unready.has(name) && pods.some((p) => p.metadata.name === name)) metrics.set(name, m.milli);
  if (metrics.size === 0) throw new MetricError('did not receive metrics for targeted pods (pods might be unready)');
  const requests = target.utilizationPercent !== undefined ? podRequests(pods, target.resource) : new Map<string, number>();
  const ratioOf =
    target.utilizationPercent !== undefined ? utilizationRatio(requests, target.utilizationPercent) : averageRatio(target.averageMilli!);
  const first = ratioOf(metrics);
  const result = (replicas: number): Recommendation => ({ replicas, utilization: first.utilization, averageMilli: first.averageMilli });
  const scaleUpWithUnready = g.unready.size > 0 && first.ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (Math.abs(1 - first.ratio) <= tolerance) return result(currentReplicas);
    return result(Math.ceil(first.ratio * g.readyCount));
  }
  if (g.missing.size > 0) {
    // Missing pods: at 100 % of their request (or of the target) when scaling down, idle when scaling up.
    for (const name of g.missing) {
      if (first.ratio < 1)
        metrics.set(
          name,
          target.utilizationPercent !== undefined
            ? (requests.get(name)! * Math.max(100, target.utilizationPercent)) / 100
            : target.averageMilli!,
        );
      else metrics.set(name, 0);
    }
  }
  if (scaleUpWithUnready) for (const name of g.unready) metrics.set(name, 0);
  const next = ratioOf(metrics);
  if (Math.abs(1 - next.ratio) <= tolerance || (first.ratio < 1 && next.ratio > 1) || (first.ratio > 1 && next.ratio < 1))
    return result(currentReplicas);
  const replicas = Math.ceil(next.ratio * metrics.size);
  if ((next.ratio < 1 && replicas > currentReplicas) || (next.ratio > 1 && replicas < currentReplicas)) return result(currentReplicas);
  return result(replicas);
}
