// The HTTP face of the API test server: routes kube-apiserver's paths to the REST verbs, list and
// watch (with selectors, limit/continue, bookmarks), Table output, patches and subresources.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Api, bucketOf, type DeleteOptions } from './api.js';
import { Registry, apiVersionOf, type ResourceType } from './registry.js';
import { Store, type StoreEvent } from './storage.js';
import { builtinTypes } from './builtins.js';
import { CrdController } from './crd.js';
import { GarbageCollector } from './gc.js';
import { ApiError, badRequest, expired, internalError, methodNotAllowed, notFoundPath, success, unsupportedMediaType } from './status.js';
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  serverVersion,
  wantsAggregated,
} from './discovery.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import { toTable, type IncludeObject } from './table.js';
import { jsonPatch, mergePatch, strategicMerge } from './patch.js';
import { openApiGroupVersion, openApiRoot } from './openapi.js';
import type { JsonObject, KubeObject } from './types.js';
import { ClusterNetwork } from '../net/network.js';
import { decodeProtobufBody } from './protobuf.js';
import { MetricsApi, metricsGroup, metricsTypes } from './metrics-api.js';
import type { MetricsServer } from './metrics-server.js';
import { readScale, writeScale } from './scale.js';

export interface ApiServerOptions {
  port?: number;
  host?: string;
  /** How many changes watches can resume from before 410 Expired. */
  watchHistory?: number;
  /** Interval of BOOKMARK events on watches that allow them. */
  bookmarkIntervalMs?: number;
  /** The loopback addresses of the cluster (Services' cluster IPs); a random 127.N by default. */
  network?: ClusterNetwork;
}

/** Serves GET pods/{name}/log: the kubelet that runs the pod's containers. */
export type PodLogSource = (pod: KubeObject, query: URLSearchParams, req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const tableAccept = /as=Table/;

/** Pod subresources that need a container runtime's streams. */
const streaming = new Set(['exec', 'attach', 'portforward']);

function send(res: http.ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
  if (contentType === 'application/cbor') throw unsupportedMediaType(contentType);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (contentType === 'application/vnd.kubernetes.protobuf') return decodeProtobufBody(Buffer.concat(chunks));
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`the body of the request could not be decoded as JSON: ${(err as Error).message}`);
  }
}

export class ApiServer {
  readonly registry = new Registry();
  readonly store: Store;
  readonly api: Api;
  private readonly server: http.Server;
  private readonly bookmarkIntervalMs: number;

