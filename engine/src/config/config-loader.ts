// Loads the configuration: the file (YAML or JSON), then environment variables, then flags; checks
// the result against the published schema and fills in defaults. Any problem is a ConfigError whose
// message names the offending key and where it came from.

import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import AjvModule, { type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { CONFIG_SCHEMA, type CatalogConfig, type EngineConfig, type LogLevel, type NodeRole } from './config-schema.js';
import { DATA_SIZE_SCHEMA, parseDataSize } from './data-size.js';
import { parseDuration } from './duration.js';
import { SETTINGS, envName, settingKey, type Setting } from './settings.js';
import { availableParallelism } from 'node:os';
import { defaultNodeMemory } from './heap-limit.js';
import { ConfigError } from './config-error.js';
import { withEnvironment } from './environment-references.js';
import { DEFAULT_BUFFER_POOL_IDLE_MILLIS, DEFAULT_WORKER_THREAD_IDLE_MILLIS, defaultBufferPoolBytes } from './memory-budget.js';
import { DEFAULT_WORKER_THREAD_NICE } from '../process/thread-priority.js';
import { resolveAuthentication, resolveHttps } from './authentication-config.js';
import { sqlEnvironment } from './sql-environment.js';

/**
 * task.exchangeThreadDecodingMinSize. Measured (main-thread time per body, loaded machine): up to 60 kB
 * about the same either way (0.3-1 ms); 236 kB 1.5-3.4 ms decoded here against 0.2-1.1 ms through a
 * thread; 938 kB 6-7 ms against 0.9-2.7 ms.
 */
const DEFAULT_EXCHANGE_THREAD_DECODING_MIN_BYTES = 128 * 1024;

export interface ConfigSources {
  /** Path of a .yaml, .yml or .json file. */
  file?: string;
  env?: Record<string, string | undefined>;
  /** Flag values by flag name (`port`, `log-level`, ...). */
  flags?: Record<string, string | undefined>;
}

type RawObject = Record<string, unknown>;

const Ajv = AjvModule.default;
// Compiled as the module loads (not precompiled: spi/validators.ts is above the config layer).
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true }).compile(CONFIG_SCHEMA);

/** Whether an error's schema is a data size's (compared by its pattern, not by identity). */
function isSizeSchema(schema: unknown): boolean {
  const alternatives = (schema as { oneOf?: readonly { pattern?: string }[] } | undefined)?.oneOf;
  return alternatives?.[1]?.pattern === DATA_SIZE_SCHEMA.oneOf[1].pattern;
}

const SYSTEM_CATALOG = 'system';

/** Where the embedded node's `lake` catalog keeps its schemas and tables: a folder of the user's. */
export const DEFAULT_LAKE_DIR = `file://${join(homedir(), '.engine', 'lake')}/`;

/** The catalogs a node serves when the configuration names none. */
export const DEFAULT_CATALOGS: readonly CatalogConfig[] = [
  { name: 'tpch', connector: 'tpch', properties: {} },
  { name: 'memory', connector: 'memory', properties: {} },
  { name: 'lake', connector: 'hive', properties: { 'hive.metastore': 'file', 'hive.metastore.catalog.dir': DEFAULT_LAKE_DIR } },
  { name: 'system', connector: 'system', properties: {} },
];

export function loadConfig(sources: ConfigSources = {}): EngineConfig {
  const raw = sources.file ? readConfigFile(sources.file) : {};
  check(raw, `configuration file ${sources.file ?? ''}`.trim());
  for (const setting of SETTINGS) {
    const fromEnv = sources.env?.[envName(setting)];
    if (fromEnv !== undefined && fromEnv !== '')
      setAt(raw, setting.path, convert(setting, fromEnv, `environment variable ${envName(setting)}`));
    const fromFlag = sources.flags?.[setting.flag];
    if (fromFlag !== undefined) setAt(raw, setting.path, convert(setting, fromFlag, `flag --${setting.flag}`));
  }
  check(raw, 'configuration');
  return resolve(raw, sources.env ?? {});
}

