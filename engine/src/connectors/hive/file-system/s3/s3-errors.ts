// What went wrong with an S3 request, told as the user can act on it: the location, the endpoint,
// and for refused credentials which property to check (the access key's id may be shown, as S3
// shows it; the secret never). Also which failures are worth another attempt.

import { EngineError } from '../../../../errors/engine-error.js';
import type { S3ErrorBody } from './s3-xml.js';

/** What a failed request was doing, for its message. */
export interface RequestContext {
  method: string;
  /** The location the caller asked about (`s3://bucket/key`). */
  location: string;
  bucket: string;
  /** Where requests go (`http://127.0.0.1:9000`). */
  endpoint: string;
  /** The access key's id, when requests are signed. */
  accessKeyId?: string;
}

/** A connection that could not be made or was given up on, named by what the user sees. */
export class NetworkFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NetworkFailure';
  }
}

/** Transient failures: worth another attempt after a pause. A refused connection or an unknown host is not. */
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'SOCKET_TIMEOUT', 'TRUNCATED_RESPONSE']);
const TRANSIENT_ERROR_CODES = new Set([
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'RequestTimeout',
  'RequestTimeoutException',
  'Throttling',
  'ThrottlingException',
  // A conditional write racing another on the same key: S3 asks to retry.
  'ConditionalRequestConflict',
  'OperationAborted',
]);

export function isTransientNetworkFailure(failure: NetworkFailure): boolean {
  return TRANSIENT_NETWORK_CODES.has(failure.code);
}

export function isTransientResponse(status: number, error: S3ErrorBody | undefined): boolean {
  if (status >= 500 || status === 429) return true;
  return error !== undefined && TRANSIENT_ERROR_CODES.has(error.code);
}

/** A node networking error as a NetworkFailure with a plain reason. */
export function networkFailure(error: unknown, endpointHost: string): NetworkFailure {
  if (error instanceof NetworkFailure) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: `host '${endpointHost}' not found`,
    EAI_AGAIN: `host '${endpointHost}' could not be resolved`,
    ECONNRESET: 'connection reset',
    EPIPE: 'connection closed while sending',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  };
  return new NetworkFailure(code, reasons[code] ?? (error instanceof Error ? error.message : String(error)));
}

function attemptsSuffix(attempts: number): string {
  return attempts > 1 ? ` (after ${attempts} attempts)` : '';
}

export function networkError(context: RequestContext, failure: NetworkFailure, attempts: number): EngineError {
  return new EngineError(
    'HIVE_FILESYSTEM_ERROR',
    `Cannot reach S3 at ${context.endpoint} for ${context.location}: ${failure.message}${attemptsSuffix(attempts)}`,
  );
}

/** The error of a response S3 refused, by its status and error document (HEAD responses have none). */
export function responseError(context: RequestContext, status: number, error: S3ErrorBody | undefined, attempts: number): EngineError {
  const { location, endpoint } = context;
  const code = error?.code;
  const detail = error ? `${error.code}: ${error.message}` : `HTTP ${status}`;
  if (code === 'NoSuchBucket') {
    return new EngineError('HIVE_FILESYSTEM_ERROR', `S3 bucket '${context.bucket}' does not exist at ${endpoint} (${location})`);
  }
  if (code === 'NoSuchKey' || (status === 404 && code === undefined)) {
    return new EngineError('HIVE_FILE_NOT_FOUND', `File not found: ${location}`);
  }
  const key = context.accessKeyId === undefined ? undefined : `'${context.accessKeyId}'`;
  if (code === 'InvalidAccessKeyId') {
    return new EngineError(
      'HIVE_FILESYSTEM_ERROR',
      `S3 at ${endpoint} does not know the access key ${key} (s3.aws-access-key) used for ${location}`,
    );
  }
  if (code === 'SignatureDoesNotMatch') {
    return new EngineError(
      'HIVE_FILESYSTEM_ERROR',
      `S3 at ${endpoint} refused the request for ${location}: the secret key (s3.aws-secret-key) does not match the access key ${key}`,
    );
  }
  if (status === 403) {
    const why =
      key === undefined
        ? 'no credentials are configured (s3.aws-access-key, s3.aws-secret-key)'
        : `the credentials of access key ${key} are wrong or not allowed to ${context.method} there`;
    return new EngineError('HIVE_FILESYSTEM_ERROR', `Access denied to ${location} by S3 at ${endpoint}: ${why} (${detail})`);
  }
  return new EngineError(
    'HIVE_FILESYSTEM_ERROR',
    `S3 ${context.method} of ${location} failed at ${endpoint}: ${detail}${attemptsSuffix(attempts)}`,
  );
}
