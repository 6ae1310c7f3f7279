// A node's own endpoints, as `engine node` and the operator use them: GET and PUT /v1/info/state,
// GET /v1/status, and a coordinator's GET /v1/node and /v1/node/failed.
// A refused request becomes a ClientError with the server's message; a node nothing answers for
// becomes a NodeUnreachableError that says whether the port refused the connection (the process is gone).

import type { Dispatcher } from 'undici';
import { readNodeStatus, type NodeStatus } from './node-status.js';
import { ProtocolError } from './protocol-error.js';
import { ClientError } from './client-error.js';

/** By default one request may take this long before it counts as failed (a drain has its own, longer deadline). */
const REQUEST_TIMEOUT_MILLIS = 10_000;

/** The members of GET /v1/status a client acts on. */
export type { NodeStatus, TargetNodeState } from './node-status.js';

export class NodeUnreachableError extends Error {
  constructor(
    message: string,
    /** The socket error, e.g. ECONNREFUSED (nothing listens on the port), ECONNRESET, or TIMEOUT. */
    readonly code: string,
  ) {
    super(message);
    this.name = 'NodeUnreachableError';
  }

  get refused(): boolean {
    return this.code === 'ECONNREFUSED';
  }
}

export class NodeClient {
  constructor(
    /** e.g. http://127.0.0.1:8080 */
    readonly server: string,
    /**
     * The headers every request carries, asked for each request: with a shared secret
     * (internal-communication.shared-secret), the internal bearer token, renewed as it ages.
     */
    private readonly headers: () => Readonly<Record<string, string>> = () => ({}),
    private readonly timeoutMillis = REQUEST_TIMEOUT_MILLIS,
    /** How requests connect (e.g. trusting a cluster's CA: dispatcherTrusting); the process's global dispatcher when absent. */
    private readonly dispatcher?: Dispatcher,
  ) {}

  async state(): Promise<string> {
    return expectString(await this.request('GET', '/v1/info/state'), 'GET /v1/info/state');
  }

  /** Moves the node; answers the state it is in afterwards. */
  async setState(state: string): Promise<string> {
    return expectString(await this.request('PUT', '/v1/info/state', JSON.stringify(state)), 'PUT /v1/info/state');
  }

  async status(): Promise<NodeStatus> {
    let status: NodeStatus;
    try {
      status = readNodeStatus(await this.request('GET', '/v1/status'), this.server);
    } catch (e) {
      if (e instanceof ProtocolError) throw new ClientError(e.message);
      throw e;
    }
    return { nodeId: status.nodeId, state: status.state, pid: status.pid, workload: status.workload };
  }

  /** A coordinator's nodes: the addresses (uri) of those it knows, and of those that failed their last check. */
  async nodes(): Promise<{ known: Set<string>; failed: Set<string> }> {
    const [known, failed] = await Promise.all([this.request('GET', '/v1/node'), this.request('GET', '/v1/node/failed')]);
    const uris = (list: unknown) => new Set((Array.isArray(list) ? list : []).map((n) => String((n as { uri?: unknown }).uri)));
    return { known: uris(known), failed: uris(failed) };
  }

  private async request(method: string, path: string, body?: string): Promise<unknown> {
    const url = `${this.server}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        body,
        headers: { ...this.headers(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        signal: AbortSignal.timeout(this.timeoutMillis),
        // Node's fetch takes undici's dispatcher option, which the DOM RequestInit type does not name.
        ...((this.dispatcher ? { dispatcher: this.dispatcher } : {}) as RequestInit),
      });
    } catch (e) {
      throw unreachable(this.server, e, this.timeoutMillis);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const message = (json as { error?: { message?: unknown } } | undefined)?.error?.message;
      throw new ClientError(`${method} ${url}: ${response.status} ${response.statusText}: ${typeof message === 'string' ? message : text}`);
    }
    if (json === undefined) throw new ClientError(`${method} ${url} answered something that is not JSON: ${text.slice(0, 200)}`);
    return json;
  }
}

function expectString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new ClientError(`${what} answered ${JSON.stringify(value)}, not a node state`);
  return value;
}

function unreachable(server: string, error: unknown, timeoutMillis: number): NodeUnreachableError {
  if ((error as { name?: unknown }).name === 'TimeoutError')
    return new NodeUnreachableError(`${server} did not answer within ${timeoutMillis / 1000}s`, 'TIMEOUT');
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : 'UNKNOWN';
  const detail = typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  return new NodeUnreachableError(`Cannot reach ${server}: ${detail}`, code);
}
