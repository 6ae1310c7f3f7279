// Names, labels and annotations of what the operator makes for a cluster. Everything carries the
// cluster's label, so a watch event on any of it finds its cluster.
import type { EngineCluster } from './engine-cluster.js';

export const labels = {
  name: 'app.kubernetes.io/name',
  instance: 'app.kubernetes.io/instance',
  component: 'app.kubernetes.io/component',
  managedBy: 'app.kubernetes.io/managed-by',
  cluster: 'engine.io/cluster',
  templateHash: 'engine.io/template-hash',
} as const;

export const annotations = {
  /** The drain of a worker under way (JSON DrainRecord): survives an operator restart. */
  drain: 'engine.io/drain',
  /** Hash of what the operator last wrote to an object: it is written again only when this differs. */
  specHash: 'engine.io/spec-hash',
  /** Hash of the node's configuration file, in the pod template: a change rolls the pods. */
  configHash: 'engine.io/config-hash',
} as const;

export const managedBy = 'engine-operator';

export type Role = 'coordinator' | 'worker';

export function clusterNames(name: string) {
  return {
    service: name,
    /** The headless Service that gives each pod a DNS name (spec.security.tls with PodDNS addresses). */
    nodesService: `${name}-nodes`,
    coordinator: `${name}-coordinator`,
    configMap: `${name}-config`,
    secret: `${name}-internal`,
    pdb: `${name}-workers`,
    workerPrefix: `${name}-worker-`,
  };
}

/** The labels of everything made for a cluster. */
export function clusterLabels(cluster: EngineCluster): Record<string, string> {
  return {
    [labels.name]: 'engine',
    [labels.instance]: cluster.metadata.name!,
    [labels.managedBy]: managedBy,
    [labels.cluster]: cluster.metadata.name!,
  };
}

/** The labels of a role's pods (and of the objects that are the role's own). */
export function roleLabels(cluster: EngineCluster, role: Role): Record<string, string> {
  return { ...clusterLabels(cluster), [labels.component]: role };
}

/** The labels that select a role's pods (a subset of roleLabels). */
export function roleSelector(cluster: EngineCluster, role: Role): Record<string, string> {
  return { [labels.cluster]: cluster.metadata.name!, [labels.component]: role };
}

export function selectorText(selector: Record<string, string>): string {
  return Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** The port every engine container listens on (the Service's port may differ). */
export const enginePort = 8080;

/** The HTTPS port of an engine container with spec.security.tls. */
export const engineHttpsPort = 8443;
