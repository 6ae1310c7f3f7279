// Discovery: /version, the legacy documents (/api, /apis, /api/v1, /apis/{group}/{version}) and
// the aggregated apidiscovery.k8s.io/v2 lists kubectl 1.32 asks for first.
import { type Registry, verbs, type ResourceType } from './registry.js';
import type { JsonObject } from './types.js';

export const serverVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.3',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-03-11T00:00:00Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export const aggregatedContentType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export function wantsAggregated(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const p = part.replace(/\s/g, '');
    return p.includes('g=apidiscovery.k8s.io') && p.includes('v=v2') && p.includes('as=APIGroupDiscoveryList');
  });
}

const subresourceVerbs = ['get', 'patch', 'update'];

function subresources(t: ResourceType): { name: string; kind: string; group?: string; version?: string; verbs: string[] }[] {
  const out: { name: string; kind: string; group?: string; version?: string; verbs: string[] }[] = [];
  if (t.statusSubresource) out.push({ name: 'status', kind: t.kind, verbs: subresourceVerbs });
  if (t.scale) out.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: subresourceVerbs });
  if (t.kind === 'Pod' && !t.crdName) {
    out.push({ name: 'binding', kind: 'Binding', verbs: ['create'] });
    out.push({ name: 'log', kind: 'Pod', verbs: ['get'] });
  }
  return out;
}

function resourceVerbs(t: ResourceType): string[] {
  if (t.verbs) return t.verbs;
  return t.kind === 'Event' || t.kind === 'Namespace' ? verbs.filter((v) => !(t.kind === 'Namespace' && v === 'deletecollection')) : verbs;
}

/** Versions of a group, newest registration first is not kube's rule: v1 beats v1beta1 etc. */
function sortedVersions(versions: string[]): string[] {
  const rank = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    return [m[2] ? (m[2] === 'beta' ? 1 : 0) : 2, Number(m[1]), Number(m[3] ?? 0)];
  };
  return [...versions].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
  });
}

export function apiVersions(host: string): JsonObject {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] };
}

export function apiGroupList(registry: Registry): JsonObject {
  const groups = [];
  for (const [name, versions] of registry.groups()) {
    if (name === '') continue;
    const sorted = sortedVersions([...versions.keys()]);
    const entries = sorted.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    groups.push({ name, versions: entries, preferredVersion: entries[0] });
  }
  return { kind: 'APIGroupList', apiVersion: 'v1', groups } as unknown as JsonObject;
}

export function apiGroup(registry: Registry, group: string): JsonObject | undefined {
  const list = apiGroupList(registry).groups as unknown as { name: string }[];
  const found = list.find((g) => g.name === group);
  return found && ({ kind: 'APIGroup', apiVersion: 'v1', ...found } as unknown as JsonObject);
}

export function apiResourceList(registry: Registry, group: string, version: string): JsonObject {
  const resources: JsonObject[] = [];
  for (const t of registry.groups().get(group)?.get(version) ?? []) {
    const r: JsonObject = { name: t.resource, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: resourceVerbs(t) };
    if (t.shortNames?.length) r.shortNames = t.shortNames;
    if (t.categories?.length) r.categories = t.categories;
    resources.push(r);
    for (const s of subresources(t)) {
      const sub: JsonObject = { name: `${t.resource}/${s.name}`, singularName: '', namespaced: t.namespaced, kind: s.kind, verbs: s.verbs };
      if (s.group) Object.assign(sub, { group: s.group, version: s.version });
      resources.push(sub);
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  } as unknown as JsonObject;
}

function discoveryResource(t: ResourceType): JsonObject {
  const r: JsonObject = {
    resource: t.resource,
    responseKind: { group: t.group, version: t.version, kind: t.kind },
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: resourceVerbs(t),
  };
  if (t.shortNames?.length) r.shortNames = t.shortNames;
  if (t.categories?.length) r.categories = t.categories;
  const subs = subresources(t);
  if (subs.length)
    r.subresources = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? t.group, version: s.version ?? t.version, kind: s.kind },
      verbs: s.verbs,
    }));
  return r;
}

/** /api (core only) or /apis (every other group) as an APIGroupDiscoveryList. */
export function aggregatedDiscovery(registry: Registry, core: boolean): JsonObject {
  const items = [];
  for (const [name, versions] of registry.groups()) {
    if ((name === '') !== core) continue;
    items.push({
      metadata: name ? { name } : {},
      versions: sortedVersions([...versions.keys()]).map((v) => ({
        version: v,
        resources: versions.get(v)!.map(discoveryResource),
        freshness: 'Current',
      })),
    });
  }
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items } as unknown as JsonObject;
}
