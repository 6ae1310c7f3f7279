// Events on an EngineCluster (kubectl describe ec/NAME lists them), one for every scale, drain and
// failure, each also written to the log. Recording is best effort: a failure is logged, never thrown.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { EngineCluster } from '../api/engine-cluster.js';
import { apiMessage, type Kube } from './clients.js';

export type EventType = 'Normal' | 'Warning';

let sequence = 0;

export class EventRecorder {
  constructor(
    private readonly kube: Kube,
    private readonly logger: Logger,
    private readonly instance: string,
  ) {}

  record(cluster: EngineCluster, type: EventType, reason: string, message: string): void {
    const meta = cluster.metadata;
    const namespace = meta.namespace!;
    const time = new Date();
    const name = `${meta.name}.${(time.getTime() * 1000 + (sequence++ % 1000)).toString(16)}`;
    const log = type === 'Warning' ? this.logger.warn.bind(this.logger) : this.logger.info.bind(this.logger);
    log({ cluster: `${namespace}/${meta.name}`, reason }, message);
    const body: k8s.CoreV1Event = {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: cluster.apiVersion,
        kind: cluster.kind,
        name: meta.name,
        namespace,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      type,
      reason,
      message,
      source: { component: 'engine-operator' },
      reportingComponent: 'engine-operator',
      reportingInstance: this.instance,
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
    };
    this.kube.core
      .createNamespacedEvent({ namespace, body })
      .catch((err: unknown) => this.logger.warn({ reason, error: apiMessage(err) }, 'could not record an event'));
  }
}
