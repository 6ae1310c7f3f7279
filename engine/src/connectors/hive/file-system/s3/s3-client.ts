// One S3 request, done well: addressed (path-style or virtual-hosted), signed (AWS Signature V4,
// payload hashed), sent over a pooled connection (at most s3.max-connections in flight on the node,
// counted across its threads by RequestSlots; more wait for a free one), and retried with jittered exponential backoff when
// it failed transiently (5xx, throttling, a dropped or silent connection), never on a refusal (4xx)
// or when the endpoint cannot be reached at all (a refused connection, an unknown host, no
// connection within s3.socket-connect-timeout). An aborted signal stops it at once.

import http from 'node:http';
import https from 'node:https';
import { EngineError } from '../../../../errors/engine-error.js';
import type { S3Config } from './s3-config.js';
import { RequestSlots } from './request-slots.js';
import {
  NetworkFailure,
  isTransientNetworkFailure,
  isTransientResponse,
  networkError,
  networkFailure,
  responseError,
  type RequestContext,
} from './s3-errors.js';
import { S3Signer, queryString, sha256Hex, uriEncode } from './s3-signer.js';
import { parseErrorBody } from './s3-xml.js';

export type S3Method = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';

export interface S3Request {
  method: S3Method;
  bucket: string;
  /** The object key; empty for a request on the bucket (a listing, a batch delete). */
  key: string;
  query?: Readonly<Record<string, string>>;
  headers?: Readonly<Record<string, string>>;
  body?: Uint8Array;
  /** The location the caller works on, named in errors. */
  location: string;
  signal?: AbortSignal;
  /** Statuses handed back rather than thrown (404 to a lookup, 412 to a conditional write). */
  accept?: readonly number[];
}

export interface S3Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** An earlier attempt failed after reaching the store, so it may have taken effect. */
  earlierAttemptMayHaveApplied: boolean;
}

const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 10_000;
const EMPTY = new Uint8Array(0);

