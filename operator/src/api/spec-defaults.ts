// The spec with the CRD's defaults applied, and the checks the schema cannot express in every API
// server (CEL rules, reserved configuration keys). The API server applies the same defaults (a test
// holds the two together); applying them here too keeps the operator right for objects stored before
// a default existed.
import type { AutoscalingSpec, EngineClusterSpec, JsonObject, JsonValue, VolumesSpec } from './engine-cluster.js';
import { catalogProblems } from './catalog-properties.js';
import { volumeProblems } from './volumes.js';
import { securityProblems, securityWithDefaults } from './security.js';

export const defaultImage = 'ghcr.io/engine-project/engine:0.1.0';

export const autoscalingDefaults: AutoscalingSpec = {
  enabled: true,
  minReplicas: 1,
  maxReplicas: 10,
  targetQueuedQueries: 0,
  targetRunningSplitsPerWorker: 32,
  scaleInStabilizationSeconds: 300,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOr(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function pick<T>(value: unknown, fallback: T): T {
  return value === undefined || value === null ? fallback : (value as T);
}

/** The volumes and mounts a part of the spec gives, when it gives any. */
function volumesOf(part: Record<string, unknown>): VolumesSpec {
  const out: VolumesSpec = {};
  if (Array.isArray(part.volumes)) out.volumes = part.volumes as VolumesSpec['volumes'];
  if (Array.isArray(part.volumeMounts)) out.volumeMounts = part.volumeMounts as VolumesSpec['volumeMounts'];
  return out;
}

export function withDefaults(raw: unknown): EngineClusterSpec {
  const spec = objectOr(raw);
  const coordinator = objectOr(spec.coordinator);
  const service = objectOr(coordinator.service);
  const workers = objectOr(spec.workers);
  const result: EngineClusterSpec = {
    image: pick(spec.image, defaultImage),
    imagePullPolicy: pick(spec.imagePullPolicy, 'IfNotPresent'),
    ...volumesOf(spec),
    coordinator: {
      service: { type: pick(service.type, 'ClusterIP'), port: pick(service.port, 8080) },
      ...volumesOf(coordinator),
    },
    workers: {
      replicas: pick(workers.replicas, 2),
      drainTimeoutSeconds: pick(workers.drainTimeoutSeconds, 600),
      ...volumesOf(workers),
    },
  };
  if (isObject(spec.config)) result.config = spec.config as JsonObject;
  if (isObject(spec.catalogs)) result.catalogs = spec.catalogs as EngineClusterSpec['catalogs'];
  if (typeof service.nodePort === 'number') result.coordinator.service.nodePort = service.nodePort;
  if (isObject(coordinator.resources)) result.coordinator.resources = coordinator.resources;
  if (isObject(coordinator.config)) result.coordinator.config = coordinator.config as JsonObject;
  if (isObject(workers.resources)) result.workers.resources = workers.resources;
  if (isObject(workers.config)) result.workers.config = workers.config as JsonObject;
  const security = securityWithDefaults(spec.security);
  if (security) result.security = security;
  if (isObject(workers.autoscaling))
    result.workers.autoscaling = { ...autoscalingDefaults, ...(workers.autoscaling as Partial<AutoscalingSpec>) };
  return result;
}

/** Configuration keys the operator sets on every node itself (role, membership, identity, ports, secret, and what spec.security sets). */
const reservedConfig: string[][] = [
  ['role'],
  ['discovery'],
  ['node', 'id'],
  ['node', 'internalAddress'],
  ['http', 'host'],
  ['http', 'port'],
  ['internalCommunication'],
  ['http', 'https'],
  ['authentication'],
  ['security', 'rulesFile'],
];

function reservedKeysIn(config: JsonObject | undefined, where: string): string[] {
  if (!config) return [];
  const found: string[] = [];
  for (const path of reservedConfig) {
    let value: JsonValue | undefined = config;
    for (const key of path) value = isObject(value) ? (value as JsonObject)[key] : undefined;
    if (value !== undefined)
      found.push(
        `${where}.${path.join('.')} is set by the operator and may not be given${path[0] === 'authentication' || path[1] === 'https' || path[1] === 'rulesFile' ? ' (use spec.security)' : ''}`,
      );
  }
  return found;
}

/** Longest EngineCluster name: its pods are NAME-worker-xxxxx and its Service NAME (a DNS label). */
export const maxNameLength = 40;

/** What is wrong with a cluster that the API server's schema let through; empty when nothing is. */
export function specProblems(name: string, spec: EngineClusterSpec): string[] {
  const problems: string[] = [];
  if (name.length > maxNameLength) problems.push(`the name ${JSON.stringify(name)} is longer than ${maxNameLength} characters`);
  const auto = spec.workers.autoscaling;
  if (auto?.enabled && auto.minReplicas > auto.maxReplicas)
    problems.push(`spec.workers.autoscaling: minReplicas (${auto.minReplicas}) is above maxReplicas (${auto.maxReplicas})`);
  for (const catalog of Object.keys(spec.catalogs ?? {}))
    if (!/^[a-z][a-z0-9_]*$/.test(catalog))
      problems.push(
        `spec.catalogs: ${JSON.stringify(catalog)} is not a catalog name (lower-case letters, digits and _, starting with a letter)`,
      );
  problems.push(
    ...reservedKeysIn(spec.config, 'spec.config'),
    ...reservedKeysIn(spec.coordinator.config, 'spec.coordinator.config'),
    ...reservedKeysIn(spec.workers.config, 'spec.workers.config'),
  );
  problems.push(...catalogProblems(spec.catalogs ?? {}), ...volumeProblems(spec), ...securityProblems(spec));
  return problems;
}
