// core/v1 Events, as the kubelet and the controllers record them (kubectl describe lists them):
// a repeat of the same reason and message for the same object bumps count and lastTimestamp.
import { now } from '../apiserver/names.js';
import type { KubeObject } from '../apiserver/types.js';
import { kinds, type Objects } from './objects.js';

export type EventType = 'Normal' | 'Warning';

let sequence = 0n;

/** name.<hex of the time in ns>, as client-go names events: listing by name lists them in order. */
function eventName(objectName: string): string {
  const ns = BigInt(Date.now()) * 1_000_000n + (sequence++ % 1_000_000n);
  return `${objectName}.${ns.toString(16)}`;
}

export class EventRecorder {
  constructor(
    private readonly objects: Objects,
    private readonly component: string,
    private readonly host?: string,
  ) {}

  record(involved: KubeObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    const namespace = involved.metadata.namespace ?? 'default';
    const time = now();
    const same = this.objects.list(kinds.events, namespace).find((e) => {
      const io = e.involvedObject as { uid?: string; fieldPath?: string };
      return io.uid === involved.metadata.uid && e.reason === reason && e.message === message && io.fieldPath === fieldPath;
    });
    try {
      if (same) {
        same.count = ((same.count as number | undefined) ?? 1) + 1;
        same.lastTimestamp = time;
        this.objects.update(kinds.events, same);
        return;
      }
      this.objects.create(kinds.events, namespace, {
        metadata: { name: eventName(involved.metadata.name!), namespace },
        involvedObject: {
          kind: involved.kind,
          namespace: involved.metadata.namespace,
          name: involved.metadata.name,
          uid: involved.metadata.uid,
          apiVersion: involved.apiVersion,
          resourceVersion: involved.metadata.resourceVersion,
          ...(fieldPath ? { fieldPath } : {}),
        },
        reason,
        message,
        source: { component: this.component, ...(this.host ? { host: this.host } : {}) },
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: this.component,
        reportingInstance: this.host ?? '',
      });
    } catch {
      // An event is best effort, as in the real recorder (e.g. its namespace is being deleted).
    }
  }
}
