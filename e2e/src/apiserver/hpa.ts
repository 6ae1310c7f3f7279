// autoscaling/v2 HorizontalPodAutoscaler on the server side: its defaults (minReplicas 1, a CPU
// utilization target of 80 % when no metric is given, the scaling rules of a behavior that is
// set), its validation and the cells `kubectl get hpa` prints (REFERENCE, TARGETS, MINPODS, MAXPODS,
// REPLICAS), as the real server's printer formats them.
import { invalid, type FieldError } from './status.js';
import { formatMilli, parseQuantity } from './quantity.js';
import type { JsonObject, KubeObject } from './types.js';

export interface MetricTarget {
  type: 'Utilization' | 'AverageValue' | 'Value';
  averageUtilization?: number;
  averageValue?: string | number;
  value?: string | number;
}

export interface MetricSpec {
  type: string;
  resource?: { name: string; target: MetricTarget };
}

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: ScalingPolicy[];
}

export interface HpaSpec {
  scaleTargetRef: { apiVersion?: string; kind: string; name: string };
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules };
}

export interface MetricStatus {
  type: string;
  resource?: { name: string; current: { averageUtilization?: number; averageValue?: string } };
}

export interface HpaCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface HpaStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HpaCondition[];
}

const defaultScaleUp: Required<ScalingRules> = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};

/** Scale-down's window stays unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies. */
const defaultScaleDown: ScalingRules = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

export function hpaDefaults(obj: KubeObject): void {
  const spec = (obj.spec ??= {}) as unknown as HpaSpec;
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length)
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  if (spec.behavior) {
    spec.behavior.scaleUp = { ...structuredClone(defaultScaleUp), ...spec.behavior.scaleUp };
    spec.behavior.scaleDown = { ...structuredClone(defaultScaleDown), ...spec.behavior.scaleDown };
  }
}

const hpaKind = { group: 'autoscaling', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' };

export function validateHpa(obj: JsonObject): void {
  const spec = (obj.spec ?? {}) as unknown as Partial<HpaSpec>;
  const errors: FieldError[] = [];
  const ref = spec.scaleTargetRef;
  if (!ref?.kind) errors.push({ field: 'spec.scaleTargetRef.kind', reason: 'FieldValueRequired', message: 'Required value' });
  if (!ref?.name) errors.push({ field: 'spec.scaleTargetRef.name', reason: 'FieldValueRequired', message: 'Required value' });
  if (typeof spec.maxReplicas !== 'number' || spec.maxReplicas < 1)
    errors.push({
      field: 'spec.maxReplicas',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(spec.maxReplicas ?? 0)}: must be greater than 0`,
    });
  if (spec.minReplicas !== undefined && spec.minReplicas < 1)
    errors.push({
      field: 'spec.minReplicas',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${spec.minReplicas}: must be greater than or equal to 1`,
    });
  if (typeof spec.maxReplicas === 'number' && spec.minReplicas !== undefined && spec.maxReplicas < spec.minReplicas)
    errors.push({
      field: 'spec.maxReplicas',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${spec.maxReplicas}: must be greater than or equal to \`minReplicas\``,
    });
  (spec.metrics ?? []).forEach((m, i) => {
    const field = `spec.metrics[${i}]`;
    if (m.type !== 'Resource')
      errors.push({
        field: `${field}.type`,
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(m.type)}: the test cluster's HPA controller reads Resource metrics only`,
      });
    else if (!m.resource?.name || !['Utilization', 'AverageValue'].includes(m.resource.target?.type))
      errors.push({
        field: `${field}.resource.target.type`,
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(m.resource?.target?.type)}: supported values: "Utilization", "AverageValue"`,
      });
  });
  if (errors.length) throw invalid(hpaKind, String((obj.metadata as JsonObject | undefined)?.name ?? ''), errors);
}

/** A decimal quantity as Quantity.String() prints it ("0.5" -> "500m"); binary ones ("128Mi") as written. */
function canonical(value: string | number | undefined): string {
  const text = String(value ?? '');
  if (/i$/.test(text)) return text;
  try {
    return formatMilli(parseQuantity(text) * 1000);
  } catch {
    return text;
  }
}

/** TARGETS: "cpu: 45%/50%" per metric ("<unknown>" before a first measurement), two at most then "+ N more...". */
function targetsCell(hpa: KubeObject): string {
  const specs = ((hpa.spec as unknown as HpaSpec).metrics ?? []) as MetricSpec[];
  const statuses = ((hpa.status as HpaStatus | undefined)?.currentMetrics ?? []) as MetricStatus[];
  if (specs.length === 0) return '<none>';
  const list = specs.map((m, i) => {
    const r = m.resource!;
    const current = statuses[i]?.resource?.current;
    if (r.target.type === 'AverageValue') return `${r.name}: ${current?.averageValue ?? '<unknown>'}/${canonical(r.target.averageValue)}`;
    const now = current?.averageUtilization !== undefined ? `${current.averageUtilization}%` : '<unknown>';
    return `${r.name}: ${now}/${r.target.averageUtilization !== undefined ? `${r.target.averageUtilization}%` : '<auto>'}`;
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

export function hpaCells(hpa: KubeObject): unknown[] {
  const spec = hpa.spec as unknown as HpaSpec;
  const status = (hpa.status ?? {}) as Partial<HpaStatus>;
  return [
    `${spec.scaleTargetRef.kind}/${spec.scaleTargetRef.name}`,
    targetsCell(hpa),
    spec.minReplicas ?? '<unset>',
    spec.maxReplicas,
    status.currentReplicas ?? 0,
  ];
}
