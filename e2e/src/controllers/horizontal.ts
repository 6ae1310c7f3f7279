// The HorizontalPodAutoscaler controller (kube-controller-manager's podautoscaler): every sync
// period, for each autoscaling/v2 HPA, reads its target's scale subresource (a Deployment, or a
// custom resource whose CRD declares one), lists the pods of scale.status.selector, reads their
// Resource metrics from metrics-server, computes the replicas each metric asks for (the highest
// wins), stabilizes and rate-limits them (hpa-scaling-rules.ts), writes the scale subresource and
// the HPA's status (currentReplicas, desiredReplicas, currentMetrics, lastScaleTime and the
// AbleToScale / ScalingActive / ScalingLimited conditions), with the real controller's events.
import { ApiError } from '../apiserver/status.js';
import { now } from '../apiserver/names.js';
import { labelMatcher } from '../apiserver/selectors.js';
import { parseQuantity, formatMilli } from '../apiserver/quantity.js';
import { readScale, writeScale } from '../apiserver/scale.js';
import type { ResourceType } from '../apiserver/registry.js';
import type { HpaCondition, HpaSpec, HpaStatus, MetricSpec, MetricStatus, ScalingRules } from '../apiserver/hpa.js';
import type { MetricsServer } from '../apiserver/metrics-server.js';
import type { KubeObject } from '../apiserver/types.js';
import { EventRecorder } from '../cluster/events.js';
import { keyOf, kinds, splitKey, type Kind, type Objects } from '../cluster/objects.js';
import { MetricError, resourceReplicas, type PodMetric, type Recommendation } from './replica-calculator.js';
import { ScalingHistory, type Normalized } from './hpa-scaling-rules.js';
import { WorkQueue } from './work-queue.js';

export const hpaKind: Kind = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };

export interface HpaControllerOptions {
  /** --horizontal-pod-autoscaler-sync-period */
  syncPeriodMs: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization */
  downscaleStabilizationMs: number;
}

/** A failure that sets a condition to False with this reason (and records a Warning event). */
class ConditionFailure extends Error {
  constructor(
    readonly condition: 'AbleToScale' | 'ScalingActive',
    readonly reason: string,
    readonly conditionMessage: string,
    message: string,
  ) {
    super(message);
  }
}

function setCondition(conditions: HpaCondition[], type: string, status: 'True' | 'False', reason: string, message: string): HpaCondition[] {
  const existing = conditions.find((c) => c.type === type);
  const next: HpaCondition = {
    type,
    status,
    lastTransitionTime: existing && existing.status === status ? existing.lastTransitionTime : now(),
    reason,
    message,
  };
  return existing ? conditions.map((c) => (c.type === type ? next : c)) : [...conditions, next];
}

function metricName(m: MetricSpec): string {
  return m.resource!.target.type === 'Utilization'
    ? `${m.resource!.name} resource utilization (percentage of request)`
    : `${m.resource!.name} resource`;
}

export class HorizontalPodAutoscalerController {
  private readonly queue: WorkQueue;
  private readonly recorder: EventRecorder;
  private readonly histories = new Map<string, ScalingHistory>();
  private unsubscribe?: () => void;

  constructor(
    private readonly objects: Objects,
    private readonly metrics: MetricsServer,
    private readonly options: HpaControllerOptions,
  ) {
    this.recorder = new EventRecorder(objects, 'horizontal-pod-autoscaler');
    this.queue = new WorkQueue(
      (key) => this.sync(key),
      () => undefined,
    );
  }

  start(): void {
    // A new HPA is looked at at once, then once per sync period (its own status writes do not requeue it).
    this.unsubscribe = this.objects.watch(hpaKind, (e) => {
      if (e.type === 'ADDED') this.queue.add(keyOf(e.object));
      if (e.type === 'DELETED') this.histories.delete(keyOf(e.object));
    });
    for (const hpa of this.objects.list(hpaKind)) this.queue.add(keyOf(hpa));
  }

  stop(): void {
    this.unsubscribe?.();
    this.queue.stop();
  }

