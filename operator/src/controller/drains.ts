// Carrying out drains, one step per reconcile, from what the node answers: the drain is written to the
// pod's annotation before the node is told anything, so whatever the operator did last, a restarted
// operator reads where it was. Isolating: PUT ISOLATING (again, if the node is ACTIVE: it restarted,
// or someone moved it back) until /v1/status shows it ISOLATED with no work left; then the annotation
// says ShuttingDown and the node is PUT SHUTTING_DOWN; its process then exits by itself, and the plan
// deletes the pod once Kubernetes reports that.
import type { V1Pod } from '@kubernetes/client-node';
import { hasActiveWork } from 'engine/node-workload';
import { mergePatch, type Kube } from '../kube/clients.js';
import type { NodeClient, NodeState } from '../engine/node-client.js';
import { drainPatch, type DrainReason, type DrainRecord } from './drain-record.js';
import type { WorkerView } from './worker-view.js';

export class Drains {
  constructor(
    private readonly kube: Kube,
    private readonly nodes: NodeClient,
  ) {}

  private async record(pod: V1Pod, record: DrainRecord | null): Promise<void> {
    await this.kube.core.patchNamespacedPod(
      { name: pod.metadata!.name!, namespace: pod.metadata!.namespace!, body: drainPatch(record) },
      mergePatch,
    );
  }

  /** Moves the node, ignoring a refusal: the next step reads where it really is. */
  private async move(w: WorkerView, state: NodeState): Promise<void> {
    if (!w.uri) return;
    try {
      await this.nodes.setState(w.uri, state);
    } catch {
      // The node is exiting, restarting, or refused the move; the next reconcile sees which.
    }
  }

  async start(w: WorkerView, reason: DrainReason, now: Date): Promise<void> {
    await this.record(w.pod, { startedAt: now.toISOString(), reason, phase: 'Isolating' });
    await this.move(w, 'ISOLATING');
  }

  /** One step of a drain under way; answers what the node was doing, for the log. */
  async advance(w: WorkerView): Promise<string> {
    const record = w.drain!;
    const engine = w.engine;
    if (!engine) return 'not answering (exiting or restarting)';
    switch (engine.state) {
      case 'ACTIVE':
        if (record.phase !== 'Isolating') await this.record(w.pod, { ...record, phase: 'Isolating' });
        await this.move(w, 'ISOLATING');
        return 'ACTIVE: isolating it again';
      case 'ISOLATED':
        if (hasActiveWork(engine.workload)) return 'ISOLATED, its last work finishing';
        await this.record(w.pod, { ...record, phase: 'ShuttingDown' });
        await this.move(w, 'SHUTTING_DOWN');
        return 'ISOLATED with no work: shutting it down';
      case 'SHUTTING_DOWN':
        if (record.phase !== 'ShuttingDown') await this.record(w.pod, { ...record, phase: 'ShuttingDown' });
        return 'SHUTTING_DOWN: waiting for its process to exit';
      default:
        return `${engine.state}: waiting`;
    }
  }

  /** Calls a drain off: the node takes work again (it was not shutting down yet). */
  async cancel(w: WorkerView): Promise<void> {
    if (w.uri) await this.nodes.setState(w.uri, 'ACTIVE');
    await this.record(w.pod, null);
  }
}