function readConfigFile(file: string): RawObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read configuration file ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new ConfigError(`Configuration file ${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError(`Configuration file ${file} must hold an object of settings`);
  return parsed as RawObject;
}

function check(raw: RawObject, source: string): void {
  if (validate(raw)) return;
  const problems = describeErrors(validate.errors ?? []);
  throw new ConfigError(`Invalid ${source}:\n  ${problems.join('\n  ')}`);
}

/** One line per problem; the alternatives inside a oneOf collapse into one readable line. */
export function describeErrors(errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.schemaPath.includes('/oneOf/')) continue;
    const key = displayPath(e.instancePath);
    switch (e.keyword) {
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        lines.add(
          `unknown key '${key ? `${key}.` : ''}${extra}'${!key && (extra === 'coordinator' || extra === 'worker') ? " (the node's role is now 'role': single, coordinator or worker)" : ''}`,
        );
        break;
      }
      case 'enum':
        lines.add(
          `'${key}' must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => `'${String(v)}'`).join(', ')}`,
        );
        break;
      case 'oneOf':
        lines.add(
          `'${key}' must be ${isSizeSchema(e.parentSchema) ? "a byte count or a size such as '512MB'" : "a millisecond count or a duration such as '5m'"}`,
        );
        break;
      case 'required':
        lines.add(`'${key || '(root)'}' needs '${(e.params as { missingProperty: string }).missingProperty}'`);
        break;
      default:
        lines.add(`'${key || '(root)'}' ${e.message ?? 'is invalid'}`);
    }
  }
  return [...lines];
}

/** `/catalogs/0/name` -> `catalogs[0].name`. */
function displayPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function convert(setting: Setting, text: string, source: string): unknown {
  const fail = (expected: string): never => {
    throw new ConfigError(`Invalid ${source} for '${settingKey(setting)}': expected ${expected}, got '${text}'`);
  };
  switch (setting.kind) {
    case 'string':
    case 'size':
    case 'duration':
      return text;
    case 'integer':
      return /^-?\d+$/.test(text.trim()) ? Number(text) : fail('an integer');
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : fail("'true' or 'false'");
    case 'catalogs':
      return parseCatalogList(text, fail);
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
  }
}

/** `memory=memory,sys=system` -> catalog entries (properties only come from the file). */
function parseCatalogList(text: string, fail: (expected: string) => never): unknown[] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [name, connector, ...rest] = part.split('=').map((s) => s.trim());
      if (!name || !connector || rest.length > 0) fail("a list like 'memory=memory,system=system'");
      return { name, connector };
    });
}

function setAt(raw: RawObject, path: readonly string[], value: unknown): void {
  let target = raw;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) target[key] = {};
    target = target[key] as RawObject;
  }
  target[path[path.length - 1]!] = value;
}

function resolve(raw: RawObject, env: Record<string, string | undefined>): EngineConfig {
  const section = (name: string): RawObject => (raw[name] as RawObject | undefined) ?? {};
  const node = section('node');
  const http = section('http');
  const memory = section('memory');
  const query = section('query');
  const results = section('results');
  const log = section('log');
  const size = (value: unknown, fallback: number): number =>
    value === undefined ? fallback : typeof value === 'number' ? value : parseDataSize(value as string)!;
  const duration = (value: unknown, fallback: number): number =>
    value === undefined ? fallback : typeof value === 'number' ? value : parseDuration(value as string)!;
  const nodeMemory = size(memory.nodeMemory, defaultNodeMemory());
  const catalogs = raw.catalogs as
    | Array<{ name: string; connector: CatalogConfig['connector']; properties?: CatalogConfig['properties'] }>
    | undefined;
  checkUniqueCatalogNames(catalogs ?? []);
  const role = (raw.role as NodeRole | undefined) ?? 'single';
  const discovery = section('discovery');
  const discoveryUri = discovery.uri as string | undefined;
  checkDiscoveryFitsRole(role, discoveryUri);
  const announcementInterval = duration(discovery.announcementInterval, 3000);
  const failureDetector = section('failureDetector');
  const https = resolveHttps(http.https as RawObject | undefined);
  return {
    node: {
      id: (node.id as string | undefined) ?? randomUUID(),
      environment: (node.environment as string | undefined) ?? 'production',
      internalAddress: node.internalAddress as string | undefined,
    },
    http: {
      host: (http.host as string | undefined) ?? '0.0.0.0',
      port: (http.port as number | undefined) ?? 8080,
      maxRequestBodySize: size(http.maxRequestBodySize, 16 * 1024 * 1024),
      ...(https !== undefined ? { https } : {}),
    },
    role,
    discovery: {
      uri: discoveryUri,
      announcementInterval,
      maxAnnouncementAge: duration(discovery.maxAnnouncementAge, 3 * announcementInterval),
    },
    failureDetector: {
      heartbeatInterval: duration(failureDetector.heartbeatInterval, 1000),
      heartbeatTimeout: duration(failureDetector.heartbeatTimeout, 500),
    },
    nodeScheduler: { includeCoordinator: section('nodeScheduler').includeCoordinator as boolean | undefined },
    sql: sqlEnvironment(section('sql')),
    catalogs: catalogs
      ? withSystemCatalog(
          catalogs.map((c) => ({ name: c.name, connector: c.connector, properties: withEnvironment(c.name, c.properties ?? {}, env) })),
        )
      : DEFAULT_CATALOGS.map((c) => ({ ...c, properties: { ...c.properties } })),
    memory: {
      queryMaxMemoryPerNode: size(memory.queryMaxMemoryPerNode, 2 * 1024 ** 3),
      queryMaxMemory: size(memory.queryMaxMemory, 20 * 1024 ** 3),
      nodeMemory,
      bufferPoolSize: size(memory.bufferPoolSize, defaultBufferPoolBytes(nodeMemory)),
      bufferPoolIdleTimeout: duration(memory.bufferPoolIdleTimeout, DEFAULT_BUFFER_POOL_IDLE_MILLIS),
    },
    task: {
      clientTimeout: duration(section('task').clientTimeout, 2 * 60_000),
      maxWorkerThreads: (section('task').maxWorkerThreads as number | undefined) ?? availableParallelism(),
      workerThreadIdleTimeout: duration(section('task').workerThreadIdleTimeout, DEFAULT_WORKER_THREAD_IDLE_MILLIS),
      workerThreadNice: (section('task').workerThreadNice as number | undefined) ?? DEFAULT_WORKER_THREAD_NICE,
      exchangeThreadDecodingMinSize: size(section('task').exchangeThreadDecodingMinSize, DEFAULT_EXCHANGE_THREAD_DECODING_MIN_BYTES),
    },
    query: {
      maxLength: (query.maxLength as number | undefined) ?? 1_000_000,
      maxRunning: (query.maxRunning as number | undefined) ?? 100,
      maxQueued: (query.maxQueued as number | undefined) ?? 1000,
      maxRunningPerUser: (query.maxRunningPerUser as number | undefined) ?? 10,
      clientTimeout: duration(query.clientTimeout, 5 * 60_000),
      maxHistory: (query.maxHistory as number | undefined) ?? 200,
      maxHistoryAge: duration(query.maxHistoryAge, 15 * 60_000),
      requiredWorkersMaxWait: duration(query.requiredWorkersMaxWait, 5 * 60_000),
      remoteTaskMaxErrorDuration: duration(query.remoteTaskMaxErrorDuration, 60_000),
    },
    queryHistory: {
      directory: section('queryHistory').directory as string | undefined,
      maxCount: (section('queryHistory').maxCount as number | undefined) ?? 10_000,
      maxAge: duration(section('queryHistory').maxAge, 30 * 86_400_000),
      maxSize: size(section('queryHistory').maxSize, 1024 ** 3),
    },
    results: {
      maxRowsPerResponse: (results.maxRowsPerResponse as number | undefined) ?? 10_000,
      maxBytesPerResponse: size(results.maxBytesPerResponse, 1024 * 1024),
    },
    resourceGroups: { configFile: section('resourceGroups').configFile as string | undefined },
    security: {
      adminUsers: (section('security').adminUsers as string[] | undefined) ?? [],
      rulesFile: section('security').rulesFile as string | undefined,
      rulesRefreshPeriod: duration(section('security').rulesRefreshPeriod, 60_000),
      groupFile: section('security').groupFile as string | undefined,
    },
    internalCommunication: {
      sharedSecret: section('internalCommunication').sharedSecret as string | undefined,
      caFile: section('internalCommunication').caFile as string | undefined,
    },
    authentication: resolveAuthentication(
      raw.authentication as RawObject | undefined,
      https,
      section('internalCommunication').sharedSecret as string | undefined,
    ),
    shutdown: { gracePeriod: duration(section('shutdown').gracePeriod, 2 * 60_000) },
    log: { level: (log.level as LogLevel | undefined) ?? 'info' },
  };
}

/** A worker needs its coordinator's address; any other node announcing itself would be a mistake. */
function checkDiscoveryFitsRole(role: NodeRole, uri: string | undefined): void {
  if (role === 'worker' && uri === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  role 'worker' needs 'discovery.uri' (--discovery-uri), the coordinator's address it announces itself to",
    );
  }
  if (role !== 'worker' && uri !== undefined) {
    throw new ConfigError(
      `Invalid configuration:\n  'discovery.uri' is only for role 'worker' (this node's role is '${role}'): a ${role} node does not announce itself`,
    );
  }
}

/**
 * The `system` catalog is always there, as in Trino: a list of catalogs that leaves it out gets it
 * added, one that lists it keeps it, and the name cannot be given to another connector.
 */
function withSystemCatalog(catalogs: CatalogConfig[]): CatalogConfig[] {
  const listed = catalogs.find((c) => c.name.toLowerCase() === SYSTEM_CATALOG);
  if (listed === undefined) return [...catalogs, { name: SYSTEM_CATALOG, connector: 'system', properties: {} }];
  if (listed.connector !== 'system') {
    throw new ConfigError(
      `Invalid configuration:\n  catalog '${SYSTEM_CATALOG}' is the system catalog: its connector must be 'system', not '${listed.connector}'`,
    );
  }
  return catalogs;
}

function checkUniqueCatalogNames(catalogs: ReadonlyArray<{ name: string }>): void {
  const seen = new Set<string>();
  for (const c of catalogs) {
    if (seen.has(c.name)) throw new ConfigError(`Invalid configuration:\n  catalog '${c.name}' is defined twice`);
    seen.add(c.name);
  }
}
