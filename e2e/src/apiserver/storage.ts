// The object store: one global resourceVersion counter (as etcd's revision), objects per bucket
// ("group/resource", shared by every version of a kind), and a bounded history of changes that
// watches resume from. A watch asking for a revision older than the history gets 410 Expired.
import { clone, type KubeObject } from './types.js';
import { expired } from './status.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  bucket: string;
  rv: number;
  object: KubeObject;
}

export type Listener = (event: StoreEvent) => void;

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class Store {
  private revision = 1;
  private readonly buckets = new Map<string, Map<string, KubeObject>>();
  private readonly history: StoreEvent[] = [];
  /** Revisions at or below this one are no longer in the history. */
  private compactedRevision = 1;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly historyLimit: number) {}

  get currentRevision(): number {
    return this.revision;
  }

  private bucket(name: string): Map<string, KubeObject> {
    let b = this.buckets.get(name);
    if (!b) this.buckets.set(name, (b = new Map()));
    return b;
  }

  get(bucket: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const obj = this.buckets.get(bucket)?.get(objectKey(namespace, name));
    return obj && clone(obj);
  }

  /** Objects sorted by namespace/name, as etcd's key order returns them. */
  list(bucket: string, namespace?: string): { key: string; object: KubeObject }[] {
    const out: { key: string; object: KubeObject }[] = [];
    for (const [key, object] of this.buckets.get(bucket) ?? []) {
      if (namespace !== undefined && object.metadata.namespace !== namespace) continue;
      out.push({ key, object: clone(object) });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Stores an object under a new revision (written into metadata.resourceVersion) and tells watchers. */
  write(bucket: string, object: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject {
    const rv = ++this.revision;
    const stored = clone(object);
    stored.metadata.resourceVersion = String(rv);
    this.bucket(bucket).set(objectKey(stored.metadata.namespace, stored.metadata.name!), stored);
    this.record({ type, bucket, rv, object: stored });
    return clone(stored);
  }

  remove(bucket: string, object: KubeObject): KubeObject {
    const rv = ++this.revision;
    const gone = clone(object);
    gone.metadata.resourceVersion = String(rv);
    this.bucket(bucket).delete(objectKey(gone.metadata.namespace, gone.metadata.name!));
    this.record({ type: 'DELETED', bucket, rv, object: gone });
    return clone(gone);
  }

  private record(event: StoreEvent): void {
    this.history.push(event);
    while (this.history.length > this.historyLimit) this.compactedRevision = this.history.shift()!.rv;
    for (const listener of this.listeners) listener(event);
  }

  /** The changes after `since` in one bucket; 410 Expired when they are no longer all kept. */
  eventsSince(bucket: string, since: number): StoreEvent[] {
    if (since < this.compactedRevision) throw expired(`too old resource version: ${since} (${this.compactedRevision + 1})`);
    return this.history.filter((e) => e.rv > since && e.bucket === bucket).map((e) => ({ ...e, object: clone(e.object) }));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every bucket name with at least one object (the namespace controller and GC walk them). */
  bucketNames(): string[] {
    return [...this.buckets.keys()];
  }
}
