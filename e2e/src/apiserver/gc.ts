// The garbage collector and the namespace controller: after every change, a coalesced sweep
// (1) deletes objects whose owners are all gone (background cascade), (2) for an owner deleted
// in the foreground deletes its dependents and drops the foregroundDeletion finalizer once none is
// left, (3) for an orphan deletion removes the owner from its dependents' ownerReferences, and
// (4) empties a terminating namespace and then removes it.
import { type Api, bucketOf, namespacesType } from './api.js';
import { ApiError } from './status.js';
import type { ResourceType } from './registry.js';
import type { KubeObject } from './types.js';

interface Entry {
  type: ResourceType;
  object: KubeObject;
}

export class GarbageCollector {
  private scheduled = false;

  constructor(private readonly api: Api) {
    api.store.subscribe(() => this.schedule());
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.sweep();
    });
  }

  /** One type per bucket (the first registered version) is enough to address its objects. */
  private entries(): Entry[] {
    const byBucket = new Map<string, ResourceType>();
    for (const t of this.api.registry.all()) if (!byBucket.has(bucketOf(t))) byBucket.set(bucketOf(t), t);
    const out: Entry[] = [];
    for (const [bucket, type] of byBucket) for (const { object } of this.api.store.list(bucket)) out.push({ type, object });
    return out;
  }

  /** Writes that lose a race (409, 404) are retried by the next sweep, which the race triggers. */
  private attempt(write: () => void): void {
    try {
      write();
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 409 || err.code === 404))) throw err;
    }
  }

  private dropFinalizer(e: Entry, finalizer: string): void {
    const obj = e.object;
    obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.attempt(() => this.api.replace(e.type, obj));
  }

  private sweep(): void {
    const entries = this.entries();
    const byUid = new Map(entries.map((e) => [e.object.metadata.uid!, e]));
    const dependentsOf = (uid: string) => entries.filter((e) => (e.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid));
    for (const e of entries) {
      const meta = e.object.metadata;
      const finalizers = meta.finalizers ?? [];
      if (meta.deletionTimestamp && finalizers.includes('orphan')) {
        for (const d of dependentsOf(meta.uid!)) {
          d.object.metadata.ownerReferences = d.object.metadata.ownerReferences!.filter((r) => r.uid !== meta.uid);
          this.attempt(() => this.api.replace(d.type, d.object));
        }
        this.dropFinalizer(e, 'orphan');
      } else if (meta.deletionTimestamp && finalizers.includes('foregroundDeletion')) {
        const dependents = dependentsOf(meta.uid!);
        if (dependents.length === 0) this.dropFinalizer(e, 'foregroundDeletion');
        for (const d of dependents)
          if (!d.object.metadata.deletionTimestamp)
            this.attempt(() =>
              this.api.delete(d.type, d.object.metadata.namespace, d.object.metadata.name!, { propagationPolicy: 'Foreground' }),
            );
      }
      const owners = meta.ownerReferences ?? [];
      if (owners.length > 0 && !meta.deletionTimestamp && owners.every((r) => !byUid.has(r.uid)))
        this.attempt(() => this.api.delete(e.type, meta.namespace, meta.name!, { propagationPolicy: 'Background' }));
      if (e.type.kind === 'Namespace' && meta.deletionTimestamp) this.finishNamespace(e, entries);
    }
  }

  private finishNamespace(ns: Entry, entries: Entry[]): void {
    const name = ns.object.metadata.name!;
    const contents = entries.filter((e) => e.type.namespaced && e.object.metadata.namespace === name);
    for (const e of contents)
      if (!e.object.metadata.deletionTimestamp)
        this.attempt(() => this.api.delete(e.type, name, e.object.metadata.name!, { propagationPolicy: 'Background' }));
    if (contents.length === 0 && (ns.object.metadata.finalizers ?? []).length === 0)
      this.api.store.remove(bucketOf(namespacesType), ns.object);
  }
}