/** Connection pools per protocol and size, shared by every client of this thread. */
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, maxConnections: number): http.Agent {
  const key = `${protocol}${maxConnections}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, maxSockets: maxConnections, maxTotalSockets: maxConnections };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export class S3Client {
  /** Where requests go, as errors name it. */
  readonly endpoint: string;
  private readonly endpointUrl: URL;
  private readonly agent: http.Agent;
  private readonly signer: S3Signer | undefined;

  private readonly slots: RequestSlots;

  constructor(
    readonly config: S3Config,
    /** The node's requests in flight; a client of its own when not shared. */
    slots?: RequestSlots,
  ) {
    this.slots = slots ?? new RequestSlots(RequestSlots.shared(config.maxConnections));
    this.endpoint = config.endpoint ?? `https://s3.${config.region}.amazonaws.com`;
    this.endpointUrl = new URL(this.endpoint);
    this.agent = agentFor(this.endpointUrl.protocol, config.maxConnections);
    this.signer = config.credentials && new S3Signer(config.credentials, config.region);
  }

  async send(request: S3Request): Promise<S3Response> {
    const context: RequestContext = {
      method: request.method,
      location: request.location,
      bucket: request.bucket,
      endpoint: this.endpoint,
      ...(this.config.credentials ? { accessKeyId: this.config.credentials.accessKeyId } : {}),
    };
    const url = this.url(request);
    const body = request.body ?? EMPTY;
    const payloadHash = this.signer && sha256Hex(body);
    let mayHaveApplied = false;
    for (let attempt = 1; ; attempt++) {
      request.signal?.throwIfAborted();
      try {
        const response = await this.attemptInSlot(url, request.method, this.headers(url, request, body, payloadHash), body, request.signal);
        if ((response.status >= 200 && response.status < 300) || request.accept?.includes(response.status)) {
          return { ...response, earlierAttemptMayHaveApplied: mayHaveApplied };
        }
        const error = request.method === 'HEAD' ? undefined : parseErrorBody(response.body.toString('utf8'));
        if (!isTransientResponse(response.status, error) || attempt > this.config.maxErrorRetries) {
          throw responseError(context, response.status, error, attempt);
        }
        // Throttling and conflicts are refusals before the work; a 5xx may come after it.
        mayHaveApplied ||= response.status >= 500 && response.status !== 503;
      } catch (e) {
        if (request.signal?.aborted) throw request.signal.reason;
        if (e instanceof EngineError) throw e;
        const failure = networkFailure(e, this.endpointUrl.hostname);
        if (!isTransientNetworkFailure(failure) || attempt > this.config.maxErrorRetries) throw networkError(context, failure, attempt);
        mayHaveApplied = true;
      }
      await pause(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)), request.signal);
    }
  }

  private url(request: S3Request): URL {
    const key = request.key.split('/').map(uriEncode).join('/');
    const { protocol, host } = this.endpointUrl;
    const url = this.config.pathStyleAccess
      ? new URL(`${protocol}//${host}/${request.bucket}/${key}`)
      : new URL(`${protocol}//${request.bucket}.${host}/${key}`);
    // Encoded as the signature has it (URLSearchParams would write a space as '+').
    url.search = queryString(request.query ?? {});
    return url;
  }

  /** Signed afresh for each attempt (the signature carries its time). */
  private headers(url: URL, request: S3Request, body: Uint8Array, payloadHash: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.method === 'PUT' || request.method === 'POST' || body.length > 0) headers['content-length'] = String(body.length);
    // The payload's hash is signed too: every S3 implementation accepts it, and it guards the bytes.
    if (payloadHash !== undefined)
      this.signer?.sign({ method: request.method, host: url.host, path: url.pathname, query: request.query ?? {}, headers, payloadHash });
    return headers;
  }

  /** One attempt, holding one of the node's request slots while it is in flight. */
  private async attemptInSlot(
    url: URL,
    method: S3Method,
    headers: Record<string, string>,
    body: Uint8Array,
    signal: AbortSignal | undefined,
  ) {
    await this.slots.take(signal);
    try {
      return await this.attempt(url, method, headers, body, signal);
    } finally {
      this.slots.giveBack();
    }
  }

  private attempt(url: URL, method: S3Method, headers: Record<string, string>, body: Uint8Array, signal: AbortSignal | undefined) {
    const transport = url.protocol === 'https:' ? https : http;
    const { connectTimeoutMs, socketTimeoutMs } = this.config;
    return new Promise<Omit<S3Response, 'earlierAttemptMayHaveApplied'>>((resolve, reject) => {
      const request = transport.request(url, { method, headers, agent: this.agent, ...(signal ? { signal } : {}) });
      let connectTimer: NodeJS.Timeout | undefined;
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(
          () =>
            request.destroy(
              new NetworkFailure('CONNECT_TIMEOUT', `no connection within ${connectTimeoutMs} ms (s3.socket-connect-timeout)`),
            ),
          connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      request.setTimeout(socketTimeoutMs, () =>
        request.destroy(new NetworkFailure('SOCKET_TIMEOUT', `no answer within ${socketTimeoutMs} ms (s3.socket-timeout)`)),
      );
      request.once('close', () => clearTimeout(connectTimer));
      request.once('error', reject);
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => {
          const received = Buffer.concat(chunks);
          const expected = response.headers['content-length'];
          if (method !== 'HEAD' && expected !== undefined && Number(expected) !== received.length) {
            reject(new NetworkFailure('TRUNCATED_RESPONSE', `the response ended after ${received.length} of ${expected} bytes`));
            return;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: received });
        });
      });
      request.end(body.length > 0 ? body : undefined);
    });
  }
}

/** Waits `millis`; an abort ends the wait early (the caller then sees the signal aborted). */
function pause(millis: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, millis);
    signal?.addEventListener('abort', done, { once: true });
  });
}
