// In-process access to the API test server's objects for the kubelet and the controllers, which
// run in the server's process as the real ones run against its REST API: they read what the store
// holds, write through the same Api (validation, resourceVersion, watch events) and react to the
// store's change events as informers do.
import { type Api, bucketOf } from '../apiserver/api.js';
import type { ResourceType } from '../apiserver/registry.js';
import { ApiError } from '../apiserver/status.js';
import type { StoreEvent } from '../apiserver/storage.js';
import type { KubeObject } from '../apiserver/types.js';

export interface Kind {
  group: string;
  version: string;
  resource: string;
}

export const kinds = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  nodes: { group: '', version: 'v1', resource: 'nodes' },
  services: { group: '', version: 'v1', resource: 'services' },
  endpoints: { group: '', version: 'v1', resource: 'endpoints' },
  configMaps: { group: '', version: 'v1', resource: 'configmaps' },
  secrets: { group: '', version: 'v1', resource: 'secrets' },
  events: { group: '', version: 'v1', resource: 'events' },
  endpointSlices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicaSets: { group: 'apps', version: 'v1', resource: 'replicasets' },
} satisfies Record<string, Kind>;

export class Objects {
  constructor(readonly api: Api) {}

  type(kind: Kind): ResourceType {
    const t = this.api.registry.get(kind.group, kind.version, kind.resource);
    if (!t) throw new Error(`no resource ${kind.resource} in ${kind.group || 'core'}/${kind.version}`);
    return t;
  }

  list(kind: Kind, namespace?: string): KubeObject[] {
    const t = this.type(kind);
    return this.api.store
      .list(bucketOf(t), namespace)
      .map(({ object }) => Object.assign(object, { apiVersion: t.group ? `${t.group}/${t.version}` : t.version, kind: t.kind }));
  }

  get(kind: Kind, namespace: string | undefined, name: string): KubeObject | undefined {
    try {
      return this.api.get(this.type(kind), namespace, name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  create(kind: Kind, namespace: string | undefined, obj: object): KubeObject {
    return this.api.create(this.type(kind), namespace, obj);
  }

  update(kind: Kind, obj: KubeObject): KubeObject {
    return this.api.replace(this.type(kind), obj);
  }

  /** Writes the status of the current object (read-modify-write, so never a conflict). */
  updateStatus(kind: Kind, namespace: string | undefined, name: string, status: unknown): KubeObject | undefined {
    const current = this.get(kind, namespace, name);
    if (!current) return undefined;
    current.status = status;
    return this.api.replace(this.type(kind), current, 'status');
  }

  delete(kind: Kind, namespace: string | undefined, name: string, options: Parameters<Api['delete']>[3] = {}): void {
    try {
      this.api.delete(this.type(kind), namespace, name, options);
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** Calls `listener` for every change of objects of `kind`; returns the unsubscribe function. */
  watch(kind: Kind, listener: (event: StoreEvent) => void): () => void {
    const bucket = bucketOf({ group: kind.group, resource: kind.resource });
    return this.api.store.subscribe((event) => {
      if (event.bucket === bucket) listener(event);
    });
  }
}

/** "namespace/name", the key controllers queue. */
export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
