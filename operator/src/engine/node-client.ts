// The operator's side of the engine's node endpoints: GET /v1/status of a node, PUT /v1/info/state
// (signed with the cluster's shared secret, as nodes sign their requests to each other), and the
// coordinator's GET /v1/node and /v1/node/failed. Every request has a short timeout: a node that does
// not answer is reported as such, and the next reconcile asks again.
import { deriveKey, signToken } from "engine/internal-token";
import type { NodeWorkload } from "engine/node-workload";

export type { NodeWorkload };

export interface NodeStatus {
  nodeId: string;
  state: string;
  coordinator: boolean;
  internalAddress: string;
  workload: Partial<NodeWorkload>;
}

export type NodeState = "ACTIVE" | "ISOLATING" | "ISOLATED" | "SHUTTING_DOWN";

export class NodeRequestError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or undefined when nothing answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "NodeRequestError";
  }
}

/** How long a token the operator signs lives (it signs one per request). */
const tokenLifetimeSeconds = 60;

export class NodeClient {
  private readonly key: Buffer | undefined;

  constructor(
    sharedSecret: string | undefined,
    private readonly timeoutMs = 3000,
  ) {
    this.key = sharedSecret ? deriveKey(sharedSecret) : undefined;
  }

  private authorization(): Record<string, string> {
    if (!this.key) return {};
    const iat = Math.floor(Date.now() / 1000);
    return { Authorization: `Bearer ${signToken(this.key, { sub: "engine-operator", iat, exp: iat + tokenLifetimeSeconds })}` };
  }

  private async request(method: string, url: string, body?: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        body,
        headers: body === undefined ? {} : { "Content-Type": "application/json", ...this.authorization() },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      throw new NodeRequestError(`${method} ${url}: ${cause?.code ?? (err as Error).message}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const message = (json as { error?: { message?: string } } | undefined)?.error?.message ?? text.slice(0, 200);
      throw new NodeRequestError(`${method} ${url}: ${response.status}: ${message}`, response.status);
    }
    if (json === undefined) throw new NodeRequestError(`${method} ${url} answered something that is not JSON`, response.status);
    return json;
  }

  async status(base: string): Promise<NodeStatus> {
    const s = (await this.request("GET", `${base}/v1/status`)) as Partial<NodeStatus>;
    if (typeof s.state !== "string" || typeof s.nodeId !== "string") throw new NodeRequestError(`GET ${base}/v1/status did not answer a node status`);
    return { nodeId: s.nodeId, state: s.state, coordinator: s.coordinator === true, internalAddress: s.internalAddress ?? "", workload: s.workload ?? {} };
  }

  /** Moves the node; answers the state it is in then. */
  async setState(base: string, state: NodeState): Promise<string> {
    return String(await this.request("PUT", `${base}/v1/info/state`, JSON.stringify(state)));
  }

  /** The addresses (uri) of the nodes the coordinator knows, and of those that failed their last check. */
  async nodes(coordinator: string): Promise<{ known: Set<string>; failed: Set<string> }> {
    const [known, failed] = await Promise.all([this.request("GET", `${coordinator}/v1/node`), this.request("GET", `${coordinator}/v1/node/failed`)]);
    const uris = (list: unknown) => new Set((Array.isArray(list) ? list : []).map((n) => String((n as { uri?: unknown }).uri)));
    return { known: uris(known), failed: uris(failed) };
  }
}
