// The operator's side of the engine's node endpoints: GET /v1/status of a node, PUT /v1/info/state
// and the coordinator's GET /v1/node and /v1/node/failed, through the engine's own node client, each
// request signed with the cluster's shared secret as nodes sign their requests to each other. Every
// request has a short timeout: a node that does not answer is reported as such, and the next
// reconcile asks again. With spec.security.tls the nodes answer HTTPS: the client then trusts the
// cluster's CA (ca.crt of its TLS Secret) beside the system CAs, and checks the host names.
import { deriveKey, signToken } from 'engine/internal-token';
import { dispatcherTrusting } from 'engine/internal-tls';
import { NodeClient as EngineNodeClient, type NodeStatus, type TargetNodeState } from 'engine/node-client';
import type { NodeWorkload } from 'engine/node-workload';

export type { NodeStatus, NodeWorkload };

/** The states the operator moves a node to (PUT /v1/info/state). */
export type NodeState = TargetNodeState;

/** How long a token the operator signs lives (it signs one per request). */
const tokenLifetimeSeconds = 60;

type Dispatcher = ReturnType<typeof dispatcherTrusting>;

/** One connection pool per CA (clusters that share a CA share it), kept for the operator's life: a handful at most. */
const dispatchers = new Map<string, Dispatcher>();

function dispatcherFor(caPem: string): Dispatcher {
  let dispatcher = dispatchers.get(caPem);
  if (!dispatcher) dispatchers.set(caPem, (dispatcher = dispatcherTrusting(caPem)));
  return dispatcher;
}

export class NodeClient {
  private readonly key: Buffer | undefined;
  private readonly dispatcher: Dispatcher | undefined;

  /** `caPem`: the certificate authority the nodes' HTTPS certificates are checked against (with the system ones). */
  constructor(
    sharedSecret: string | undefined,
    private readonly timeoutMs = 3000,
    caPem?: string,
  ) {
    this.key = sharedSecret ? deriveKey(sharedSecret) : undefined;
    this.dispatcher = caPem === undefined ? undefined : dispatcherFor(caPem);
  }

  status(base: string): Promise<NodeStatus> {
    return this.client(base).status();
  }

  /** Moves the node; answers the state it is in then. */
  setState(base: string, state: NodeState): Promise<string> {
    return this.client(base).setState(state);
  }

  /** The addresses (uri) of the nodes the coordinator knows, and of those that failed their last check. */
  nodes(coordinator: string): Promise<{ known: Set<string>; failed: Set<string> }> {
    return this.client(coordinator).nodes();
  }

  private client(base: string): EngineNodeClient {
    return new EngineNodeClient(base, () => this.authorization(), this.timeoutMs, this.dispatcher);
  }

  private authorization(): Record<string, string> {
    if (!this.key) return {};
    const iat = Math.floor(Date.now() / 1000);
    return { Authorization: `Bearer ${signToken(this.key, { sub: 'engine-operator', iat, exp: iat + tokenLifetimeSeconds })}` };
  }
}