  constructor(private readonly options: ApiServerOptions = {}) {
    this.store = new Store(options.watchHistory ?? 10000);
    this.api = new Api(this.registry, this.store, options.network ?? new ClusterNetwork());
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 60000;
    for (const t of builtinTypes) this.registry.add(t);
    new CrdController(this.api);
    new GarbageCollector(this.api);
    const nsType = this.registry.get('', 'v1', 'namespaces')!;
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      this.api.create(nsType, undefined, { metadata: { name } });
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        const apiErr = err instanceof ApiError ? err : internalError(err instanceof Error ? err.message : String(err));
        if (!res.headersSent) send(res, apiErr.code, apiErr.toStatus());
        else res.end();
      });
    });
  }

  async listen(): Promise<string> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, host, resolve));
    return `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private route(segments: string[]): Route | undefined {
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api' && segments.length >= 3) [group, version, rest] = ['', segments[1], segments.slice(2)];
    else if (segments[0] === 'apis' && segments.length >= 4) [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
    else return undefined;
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3 && this.registry.get(group, version, rest[2])?.namespaced) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const type = this.registry.get(group, version, rest[0]);
    if (!type || rest.length > 3) return undefined;
    return { type, namespace, name: rest[1], subresource: rest[2] };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const q = url.searchParams;
    const segments = url.pathname
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
    const path = '/' + segments.join('/');
    const accept = req.headers.accept;
    if (req.method === 'GET') {
      if (path === '/version') return send(res, 200, serverVersion);
      if (path === '/healthz' || path === '/readyz' || path === '/livez') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return void res.end('ok');
      }
      if (path === '/openapi/v3') return send(res, 200, openApiRoot(this.registry));
      if (segments[0] === 'openapi' && segments[1] === 'v3') {
        const doc =
          segments[2] === 'api'
            ? openApiGroupVersion(this.registry, '', segments[3])
            : openApiGroupVersion(this.registry, segments[3], segments[4]);
        if (doc) return send(res, 200, doc);
      }
      if (path === '/api' || path === '/apis') {
        if (wantsAggregated(accept)) return send(res, 200, aggregatedDiscovery(this.registry, path === '/api'), aggregatedContentType);
        return send(res, 200, path === '/api' ? apiVersions(req.headers.host ?? '') : apiGroupList(this.registry));
      }
      if (segments[0] === 'api' && segments.length === 2 && segments[1] === 'v1')
        return send(res, 200, apiResourceList(this.registry, '', 'v1'));
      if (segments[0] === 'apis' && segments.length === 2) {
        const group = apiGroup(this.registry, segments[1]);
        if (group) return send(res, 200, group);
      }
      if (segments[0] === 'apis' && segments.length === 3 && this.registry.hasGroupVersion(segments[1], segments[2]))
        return send(res, 200, apiResourceList(this.registry, segments[1], segments[2]));
    }
    const route = this.route(segments);
    if (!route) throw notFoundPath();
    const dryRun = q.getAll('dryRun').includes('All');
    const { type, namespace, name, subresource } = route;
    if (type.group === metricsGroup && this.metricsApi && !subresource) {
      const body = this.metricsApi.serve(req.method, type, namespace, name, q, q.get('watch') === '1' || q.get('watch') === 'true');
      if (tableAccept.test(accept ?? '')) {
        const objects = name ? [body as unknown as KubeObject] : (body.items as unknown as KubeObject[]);
        return send(res, 200, toTable(type, objects, {}, (q.get('includeObject') as IncludeObject) ?? 'Metadata'));
      }
      return send(res, 200, body);
    }
    const podSubresource = type.kind === 'Pod' && !type.crdName && (subresource === 'log' || subresource === 'binding');
    if (type.kind === 'Pod' && !type.crdName && subresource && streaming.has(subresource))
      throw badRequest(
        `pods/${subresource} is not supported by the test cluster: its process kubelet streams no exec, attach or port-forward sessions (pod IPs are reachable from this machine directly)`,
      );
    if (type.kind === 'Pod' && !type.crdName && subresource === 'eviction')
      throw new ApiError(
        405,
        'MethodNotAllowed',
        'pods/eviction is not supported by the test cluster (PodDisruptionBudgets are stored, not enforced): delete the pod instead',
      );
    if (subresource && !(subresource === 'status' && type.statusSubresource) && !(subresource === 'scale' && type.scale) && !podSubresource)
      throw notFoundPath();
    if ((subresource === 'log' && req.method !== 'GET') || (subresource === 'binding' && req.method !== 'POST')) throw methodNotAllowed();
    switch (req.method) {
      case 'GET':
        if (!name)
          return q.get('watch') === '1' || q.get('watch') === 'true'
            ? this.watch(req, res, type, namespace, q)
            : this.list(res, type, namespace, q, accept);
        if (subresource === 'scale') return send(res, 200, readScale(this.api, type, namespace, name));
        if (subresource === 'log') return this.podLog(req, res, type, namespace!, name, q);
        return this.sendObject(res, 200, type, this.api.get(type, namespace, name), accept, q);
      case 'POST': {
        if (subresource === 'binding') return send(res, 201, this.bind(type, namespace!, name!, await readBody(req), dryRun));
        if (name) throw methodNotAllowed();
        const created = this.api.create(type, namespace, this.inward(type, await readBody(req)), dryRun);
        return this.sendObject(res, 201, type, created, accept, q);
      }
      case 'PUT': {
        if (!name) throw methodNotAllowed();
        const body = await readBody(req);
        if (subresource === 'scale') return send(res, 200, writeScale(this.api, type, namespace, name, body as KubeObject, dryRun));
        const stored = type.conversion ? this.inward(type, body, this.api.get(type, namespace, name)) : body;
        return this.sendObject(
          res,
          200,
          type,
          this.api.update(type, namespace, name, stored, subresource === 'status' ? 'status' : undefined, dryRun),
          accept,
          q,
        );
      }
      case 'PATCH': {
        if (!name) throw methodNotAllowed();
        const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
        const patch = await readBody(req);
        const apply = (current: unknown): unknown => {
          if (contentType === 'application/merge-patch+json') return mergePatch(current, patch);
          if (contentType === 'application/json-patch+json') return jsonPatch(current, patch);
          if (contentType === 'application/strategic-merge-patch+json' && !type.crdName) return strategicMerge(current, patch);
          throw unsupportedMediaType(contentType);
        };
        if (subresource === 'scale') {
          const scaled = apply(readScale(this.api, type, namespace, name)) as KubeObject;
          return send(res, 200, writeScale(this.api, type, namespace, name, scaled, dryRun));
        }
        const current = this.api.get(type, namespace, name);
        const patched = this.inward(type, apply(this.outward(type, current)), current) as KubeObject;
        const result = this.api.update(type, namespace, name, patched, subresource === 'status' ? 'status' : undefined, dryRun);
        return this.sendObject(res, 200, type, result, accept, q);
      }
      case 'DELETE': {
        const body =
          Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding']
            ? ((await readBody(req)) as DeleteOptions)
            : {};
        const options: DeleteOptions = {
          propagationPolicy: (q.get('propagationPolicy') as DeleteOptions['propagationPolicy']) ?? body.propagationPolicy,
          gracePeriodSeconds: q.has('gracePeriodSeconds') ? Number(q.get('gracePeriodSeconds')) : body.gracePeriodSeconds,
          preconditions: body.preconditions,
        };
        if (!name) return this.deleteCollection(res, type, namespace, q, options, dryRun);
        const { object, gone } = this.api.delete(type, namespace, name, options, dryRun);
        if (gone && !type.returnDeletedObject)
          return send(res, 200, success({ name, group: type.group, kind: type.resource, uid: object.metadata.uid }));
        return this.sendObject(res, gone ? 200 : 202, type, object, accept, q);
      }
      default:
        throw methodNotAllowed();
    }
  }

  private metricsApi?: MetricsApi;

  /** Serves metrics.k8s.io from `metrics`, as installing metrics-server adds the group. */
  serveMetrics(metrics: MetricsServer): void {
    this.metricsApi = new MetricsApi(metrics, this.store);
    for (const t of metricsTypes) this.registry.add(t);
  }

  /** Set by the kubelet: who answers pods/log. */
  podLogs?: PodLogSource;

  private async podLog(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    type: ResourceType,
    namespace: string,
    name: string,
    q: URLSearchParams,
  ): Promise<void> {
    const pod = this.api.get(type, namespace, name);
    const spec = pod.spec as { nodeName?: string; containers?: { name: string }[] };
    const container = q.get('container');
    const names = (spec.containers ?? []).map((c) => c.name);
    if (!container && names.length > 1)
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
    if (!this.podLogs || !spec.nodeName) {
      const which = container ?? names[0];
      throw badRequest(`container "${which}" in pod "${name}" is waiting to start: ContainerCreating`);
    }
    await this.podLogs(pod, q, req, res);
  }

  /** POST pods/{name}/binding with a v1 Binding naming the node. */
  private bind(type: ResourceType, namespace: string, name: string, body: unknown, dryRun: boolean): unknown {
    const binding = body as { kind?: string; metadata?: { name?: string }; target?: { kind?: string; name?: string } };
    if (binding.metadata?.name && binding.metadata.name !== name)
      throw badRequest('the name of the object (' + binding.metadata.name + ') does not match the name on the URL (' + name + ')');
    if (!binding.target?.name) throw new ApiError(422, 'Invalid', `Binding "${name}" is invalid: target.name: Required value`);
    if (!dryRun) this.api.bind(type, namespace, name, binding.target.name);
    return success();
  }

  private sendObject(
    res: http.ServerResponse,
    code: number,
    type: ResourceType,
    obj: KubeObject,
    accept: string | undefined,
    q: URLSearchParams,
  ): void {
    if (tableAccept.test(accept ?? ''))
      return send(
        res,
        code,
        toTable(
          type,
          [obj],
          { resourceVersion: obj.metadata.resourceVersion ?? '' },
          (q.get('includeObject') as IncludeObject) ?? 'Metadata',
          (o) => this.outward(type, o),
        ),
      );
    send(res, code, this.outward(type, obj));
  }

  /** A body in the version of the request, in the shape storage holds (`stored`: what it replaces). */
  private inward(type: ResourceType, body: unknown, stored?: KubeObject): unknown {
    return type.conversion && typeof body === 'object' && body !== null ? type.conversion.toStorage(body as KubeObject, stored) : body;
  }

  /** A stored object in the version the request asked for. */
  private outward(type: ResourceType, obj: KubeObject): KubeObject {
    return type.conversion ? type.conversion.fromStorage(obj) : obj;
  }

  private selected(type: ResourceType, namespace: string | undefined, q: URLSearchParams): { key: string; object: KubeObject }[] {
    const byLabel = labelMatcher(q.get('labelSelector') ?? undefined);
    const byField = fieldMatcher(q.get('fieldSelector') ?? undefined, type.kind);
    return this.store
      .list(bucketOf(type), type.namespaced ? namespace : undefined)
      .filter(({ object }) => byLabel(object) && byField(object))
      .map(({ key, object }) => ({ key, object: Object.assign(object, { apiVersion: apiVersionOf(type), kind: type.kind }) }));
  }

  /** limit/continue: the token carries the last key served and the list's revision. */
  private list(
    res: http.ServerResponse,
    type: ResourceType,
    namespace: string | undefined,
    q: URLSearchParams,
    accept: string | undefined,
  ): void {
    let items = this.selected(type, namespace, q);
    let revision = this.store.currentRevision;
    const token = q.get('continue');
    if (token) {
      let parsed: { rv: number; start: string };
      try {
        parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
      } catch {
        throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
      }
      this.store.eventsSince('', parsed.rv); // 410 once the list's revision is compacted away
      revision = parsed.rv;
      items = items.filter((i) => i.key > parsed.start);
    }
    const limit = Number(q.get('limit') ?? 0);
    const meta: JsonObject = { resourceVersion: String(revision) };
    if (limit > 0 && items.length > limit) {
      items = items.slice(0, limit);
      meta.continue = Buffer.from(JSON.stringify({ rv: revision, start: items[items.length - 1].key })).toString('base64');
      meta.remainingItemCount = this.selected(type, namespace, q).length - items.length;
    }
    const objects = items.map((i) => i.object);
    if (tableAccept.test(accept ?? ''))
      return send(
        res,
        200,
        toTable(type, objects, meta, (q.get('includeObject') as IncludeObject) ?? 'Metadata', (o) => this.outward(type, o)),
      );
    send(res, 200, {
      kind: `${type.kind}List`,
      apiVersion: apiVersionOf(type),
      metadata: meta,
      items: objects.map((o) => this.outward(type, o)),
    });
  }

  private deleteCollection(
    res: http.ServerResponse,
    type: ResourceType,
    namespace: string | undefined,
    q: URLSearchParams,
    options: DeleteOptions,
    dryRun: boolean,
  ): void {
    const deleted = this.selected(type, namespace, q).map(
      ({ object }) => this.api.delete(type, object.metadata.namespace, object.metadata.name!, options, dryRun).object,
    );
    send(res, 200, {
      kind: `${type.kind}List`,
      apiVersion: apiVersionOf(type),
      metadata: { resourceVersion: String(this.store.currentRevision) },
      items: deleted.map((o) => this.outward(type, o)),
    });
  }

  /**
   * A watch streams one JSON event per line. Without a resourceVersion (or with "0") it starts
   * with ADDED for every current object; with one it replays the changes after it, or sends an
   * ERROR event with 410 Expired when they are no longer kept, as the real server does.
   */
  private watch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    type: ResourceType,
    namespace: string | undefined,
    q: URLSearchParams,
  ): void {
    const bucket = bucketOf(type);
    const byLabel = labelMatcher(q.get('labelSelector') ?? undefined);
    const byField = fieldMatcher(q.get('fieldSelector') ?? undefined, type.kind);
    const inScope = (obj: KubeObject) =>
      (!type.namespaced || namespace === undefined || obj.metadata.namespace === namespace) && byLabel(obj) && byField(obj);
    const rv = q.get('resourceVersion') ?? '';
    const sendInitial = q.get('sendInitialEvents') === 'true';
    const bookmarks = q.get('allowWatchBookmarks') === 'true';
    const write = (type_: string, object: unknown) => res.write(JSON.stringify({ type: type_, object }) + '\n');
    const present = (obj: KubeObject) => this.outward(type, Object.assign(obj, { apiVersion: apiVersionOf(type), kind: type.kind }));
    let lastRevision = this.store.currentRevision;
    let backlog: StoreEvent[] = [];
    let initial: KubeObject[] = [];
    if (rv === '' || rv === '0' || sendInitial) initial = this.selected(type, namespace, q).map((i) => i.object);
    else if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
    else {
      try {
        backlog = this.store.eventsSince(bucket, Number(rv));
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 410)) throw err;
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        write('ERROR', expired(err.message).toStatus());
        return void res.end();
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    // Clients wait for the headers before reading events: they go out now, not with the first event.
    res.flushHeaders();
    for (const obj of initial) write('ADDED', obj);
    for (const e of backlog) if (inScope(e.object)) write(e.type, present(e.object));
    const bookmark = (annotations?: Record<string, string>) =>
      write('BOOKMARK', {
        kind: type.kind,
        apiVersion: apiVersionOf(type),
        metadata: { resourceVersion: String(lastRevision), ...(annotations ? { annotations } : {}) },
      });
    if (sendInitial && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
    const unsubscribe = this.store.subscribe((e) => {
      lastRevision = e.rv;
      if (e.bucket === bucket && inScope(e.object)) write(e.type, present(e.object));
    });
    const timer = bookmarks ? setInterval(() => bookmark(), this.bookmarkIntervalMs) : undefined;
    const timeoutSeconds = Number(q.get('timeoutSeconds') ?? 0);
    const timeout = timeoutSeconds > 0 ? setTimeout(() => res.end(), timeoutSeconds * 1000) : undefined;
    const stop = () => {
      unsubscribe();
      clearInterval(timer);
      clearTimeout(timeout);
    };
    req.on('close', stop);
    res.on('close', stop);
  }
}
