// The REST verbs over the store, with kube-apiserver's rules: metadata the server owns (uid,
// creationTimestamp, resourceVersion, generation), optimistic concurrency, status subresources,
// namespaces that must exist, and deletion through finalizers and deletionTimestamp.
import { randomUUID } from 'node:crypto';
import { type Registry, apiVersionOf, type ResourceType } from './registry.js';
import type { Store } from './storage.js';
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  invalid,
  notFound,
  staleObjectMessage,
  type FieldError,
} from './status.js';
import { generateName, nameErrors, now } from './names.js';
import { clone, isPlainObject, type JsonObject, type KubeObject } from './types.js';
import { applyDefaults } from './defaults.js';
import { immutableFieldErrors } from './validation.js';
import type { ClusterNetwork } from '../net/network.js';

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export const namespacesType = { group: '', resource: 'namespaces' };

export function bucketOf(t: { group: string; resource: string }): string {
  return `${t.group}/${t.resource}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Everything but metadata (and status when it has its own endpoint): what bumps generation. */
function specPart(obj: KubeObject, t: ResourceType): unknown {
  const { metadata: _m, status, ...rest } = obj;
  return t.statusSubresource ? rest : { ...rest, status };
}

export class Api {
  constructor(
    readonly registry: Registry,
    readonly store: Store,
    /** The address ranges Services' cluster IPs come from. */
    readonly network: ClusterNetwork,
  ) {}

  /** The object in the version the request asked for (storage holds one shape for all versions). */
  private present(t: ResourceType, obj: KubeObject): KubeObject {
    obj.apiVersion = apiVersionOf(t);
    obj.kind = t.kind;
    return obj;
  }

  get(t: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.get(bucketOf(t), t.namespaced ? namespace : undefined, name);
    if (!obj) throw notFound(t, name);
    return this.present(t, obj);
  }

  private checkKind(t: ResourceType, body: unknown): asserts body is KubeObject {
    if (!isPlainObject(body)) throw badRequest('the body of the request was not a JSON object');
    const obj = body as Partial<KubeObject>;
    if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== t.kind)
      throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersionOf(t)})`);
    if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== apiVersionOf(t))
      throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersionOf(t)})`);
    if (!isPlainObject(obj.metadata)) obj.metadata = {};
  }

  private checkNamespace(t: ResourceType, namespace: string | undefined, obj: KubeObject): void {
    if (!t.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (obj.metadata.namespace && namespace && obj.metadata.namespace !== namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    obj.metadata.namespace = namespace ?? obj.metadata.namespace;
  }

  private admit(t: ResourceType, obj: KubeObject): void {
    const errors: FieldError[] = nameErrors(obj.metadata.name!, t.kind === 'Namespace' || t.kind === 'Service');
    if (errors.length) throw invalid(t, obj.metadata.name!, errors);
    t.admit?.(obj as unknown as JsonObject);
  }

  create(t: ResourceType, namespace: string | undefined, body: unknown, dryRun = false): KubeObject {
    this.checkKind(t, body);
    const obj = clone(body);
    this.present(t, obj);
    this.checkNamespace(t, namespace, obj);
    const meta = obj.metadata;
    if (!meta.name) {
      if (!meta.generateName)
        throw invalid(t, '', [
          { field: 'metadata.name', reason: 'FieldValueRequired', message: 'Required value: name or generateName is required' },
        ]);
      meta.name = generateName(meta.generateName);
    }
    if (meta.resourceVersion)
      throw new ApiError(500, 'InternalError', 'Internal error occurred: resourceVersion should not be set on objects to be created');
    if (t.namespaced) {
      const ns = this.store.get(bucketOf(namespacesType), undefined, meta.namespace!);
      if (!ns) throw notFound(namespacesType, meta.namespace!);
      if (ns.metadata.deletionTimestamp)
        throw forbidden(t, meta.name, `unable to create new content in namespace ${meta.namespace} because it is being terminated`);
    }
    if (this.store.get(bucketOf(t), meta.namespace, meta.name)) throw alreadyExists(t, meta.name);
    meta.uid = randomUUID();
    meta.creationTimestamp = now();
    meta.generation = 1;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (t.statusSubresource && t.crdName) delete obj.status;
    applyDefaults(t, obj, this);
    this.admit(t, obj);
    if (dryRun) return obj;
    return this.present(t, this.store.write(bucketOf(t), obj, 'ADDED'));
  }

  /**
   * PUT: the whole object (or only its status through /status). A resourceVersion in the body
   * must be the stored one, or the answer is 409 Conflict.
   */
  update(t: ResourceType, namespace: string | undefined, name: string, body: unknown, subresource?: 'status', dryRun = false): KubeObject {
    this.checkKind(t, body);
    const incoming = clone(body);
    this.present(t, incoming);
    this.checkNamespace(t, namespace, incoming);
    if (incoming.metadata.name && incoming.metadata.name !== name)
      throw badRequest('the name of the object (' + incoming.metadata.name + ') does not match the name on the URL (' + name + ')');
    const old = this.get(t, namespace, name);
    const rv = incoming.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(t, name, staleObjectMessage);
    let next: KubeObject;
    if (subresource === 'status') {
      next = clone(old);
      next.status = incoming.status;
    } else {
      next = incoming;
      if (t.statusSubresource) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      const keep = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;
      for (const k of keep) {
        if (old.metadata[k] === undefined) delete next.metadata[k];
        else next.metadata[k] = old.metadata[k] as never;
      }
      next.metadata.name = name;
      applyDefaults(t, next, this, old);
      this.admit(t, next);
      const immutable = immutableFieldErrors(t, old, next);
      if (immutable.length) throw invalid(t, name, immutable);
      if (!sameJson(specPart(old, t), specPart(next, t))) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    }
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    if (sameJson(old, next) || dryRun) return next;
    // The last finalizer gone: the object goes, unless it still waits out a grace period (a pod
    // being stopped by its kubelet, which deletes it with a grace period of 0 when done).
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers ?? []).length && !next.metadata.deletionGracePeriodSeconds) {
      return this.present(t, this.store.remove(bucketOf(t), next));
    }
    return this.present(t, this.store.write(bucketOf(t), next, 'MODIFIED'));
  }

  /** Writes a server-side change (controllers, GC): retried by the caller on conflict. */
  replace(t: ResourceType, obj: KubeObject, subresource?: 'status'): KubeObject {
    return this.update(t, obj.metadata.namespace, obj.metadata.name!, obj, subresource);
  }

  /**
   * DELETE: with finalizers (or a foreground/orphan policy, which add theirs) the object only gets
   * a deletionTimestamp and stays until the finalizers are removed; otherwise it goes at once.
   */
  delete(
    t: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
    dryRun = false,
  ): { object: KubeObject; gone: boolean } {
    const obj = this.get(t, namespace, name);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== obj.metadata.uid)
      throw conflict(t, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`);
    if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion)
      throw conflict(
        t,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`,
      );
    const finalizers = [...(obj.metadata.finalizers ?? [])];
    const policy = options.propagationPolicy;
    const policyFinalizer = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
    if (policyFinalizer && !finalizers.includes(policyFinalizer)) finalizers.push(policyFinalizer);
    const graceful = this.gracePeriod(t, obj, options);
    // A namespace always passes through Terminating: its controller empties it first.
    if (finalizers.length === 0 && graceful === 0 && t.kind !== 'Namespace') {
      if (dryRun) return { object: obj, gone: true };
      return { object: this.present(t, this.store.remove(bucketOf(t), obj)), gone: true };
    }
    const deleting = obj.metadata.deletionTimestamp !== undefined;
    // A second delete may shorten a pending grace period (kubectl delete --grace-period=1, the
    // kubelet's final delete with 0), never lengthen it.
    const shortens = deleting && graceful < (obj.metadata.deletionGracePeriodSeconds ?? 0);
    if (deleting && !shortens && sameJson(finalizers, obj.metadata.finalizers ?? [])) return { object: obj, gone: false };
    const marked = clone(obj);
    if (finalizers.length) marked.metadata.finalizers = finalizers;
    else delete marked.metadata.finalizers;
    if (!deleting || shortens) {
      marked.metadata.deletionTimestamp = new Date(Date.now() + graceful * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      marked.metadata.deletionGracePeriodSeconds = graceful;
    }
    if (t.kind === 'Namespace') (marked.status as JsonObject) = { ...(marked.status as JsonObject), phase: 'Terminating' };
    if (dryRun) return { object: marked, gone: false };
    return { object: this.present(t, this.store.write(bucketOf(t), marked, 'MODIFIED')), gone: false };
  }

  /**
   * pods/binding: the scheduler's write of spec.nodeName (which updates may not change), with the
   * PodScheduled condition the real binding storage sets.
   */
  bind(t: ResourceType, namespace: string, name: string, nodeName: string): KubeObject {
    const pod = this.get(t, namespace, name);
    const spec = pod.spec as JsonObject;
    const bindingType = { group: '', resource: 'pods/binding' };
    if (pod.metadata.deletionTimestamp) throw conflict(bindingType, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (spec.nodeName) throw conflict(bindingType, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
    spec.nodeName = nodeName;
    const status = (pod.status ?? {}) as JsonObject;
    const conditions = ((status.conditions as JsonObject[] | undefined) ?? []).filter((c) => c.type !== 'PodScheduled');
    status.conditions = [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now() }, ...conditions];
    pod.status = status;
    return this.present(t, this.store.write(bucketOf(t), pod, 'MODIFIED'));
  }

  /** A pod bound to a node with a kubelet gets its grace period; everything else goes at once. */
  private gracePeriod(t: ResourceType, obj: KubeObject, options: DeleteOptions): number {
    if (t.kind !== 'Pod' || !(obj.spec as JsonObject | undefined)?.nodeName) return 0;
    const phase = (obj.status as JsonObject | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return 0;
    const spec = obj.spec as JsonObject;
    return options.gracePeriodSeconds ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30);
  }
}
