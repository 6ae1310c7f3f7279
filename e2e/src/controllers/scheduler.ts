// The scheduler: binds each new pod to a Ready node whose labels match its nodeSelector (through
// pods/binding, as kube-scheduler does), or reports it Unschedulable with the real wording.
// Affinity, taints and resources are not considered: the test cluster has one node.
import type { KubeObject } from '../apiserver/types.js';
import { ApiError } from '../apiserver/status.js';
import { EventRecorder } from '../cluster/events.js';
import { keyOf, kinds, splitKey, type Objects } from '../cluster/objects.js';
import { WorkQueue } from './work-queue.js';

function nodeReady(node: KubeObject): boolean {
  const conditions = (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return (
    conditions.some((c) => c.type === 'Ready' && c.status === 'True') &&
    !(node.spec as { unschedulable?: boolean } | undefined)?.unschedulable
  );
}

export class Scheduler {
  private readonly queue: WorkQueue;
  private readonly recorder: EventRecorder;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly objects: Objects) {
    this.recorder = new EventRecorder(objects, 'default-scheduler');
    this.queue = new WorkQueue(
      (key) => this.schedule(key),
      () => undefined,
    );
  }

  start(): void {
    this.unsubscribe.push(this.objects.watch(kinds.pods, (e) => e.type !== 'DELETED' && this.queue.add(keyOf(e.object))));
    this.unsubscribe.push(this.objects.watch(kinds.nodes, () => this.requeuePending()));
    this.requeuePending();
  }

  private requeuePending(): void {
    for (const pod of this.objects.list(kinds.pods)) if (!(pod.spec as { nodeName?: string }).nodeName) this.queue.add(keyOf(pod));
  }

  private schedule(key: string): void {
    const { namespace, name } = splitKey(key);
    const pod = this.objects.get(kinds.pods, namespace, name);
    const spec = pod?.spec as { nodeName?: string; nodeSelector?: Record<string, string>; schedulerName?: string } | undefined;
    if (!pod || !spec || spec.nodeName || pod.metadata.deletionTimestamp) return;
    if (spec.schedulerName && spec.schedulerName !== 'default-scheduler') return;
    const nodes = this.objects.list(kinds.nodes);
    const fits = nodes.filter(
      (n) => nodeReady(n) && Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => n.metadata.labels?.[k] === v),
    );
    if (fits.length === 0) return this.unschedulable(pod, nodes);
    const node = fits[0].metadata.name!;
    try {
      this.objects.api.bind(this.objects.type(kinds.pods), namespace, name, node);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
    this.recorder.record(pod, 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`);
  }

  private unschedulable(pod: KubeObject, nodes: KubeObject[]): void {
    const notReady = nodes.filter((n) => !nodeReady(n)).length;
    const reasons = [
      notReady ? `${notReady} node(s) had untolerated taint {node.kubernetes.io/not-ready: }` : '',
      nodes.length - notReady ? `${nodes.length - notReady} node(s) didn't match Pod's node affinity/selector` : '',
    ].filter(Boolean);
    const message = `0/${nodes.length} nodes are available: ${reasons.join(', ')}${reasons.length ? '.' : 'no nodes available to schedule pods'}`;
    const status = (pod.status ?? {}) as { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
    const current = (status.conditions ?? []).find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.message === message) return;
    const conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        reason: 'Unschedulable',
        message,
      },
      ...(status.conditions ?? []).filter((c) => c.type !== 'PodScheduled'),
    ];
    this.objects.updateStatus(kinds.pods, pod.metadata.namespace, pod.metadata.name!, { ...status, conditions });
    this.recorder.record(pod, 'Warning', 'FailedScheduling', message);
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.queue.stop();
  }
}
