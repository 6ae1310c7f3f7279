// How a catalog reaches its S3 store, read from Trino's native S3 properties (`s3.*`) when the server
// starts. The result is plain data, so a worker thread can rebuild the file system from it.

import { ConfigError } from '../../../../config/config-error.js';
import { parseDataSize } from '../../../../config/data-size.js';
import { parseDuration } from '../../../../config/duration.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3Config {
  /** `http(s)://host[:port]` without a trailing slash; AWS's regional endpoint when absent. */
  endpoint?: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`. */
  pathStyleAccess: boolean;
  /** None: requests go unsigned (public buckets). */
  credentials?: S3Credentials;
  /** Requests in flight at once on the node, all its threads together; more wait their turn. */
  maxConnections: number;
  /** Retries of a request that failed transiently (5xx, throttling, a dropped connection). */
  maxErrorRetries: number;
  connectTimeoutMs: number;
  /** A response that sends nothing for this long is abandoned (and retried). */
  socketTimeoutMs: number;
  /** Bytes per part of a multipart upload; a file smaller than one part is written with one PUT. */
  partSize: number;
}

const PROPERTIES = {
  endpoint: 's3.endpoint',
  region: 's3.region',
  pathStyleAccess: 's3.path-style-access',
  accessKey: 's3.aws-access-key',
  secretKey: 's3.aws-secret-key',
  maxConnections: 's3.max-connections',
  maxErrorRetries: 's3.max-error-retries',
  connectTimeout: 's3.socket-connect-timeout',
  socketTimeout: 's3.socket-timeout',
  partSize: 's3.streaming.part-size',
} as const;

/** The `s3.*` catalog properties this file system reads (Trino's names). */
export const S3_PROPERTY_NAMES: readonly string[] = Object.values(PROPERTIES);

const MIB = 1024 * 1024;
/** S3's bounds on a multipart upload's parts (Trino's bounds on s3.streaming.part-size). */
export const MIN_PART_SIZE = 5 * MIB;
const MAX_PART_SIZE = 256 * MIB;

type PropertyValue = string | number | boolean;

/**
 * Reads the `s3.*` properties of a catalog (others are not looked at). Without
 * s3.aws-access-key/s3.aws-secret-key, the environment's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 * and AWS_SESSION_TOKEN are used, as the AWS default credentials chain starts.
 */
export function s3Config(
  catalog: string,
  properties: Readonly<Record<string, PropertyValue>>,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): S3Config {
  const fail = (message: string): never => {
    throw new ConfigError(`Catalog '${catalog}': ${message}`);
  };
  const unknown = Object.keys(properties).filter((name) => name.startsWith('s3.') && !S3_PROPERTY_NAMES.includes(name));
  if (unknown.length > 0) fail(`unsupported S3 properties: ${unknown.join(', ')} (supported: ${S3_PROPERTY_NAMES.join(', ')})`);
  const text = (name: string): string | undefined => (properties[name] === undefined ? undefined : String(properties[name]).trim());

  const endpoint = text(PROPERTIES.endpoint);
  if (endpoint !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(endpoint)) {
    fail(`${PROPERTIES.endpoint} must be an http:// or https:// URL of a host (and port), got '${endpoint}'`);
  }
  const region = text(PROPERTIES.region) ?? 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) fail(`${PROPERTIES.region} must be a region name such as us-east-1, got '${region}'`);

  const pathStyle = (text(PROPERTIES.pathStyleAccess) ?? 'false').toLowerCase();
  if (pathStyle !== 'true' && pathStyle !== 'false') fail(`${PROPERTIES.pathStyleAccess} must be true or false, got '${pathStyle}'`);

  const integer = (name: string, fallback: number, minimum: number): number => {
    const value = text(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < minimum) fail(`${name} must be an integer >= ${minimum}, got '${value}'`);
    return Number(value);
  };
  const duration = (name: string, fallback: string): number => {
    const value = text(name) ?? fallback;
    const millis = parseDuration(value);
    if (millis === undefined || millis <= 0) fail(`${name} must be a positive duration such as 10s, got '${value}'`);
    return millis!;
  };
  const partSizeText = text(PROPERTIES.partSize) ?? '32MB';
  const partSize = parseDataSize(partSizeText);
  if (partSize === undefined || partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
    fail(`${PROPERTIES.partSize} must be a size between 5MB and 256MB, got '${partSizeText}'`);
  }

  return {
    ...(endpoint === undefined ? {} : { endpoint: endpoint.replace(/\/$/, '') }),
    region,
    pathStyleAccess: pathStyle === 'true',
    ...credentials(text(PROPERTIES.accessKey), text(PROPERTIES.secretKey), environment, fail),
    maxConnections: integer(PROPERTIES.maxConnections, 500, 1),
    maxErrorRetries: integer(PROPERTIES.maxErrorRetries, 10, 0),
    connectTimeoutMs: duration(PROPERTIES.connectTimeout, '5s'),
    socketTimeoutMs: duration(PROPERTIES.socketTimeout, '30s'),
    partSize: partSize!,
  };
}

function credentials(
  accessKey: string | undefined,
  secretKey: string | undefined,
  environment: Readonly<Record<string, string | undefined>>,
  fail: (message: string) => never,
): { credentials?: S3Credentials } {
  if (accessKey !== undefined || secretKey !== undefined) {
    // Name the missing one; never echo the secret.
    if (!accessKey) fail(`${PROPERTIES.secretKey} is set but ${PROPERTIES.accessKey} is not`);
    if (!secretKey) fail(`${PROPERTIES.accessKey} is set but ${PROPERTIES.secretKey} is not`);
    return { credentials: { accessKeyId: accessKey!, secretAccessKey: secretKey! } };
  }
  const id = environment['AWS_ACCESS_KEY_ID'];
  const secret = environment['AWS_SECRET_ACCESS_KEY'];
  if (!id || !secret) return {};
  const token = environment['AWS_SESSION_TOKEN'];
  return { credentials: { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) } };
}
