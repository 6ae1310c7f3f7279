// A node's state and its status as others read them: the coordinator's health checks (GET /v1/status
// every heartbeat), `engine node drain` and the Kubernetes operator (GET /v1/status, PUT /v1/info/state
// with a JSON string naming a state). The status carries more (CPU, memory, I/O) for people and
// autoscalers; what another node or tool acts on is read here, checked, so that a node that answers
// something else fails its check with a message that says what.

import { shapeCheck } from '../spi/json-shape.js';
import type { NodeWorkload } from './node-workload.js';
import { ProtocolError } from './protocol-error.js';

export const NODE_STATES = ['INACTIVE', 'ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'] as const;
export type NodeState = (typeof NODE_STATES)[number];
/** The states PUT /v1/info/state may name (a node becomes INACTIVE only by starting). */
export type TargetNodeState = Exclude<NodeState, 'INACTIVE'>;

/** What GET /v1/status tells another node or tool; the rest of the status is kept as it came. */
export interface NodeStatus {
  nodeId: string;
  /** A NodeState from this engine's nodes; kept as text, so that a state another version adds is reported, not refused. */
  state: string;
  /** The node's process (`engine node drain --local` waits for it to end). */
  pid?: number;
  workload: Partial<NodeWorkload>;
}

const COUNT = { type: 'integer', minimum: 0 };

const checkStatus = shapeCheck({
  type: 'object',
  required: ['nodeId', 'state'],
  properties: {
    nodeId: { type: 'string' },
    state: { type: 'string' },
    pid: COUNT,
    workload: { type: 'object', additionalProperties: { type: 'number' } },
  },
});

/** The body of GET `{from}/v1/status`; a ProtocolError says what is wrong with one that is no node status. */
export function readNodeStatus(body: unknown, from: string): NodeStatus & Record<string, unknown> {
  const problem = checkStatus(body);
  if (problem !== undefined) throw new ProtocolError(`GET ${from}/v1/status did not answer a node status: ${problem}`);
  const status = body as NodeStatus & Record<string, unknown>;
  return { ...status, workload: status.workload ?? {} };
}
