// The ReplicaSet controller: keeps spec.replicas active pods from the template (adopting orphans
// that match the selector, deleting surplus pods in the controller's order) and reports
// replicas / fullyLabeledReplicas / readyReplicas / availableReplicas / observedGeneration.
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { structuredMatcher, type LabelSelector } from '../apiserver/selectors.js';
import { EventRecorder } from '../cluster/events.js';
import { keyOf, kinds, splitKey, type Objects } from '../cluster/objects.js';
import { availability, deletionOrder, isActive, isReady } from './pods.js';
import { claim, controllerOf, controllerRef } from './owners.js';
import { WorkQueue } from './work-queue.js';

interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: JsonObject };
}

/** Status fields are omitted when zero, as the Go types' omitempty drops them. */
function withoutZeros(status: Record<string, number | unknown>): JsonObject {
  return Object.fromEntries(Object.entries(status).filter(([, v]) => v !== 0 && v !== undefined)) as JsonObject;
}

export class ReplicaSetController {
  private readonly queue: WorkQueue;
  private readonly recorder: EventRecorder;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly objects: Objects) {
    this.recorder = new EventRecorder(objects, 'replicaset-controller');
    this.queue = new WorkQueue(
      (key) => this.sync(key),
      () => undefined,
    );
  }

  start(): void {
    this.unsubscribe.push(this.objects.watch(kinds.replicaSets, (e) => this.queue.add(keyOf(e.object))));
    this.unsubscribe.push(this.objects.watch(kinds.pods, (e) => this.podChanged(e.object)));
    for (const rs of this.objects.list(kinds.replicaSets)) this.queue.add(keyOf(rs));
  }

  private podChanged(pod: KubeObject): void {
    const ref = controllerOf(pod);
    if (ref?.kind === 'ReplicaSet') return this.queue.add(`${pod.metadata.namespace}/${ref.name}`);
    if (ref) return;
    for (const rs of this.objects.list(kinds.replicaSets, pod.metadata.namespace))
      if (structuredMatcher((rs.spec as ReplicaSetSpec).selector)(pod.metadata.labels ?? {})) this.queue.add(keyOf(rs));
  }

  private sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const rs = this.objects.get(kinds.replicaSets, namespace, name);
    if (!rs) return;
    const spec = rs.spec as ReplicaSetSpec;
    const selects = structuredMatcher(spec.selector);
    let pods = claim(this.objects, kinds.pods, rs, this.objects.list(kinds.pods, namespace), (p) => selects(p.metadata.labels ?? {}));
    if (
      !rs.metadata.deletionTimestamp &&
      Object.keys(spec.selector?.matchLabels ?? {}).length + (spec.selector?.matchExpressions?.length ?? 0) > 0
    ) {
      this.manage(rs, spec, pods.filter(isActive));
      pods = claim(this.objects, kinds.pods, rs, this.objects.list(kinds.pods, namespace), (p) => selects(p.metadata.labels ?? {}));
    }
    this.updateStatus(rs, spec, pods.filter(isActive));
  }

  private manage(rs: KubeObject, spec: ReplicaSetSpec, active: KubeObject[]): void {
    const diff = active.length - (spec.replicas ?? 1);
    if (diff < 0) {
      for (let i = 0; i < -diff; i++) {
        const pod = this.objects.create(kinds.pods, rs.metadata.namespace, {
          metadata: {
            generateName: `${rs.metadata.name}-`,
            labels: { ...spec.template?.metadata?.labels },
            ...(spec.template?.metadata?.annotations ? { annotations: { ...spec.template.metadata.annotations } } : {}),
            ownerReferences: [controllerRef(rs)],
          },
          spec: structuredClone(spec.template?.spec ?? {}),
        });
        this.recorder.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
      }
    } else if (diff > 0) {
      for (const pod of [...active].sort(deletionOrder).slice(0, diff)) {
        this.objects.delete(kinds.pods, pod.metadata.namespace, pod.metadata.name!);
        this.recorder.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      }
    }
  }

  private updateStatus(rs: KubeObject, spec: ReplicaSetSpec, active: KubeObject[]): void {
    const templateLabels = spec.template?.metadata?.labels ?? {};
    const minReady = spec.minReadySeconds ?? 0;
    let available = 0;
    let recheck: number | undefined;
    for (const pod of active) {
      const a = availability(pod, minReady);
      if (a.available) available++;
      else if (a.recheckInMs !== undefined) recheck = Math.min(recheck ?? Infinity, a.recheckInMs);
    }
    if (recheck !== undefined) this.queue.addAfter(keyOf(rs), recheck + 50);
    const old = (rs.status ?? {}) as JsonObject;
    const status = withoutZeros({
      replicas: active.length,
      fullyLabeledReplicas: active.filter((p) => Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v)).length,
      readyReplicas: active.filter(isReady).length,
      availableReplicas: available,
      observedGeneration: rs.metadata.generation,
    });
    status.replicas = active.length;
    if (old.conditions) status.conditions = old.conditions;
    if (JSON.stringify(status) !== JSON.stringify(old))
      this.objects.updateStatus(kinds.replicaSets, rs.metadata.namespace, rs.metadata.name!, status);
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.queue.stop();
  }
}
