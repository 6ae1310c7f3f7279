// The catalog properties of the postgresql connector, as Trino names them, read when the server
// starts: anything unknown or invalid stops it with a message naming the property.

import { ConfigError } from '../../config/config-error.js';
import type { UnsupportedTypeHandling } from './column-mapping.js';

export interface PostgresConfig {
  host: string;
  port: number;
  database: string;
  user: string | undefined;
  password: string | undefined;
  /** Columns of types without a mapping: left out (IGNORE, the default) or read as their text. */
  unsupportedTypeHandling: UnsupportedTypeHandling;
  /** Connections this node keeps open to the server at most. */
  maxConnections: number;
  /** Key ranges a table with an integer primary key is read in (1: one split per table, as Trino). */
  splitCount: number;
  aggregationPushdown: boolean;
  topNPushdown: boolean;
}

/** How the server is named in errors: `host:port/database`. */
export function serverName(config: Pick<PostgresConfig, 'host' | 'port' | 'database'>): string {
  return `${config.host}:${config.port}/${config.database}`;
}

const KNOWN = [
  'connection-url',
  'connection-user',
  'connection-password',
  'unsupported-type-handling',
  'connection-pool.max-size',
  'postgresql.split-count',
  'aggregation-pushdown.enabled',
  'topn-pushdown.enabled',
] as const;

type Properties = Readonly<Record<string, string | number | boolean>>;

export function postgresConfig(catalog: string, properties: Properties): PostgresConfig {
  const fail = (message: string): never => {
    throw new ConfigError(`Catalog '${catalog}': ${message}`);
  };
  const unknown = Object.keys(properties).filter((name) => !(KNOWN as readonly string[]).includes(name));
  if (unknown.length > 0) fail(`unknown postgresql connector properties: ${unknown.join(', ')} (known: ${KNOWN.join(', ')})`);
  const url = properties['connection-url'];
  if (url === undefined) fail('connection-url is required (jdbc:postgresql://host:port/database or postgresql://host:port/database)');
  const location = parseConnectionUrl(String(url), fail);
  const text = (name: string) => (properties[name] === undefined ? undefined : String(properties[name]));
  const handling = (text('unsupported-type-handling') ?? 'IGNORE').toUpperCase();
  if (handling !== 'IGNORE' && handling !== 'CONVERT_TO_VARCHAR')
    fail(`unsupported-type-handling must be IGNORE or CONVERT_TO_VARCHAR, got '${text('unsupported-type-handling')}'`);
  return {
    ...location,
    user: text('connection-user') ?? location.user,
    password: text('connection-password') ?? location.password,
    unsupportedTypeHandling: handling as UnsupportedTypeHandling,
    maxConnections: positiveInteger(properties, 'connection-pool.max-size', 10, fail),
    splitCount: positiveInteger(properties, 'postgresql.split-count', 1, fail),
    aggregationPushdown: booleanProperty(properties, 'aggregation-pushdown.enabled', true, fail),
    topNPushdown: booleanProperty(properties, 'topn-pushdown.enabled', true, fail),
  };
}

/** `jdbc:postgresql://host[:port]/database[?user=..&password=..]`, or the same without `jdbc:` (`postgres://` too). */
function parseConnectionUrl(
  text: string,
  fail: (message: string) => never,
): { host: string; port: number; database: string; user?: string; password?: string } {
  const plain = text.replace(/^jdbc:/, '');
  if (!/^postgres(ql)?:\/\//.test(plain)) fail(`connection-url must start with jdbc:postgresql:// or postgresql://, got '${text}'`);
  let url: URL;
  try {
    url = new URL(plain);
  } catch {
    return fail(`connection-url is not a URL: '${text}'`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.hostname === '' || database === '' || database.includes('/'))
    fail(`connection-url must name a host and a database (jdbc:postgresql://host:port/database), got '${text}'`);
  const port = url.port === '' ? 5432 : Number(url.port);
  const parameter = (name: string) => url.searchParams.get(name) ?? undefined;
  const user = url.username !== '' ? decodeURIComponent(url.username) : parameter('user');
  const password = url.password !== '' ? decodeURIComponent(url.password) : parameter('password');
  const others = [...url.searchParams.keys()].filter((k) => k !== 'user' && k !== 'password');
  if (others.length > 0) fail(`connection-url parameters other than user and password are not supported: ${others.join(', ')}`);
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, database, user, password };
}

function positiveInteger(properties: Properties, name: string, fallback: number, fail: (message: string) => never): number {
  const value = properties[name];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`${name} must be a positive integer, got '${String(value)}'`);
  return n;
}

function booleanProperty(properties: Properties, name: string, fallback: boolean, fail: (message: string) => never): boolean {
  const value = properties[name];
  if (value === undefined) return fallback;
  const text = String(value).toLowerCase();
  if (text !== 'true' && text !== 'false') fail(`${name} must be true or false, got '${String(value)}'`);
  return text === 'true';
}