  private sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const hpa = this.objects.get(hpaKind, namespace, name);
    if (!hpa || hpa.metadata.deletionTimestamp) return;
    this.queue.addAfter(key, this.options.syncPeriodMs);
    this.reconcile(key, hpa);
  }

  /** The kind the reference names, in its group (any served version), with a scale subresource. */
  private targetType(ref: HpaSpec['scaleTargetRef']): ResourceType {
    const group = ref.apiVersion?.includes('/') ? ref.apiVersion.split('/')[0] : '';
    const candidates = this.objects.api.registry.all().filter((t) => t.group === group && t.kind === ref.kind);
    const exact = candidates.find((t) => (group ? `${group}/${t.version}` : t.version) === ref.apiVersion) ?? candidates[0];
    if (!exact) throw new Error(`no matches for kind "${ref.kind}" in group "${group}"`);
    if (!exact.scale) throw new Error(`${exact.resource}.${group} "${ref.name}" has no scale subresource`);
    return exact;
  }

  private reconcile(key: string, hpa: KubeObject): void {
    const spec = hpa.spec as unknown as HpaSpec;
    const old = (hpa.status ?? {}) as Partial<HpaStatus>;
    let conditions = [...(old.conditions ?? [])];
    const min = spec.minReplicas ?? 1;
    const writeStatus = (status: Partial<HpaStatus>) => {
      const next: HpaStatus = { currentReplicas: 0, desiredReplicas: 0, ...old, ...status, conditions };
      if (JSON.stringify(next) !== JSON.stringify(hpa.status))
        this.objects.updateStatus(hpaKind, hpa.metadata.namespace, hpa.metadata.name!, next);
    };
    let type: ResourceType;
    let scale: KubeObject;
    try {
      type = this.targetType(spec.scaleTargetRef);
      scale = readScale(this.objects.api, type, hpa.metadata.namespace, spec.scaleTargetRef.name);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.recorder.record(hpa, 'Warning', 'FailedGetScale', message);
      conditions = setCondition(
        conditions,
        'AbleToScale',
        'False',
        'FailedGetScale',
        `the HPA controller was unable to get the target's current scale: ${message}`,
      );
      return writeStatus({});
    }
    const current = (scale.spec as { replicas: number }).replicas;
    conditions = setCondition(
      conditions,
      'AbleToScale',
      'True',
      'SucceededGetScale',
      "the HPA controller was able to get the target's current scale",
    );
    let desired: number;
    let reason = '';
    let currentMetrics: MetricStatus[] | undefined = old.currentMetrics;
    if (current === 0 && min !== 0) {
      desired = 0;
      conditions = setCondition(
        conditions,
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      );
    } else if (current > spec.maxReplicas) {
      [desired, reason] = [spec.maxReplicas, 'Current number of replicas above Spec.MaxReplicas'];
    } else if (current < min) {
      [desired, reason] = [min, 'Current number of replicas below Spec.MinReplicas'];
    } else {
      let computed: { replicas: number; metric: string; statuses: MetricStatus[] };
      try {
        computed = this.computeReplicas(hpa, spec, current, (scale.status as { selector?: string }).selector);
      } catch (err) {
        if (!(err instanceof ConditionFailure)) throw err;
        this.recorder.record(hpa, 'Warning', 'FailedComputeMetricsReplicas', err.message);
        conditions = setCondition(conditions, err.condition, 'False', err.reason, err.conditionMessage);
        return writeStatus({ currentReplicas: current, desiredReplicas: old.desiredReplicas ?? 0 });
      }
      currentMetrics = computed.statuses;
      conditions = setCondition(
        conditions,
        'ScalingActive',
        'True',
        'ValidMetricFound',
        `the HPA was able to successfully calculate a replica count from ${computed.metric}`,
      );
      const normalized = this.normalize(key, spec, current, computed.replicas, min);
      conditions = setCondition(conditions, 'AbleToScale', 'True', normalized.ableToScale.reason, normalized.ableToScale.message);
      conditions = setCondition(
        conditions,
        'ScalingLimited',
        normalized.limited.status,
        normalized.limited.reason,
        normalized.limited.message,
      );
      desired = normalized.replicas;
      reason = desired < current ? 'All metrics below target' : `${computed.metric} above target`;
    }
    const rescale = desired !== current && !(current === 0 && min !== 0);
    let lastScaleTime = old.lastScaleTime;
    if (rescale) {
      try {
        writeScale(this.objects.api, type, hpa.metadata.namespace, spec.scaleTargetRef.name, { ...scale, spec: { replicas: desired } });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.recorder.record(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${message}`);
        conditions = setCondition(
          conditions,
          'AbleToScale',
          'False',
          'FailedUpdateScale',
          `the HPA controller was unable to update the target scale: ${message}`,
        );
        return writeStatus({ currentReplicas: current, currentMetrics });
      }
      if (spec.behavior) this.history(key).scaled(current, desired, spec.behavior.scaleUp ?? {}, this.scaleDownRules(spec));
      this.recorder.record(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      lastScaleTime = now();
    } else desired = current === 0 && min !== 0 ? 0 : current;
    writeStatus({
      currentReplicas: current,
      desiredReplicas: desired,
      currentMetrics,
      lastScaleTime,
      observedGeneration: hpa.metadata.generation,
    });
  }

  private history(key: string): ScalingHistory {
    let h = this.histories.get(key);
    if (!h) this.histories.set(key, (h = new ScalingHistory()));
    return h;
  }

  /** A behavior without a scale-down window gets the controller's downscale stabilization. */
  private scaleDownRules(spec: HpaSpec): ScalingRules {
    const down = spec.behavior?.scaleDown ?? {};
    return { ...down, stabilizationWindowSeconds: down.stabilizationWindowSeconds ?? this.options.downscaleStabilizationMs / 1000 };
  }

  private normalize(key: string, spec: HpaSpec, current: number, recommended: number, min: number): Normalized {
    const limits = { current, min, max: spec.maxReplicas };
    if (!spec.behavior) return this.history(key).normalize(recommended, limits, this.options.downscaleStabilizationMs);
    return this.history(key).normalizeWithBehavior(recommended, limits, spec.behavior.scaleUp ?? {}, this.scaleDownRules(spec));
  }

  /** computeReplicasForMetrics: the highest recommendation; invalid metrics fail unless others scale up. */
  private computeReplicas(
    hpa: KubeObject,
    spec: HpaSpec,
    current: number,
    selector: string | undefined,
  ): { replicas: number; metric: string; statuses: MetricStatus[] } {
    if (!selector) {
      this.recorder.record(hpa, 'Warning', 'SelectorRequired', 'selector is required');
      throw new ConditionFailure(
        'ScalingActive',
        'InvalidSelector',
        "the HPA target's scale is missing a selector",
        'selector is required',
      );
    }
    let matches: (obj: KubeObject) => boolean;
    try {
      matches = labelMatcher(selector);
    } catch (err) {
      const message = `couldn't convert selector into a corresponding internal selector object: ${err instanceof Error ? err.message : String(err)}`;
      this.recorder.record(hpa, 'Warning', 'InvalidSelector', message);
      throw new ConditionFailure('ScalingActive', 'InvalidSelector', message, message);
    }
    const pods = this.objects.list(kinds.pods, hpa.metadata.namespace).filter(matches);
    const podMetrics = this.podMetrics(hpa.metadata.namespace!, pods);
    const metrics = spec.metrics ?? [];
    let best: { replicas: number; metric: string } | undefined;
    const statuses: MetricStatus[] = [];
    const failures: ConditionFailure[] = [];
    for (const m of metrics) {
      try {
        const r = this.replicasForMetric(m, current, pods, podMetrics);
        statuses.push(this.metricStatus(m, r));
        if (!best || r.replicas > best.replicas) best = { replicas: r.replicas, metric: metricName(m) };
      } catch (err) {
        if (!(err instanceof MetricError || err instanceof ApiError)) throw err;
        const name = m.resource?.name ?? m.type;
        const failed = `failed to get ${name} utilization: ${err.message}`;
        this.recorder.record(hpa, 'Warning', 'FailedGetResourceMetric', failed);
        statuses.push({ type: '' });
        failures.push(
          new ConditionFailure(
            'ScalingActive',
            'FailedGetResourceMetric',
            `the HPA was unable to compute the replica count: ${failed}`,
            `failed to get ${name} resource metric value: ${failed}`,
          ),
        );
      }
    }
    if (failures.length && (!best || failures.length === metrics.length || best.replicas < current)) {
      const first = failures[0];
      throw new ConditionFailure(
        first.condition,
        first.reason,
        first.conditionMessage,
        `invalid metrics (${failures.length} invalid out of ${metrics.length}), first error is: ${first.message}`,
      );
    }
    return { ...best!, statuses };
  }

  private replicasForMetric(
    m: MetricSpec,
    current: number,
    pods: KubeObject[],
    podMetrics: Map<string, Map<string, PodMetric>>,
  ): Recommendation {
    const r = m.resource!;
    const metrics = podMetrics.get(r.name) ?? new Map<string, PodMetric>();
    if (metrics.size === 0)
      throw new MetricError(`unable to get metrics for resource ${r.name}: no metrics returned from resource metrics API`);
    const target =
      r.target.type === 'Utilization'
        ? { resource: r.name, utilizationPercent: r.target.averageUtilization ?? 80 }
        : { resource: r.name, averageMilli: parseQuantity(r.target.averageValue) * 1000 };
    return resourceReplicas(current, target, pods, metrics);
  }

  private metricStatus(m: MetricSpec, r: Recommendation): MetricStatus {
    const current =
      m.resource!.target.type === 'Utilization'
        ? { averageUtilization: r.utilization, averageValue: formatMilli(r.averageMilli) }
        : { averageValue: formatMilli(r.averageMilli) };
    return { type: 'Resource', resource: { name: m.resource!.name, current } };
  }

  /** The pods' usage per resource (sum of containers, in milli-units), from metrics-server. */
  private podMetrics(namespace: string, pods: KubeObject[]): Map<string, Map<string, PodMetric>> {
    const uids = new Map(pods.map((p) => [p.metadata.uid, p.metadata.name!]));
    const out = new Map<string, Map<string, PodMetric>>([
      ['cpu', new Map()],
      ['memory', new Map()],
    ]);
    for (const p of this.metrics.pods()) {
      const name = uids.get(p.podUid);
      if (p.namespace !== namespace || !name) continue;
      const sum = (f: (u: { cpuCores: number; memoryBytes: number }) => number) => p.containers.reduce((s, c) => s + f(c.usage), 0);
      out.get('cpu')!.set(name, { milli: sum((u) => u.cpuCores) * 1000, timestampMs: p.timestampMs, windowMs: p.windowMs });
      out.get('memory')!.set(name, { milli: sum((u) => u.memoryBytes) * 1000, timestampMs: p.timestampMs, windowMs: p.windowMs });
    }
    return out;
  }
}
