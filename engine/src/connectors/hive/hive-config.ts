// A lake catalog's properties, with Trino's names: the file metastore's folder and the file systems'
// settings. A property the connector does not know stops the server naming it; a store that cannot
// be reached does not (the query that needs it fails, naming the location).

import { ConfigError } from '../../config/config-error.js';
import { EngineError } from '../../errors/engine-error.js';
import { asDirectory, schemeOf } from './location.js';
import type { FileSystemProperties } from './file-system/file-systems.js';
import { S3_PROPERTY_NAMES, s3Config } from './file-system/s3/s3-config.js';
import { TIMESTAMP_PRECISION_CONFIG, configuredTimestampPrecision, type HiveTimestampPrecision } from './timestamp-precision.js';

export const METASTORE = 'hive.metastore';
export const CATALOG_DIR = 'hive.metastore.catalog.dir';
const FILE_SYSTEM_PROPERTIES = ['fs.native-s3.enabled', ...S3_PROPERTY_NAMES];
const KNOWN = [METASTORE, CATALOG_DIR, TIMESTAMP_PRECISION_CONFIG, ...FILE_SYSTEM_PROPERTIES];

export interface LakeConfig {
  /** The file metastore's folder: a directory location. */
  catalogDir: string;
  fileSystem: FileSystemProperties;
  /** hive.timestamp-precision (MILLISECONDS when absent). */
  timestampPrecision?: HiveTimestampPrecision;
}

export function lakeConfig(catalog: string, properties: Readonly<Record<string, string | number | boolean>>): LakeConfig {
  const unknown = Object.keys(properties).filter((name) => !KNOWN.includes(name));
  if (unknown.length > 0)
    throw new ConfigError(`Catalog '${catalog}': unknown hive connector properties: ${unknown.join(', ')} (known: ${KNOWN.join(', ')})`);
  const metastore = String(properties[METASTORE] ?? 'file');
  if (metastore !== 'file')
    throw new ConfigError(`Catalog '${catalog}': ${METASTORE} must be 'file' (the only metastore this connector has), got '${metastore}'`);
  const dir = properties[CATALOG_DIR];
  if (dir === undefined || String(dir) === '')
    throw new ConfigError(`Catalog '${catalog}': ${CATALOG_DIR} is required (a file:// or s3:// folder for the file metastore)`);
  try {
    schemeOf(String(dir));
  } catch (e) {
    if (e instanceof EngineError) throw new ConfigError(`Catalog '${catalog}': ${CATALOG_DIR}: ${e.rawMessage}`);
    throw e;
  }
  const fileSystem: Record<string, string> = {};
  for (const name of FILE_SYSTEM_PROPERTIES) if (properties[name] !== undefined) fileSystem[name] = String(properties[name]);
  // The S3 settings are checked now: a bad one stops the server, naming it (a store that cannot be reached does not).
  if (fileSystem['fs.native-s3.enabled'] === 'true') s3Config(catalog, fileSystem);
  const timestampPrecision = configuredTimestampPrecision(catalog, properties[TIMESTAMP_PRECISION_CONFIG]);
  return { catalogDir: asDirectory(String(dir)), fileSystem, timestampPrecision };
}
