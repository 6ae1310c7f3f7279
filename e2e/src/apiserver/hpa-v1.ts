// autoscaling/v1 HorizontalPodAutoscaler (what `kubectl autoscale` of kubectl 1.32 creates): the
// same objects as autoscaling/v2, which storage holds. v1 knows one CPU utilization target and
// its current value; a v1 write keeps what only v2 expresses (other metrics, behavior) from the
// stored object (the real server keeps it in annotations instead).
import type { HpaSpec, HpaStatus, MetricSpec } from './hpa.js';
import type { KubeObject } from './types.js';

interface V1Spec {
  scaleTargetRef: HpaSpec['scaleTargetRef'];
  minReplicas?: number;
  maxReplicas: number;
  targetCPUUtilizationPercentage?: number;
}

interface V1Status {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas?: number;
  currentCPUUtilizationPercentage?: number;
}

const isCpuUtilization = (m: MetricSpec) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.type === 'Utilization';

export function hpaFromStorage(obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as HpaSpec;
  const status = obj.status as Partial<HpaStatus> | undefined;
  const cpu = (spec.metrics ?? []).findIndex(isCpuUtilization);
  const v1Spec: V1Spec = { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas };
  if (cpu >= 0) v1Spec.targetCPUUtilizationPercentage = spec.metrics![cpu].resource!.target.averageUtilization;
  const out: KubeObject = { ...obj, spec: v1Spec };
  if (status) {
    const v1Status: V1Status = {
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
    };
    const current = cpu >= 0 ? status.currentMetrics?.[cpu]?.resource?.current.averageUtilization : undefined;
    if (current !== undefined) v1Status.currentCPUUtilizationPercentage = current;
    out.status = JSON.parse(JSON.stringify(v1Status));
  }
  return out;
}

export function hpaToStorage(obj: KubeObject, stored?: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as Partial<V1Spec>;
  const old = stored?.spec as HpaSpec | undefined;
  const others = (old?.metrics ?? []).filter((m) => !isCpuUtilization(m));
  const cpu: MetricSpec[] =
    spec.targetCPUUtilizationPercentage !== undefined
      ? [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } },
          },
        ]
      : [];
  const v2Spec: Partial<HpaSpec> = {
    scaleTargetRef: spec.scaleTargetRef!,
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas!,
    metrics: [...cpu, ...others],
  };
  if (old?.behavior) v2Spec.behavior = old.behavior;
  const status = obj.status as V1Status | undefined;
  const oldStatus = stored?.status as Partial<HpaStatus> | undefined;
  const v2Status = status
    ? {
        ...oldStatus,
        currentReplicas: status.currentReplicas ?? 0,
        desiredReplicas: status.desiredReplicas ?? 0,
        lastScaleTime: status.lastScaleTime,
        observedGeneration: status.observedGeneration,
      }
    : oldStatus;
  return JSON.parse(JSON.stringify({ ...obj, spec: v2Spec, ...(v2Status ? { status: v2Status } : {}) })) as KubeObject;
}
