// The configuration the spec gives a role: spec.config, the catalogs (a property from a Secret as a
// `${ENV:...}` reference; without any, tpch, memory and system), then the role's own overrides,
// merged in that order (objects key by key; anything else replaced).
import type { EngineClusterSpec, JsonObject, JsonValue } from '../api/engine-cluster.js';
import { configProperties } from '../api/catalog-properties.js';
import type { Role } from '../api/names.js';

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/**
 * The catalogs of a cluster whose spec names none: the engine's defaults but its `lake`, which keeps
 * its tables in a folder of each node's own disk. The pods of a cluster share no disk, so a table's
 * files and its metadata would be spread over them; a lake needs a catalog on S3 or on a volume
 * every pod mounts.
 */
export const clusterDefaultCatalogs: JsonObject[] = [
  { name: 'memory', connector: 'memory' },
  { name: 'system', connector: 'system' },
  { name: 'tpch', connector: 'tpch' },
];

/** The role's configuration as the spec gives it. */
export function roleConfig(spec: EngineClusterSpec, role: Role): JsonObject {
  let config: JsonObject = spec.config ?? {};
  if (spec.catalogs && Object.keys(spec.catalogs).length > 0) {
    const catalogs: JsonValue[] = Object.entries(spec.catalogs)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, c]) => ({
        name,
        connector: c.connector,
        ...(c.properties ? { properties: configProperties(name, c.properties) } : {}),
      }));
    config = deepMerge(config, { catalogs });
  }
  const overrides = role === 'coordinator' ? spec.coordinator.config : spec.workers.config;
  if (overrides) config = deepMerge(config, overrides);
  return config.catalogs === undefined ? { ...config, catalogs: clusterDefaultCatalogs } : config;
}
