// The body of POST /v1/task/{taskId} (endpoint 5): what a task runs and where its rows go. The
// first request of a task carries the fragment and its physical plan, the session and the output buffer layout; a later
// one may add splits and remote-source locations. The body is tagged JSON (sql/planner/plan-json.ts),
// so bigint and byte constants of the fragment survive. Requests are idempotent, so that the
// coordinator may send one again when it does not know whether it arrived: every split carries a
// sequence id (unique per task, increasing per scan) and a scan takes each once; locations are
// taken once each. A request carries at most MAX_SPLITS_PER_TASK_UPDATE splits; its shape is
// checked against TASK_REQUEST_SCHEMA here, the rest by the worker (worker/task-update-check.ts).

import type { Split } from '../spi/connector.js';
import { shapeCheck } from '../spi/json-shape.js';
import type { SessionJson } from '../spi/session-json.js';
import type { PlanNode } from '../sql/planner/plan.js';
import type { PhysicalNodeJson } from '../sql/planner/physical/physical-plan-json.js';
import { fromTaggedJson, toTaggedJson } from '../sql/planner/plan-json.js';
import { checkKeyBitmaps, type DynamicFilterDomain } from './dynamic-filter-domains.js';
import { ProtocolError } from './protocol-error.js';
import { TASK_REQUEST_SCHEMA } from './task-update-request-schema.js';

export { MAX_SPLITS_PER_TASK_UPDATE } from './task-update-request-schema.js';

/** How the task's output is laid out over its consumers' buffers. */
export type OutputBuffersSpec =
  /**
   * Rows by the hash of `partitionChannels`, to buffers "0" .. partitions-1 (a REPARTITION exchange);
   * with `readers` (a stage shared by identical copies), partition p also to p + k × partitions for each further reader k.
   */
  | { type: 'PARTITIONED'; partitions: number; partitionChannels: number[]; readers?: number }
  /** Every row to every buffer (a REPLICATE exchange). */
  | { type: 'BROADCAST'; partitions: number }
  /** All rows to buffer "0" (a GATHER exchange). */
  | { type: 'GATHER' };

export interface ScanSplits {
  /** The TableScan node's id. */
  planNodeId: number;
  splits: ScheduledSplit[];
  noMoreSplits: boolean;
}

/** A split as sent to a task: its sequence id is unique within the task and grows with each one sent. */
export interface ScheduledSplit {
  sequenceId: number;
  split: Split;
}

export interface RemoteSourceLocations {
  /** The RemoteSource node's id. */
  planNodeId: number;
  /** Result addresses of the producing tasks' buffers for this task: `.../v1/task/{id}/results/{bufferId}`. */
  locations: { uri: string; nodeId: string }[];
  noMoreLocations: boolean;
}

export interface TaskUpdateRequest {
  session: SessionJson;
  /** The fragment's plan; required on the request that creates the task. */
  fragment?: PlanNode;
  /**
   * The fragment's physical plan, made by the coordinator for this task's node (its worker threads),
   * naming the fragment's nodes by id: the worker maps it to operators as is. Required with `fragment`.
   */
  physicalPlan?: PhysicalNodeJson;
  outputBuffers?: OutputBuffersSpec;
  sources: ScanSplits[];
  remoteSources: RemoteSourceLocations[];
  /** The domains of remote dynamic filters of the fragment's scans, unioned over the joins' tasks (dynamic-filter-domains.ts). */
  dynamicFilterDomains?: DynamicFilterDomain[];
}

const checkShape = shapeCheck(TASK_REQUEST_SCHEMA);

/**
 * The encoded text of the parts of a request that many requests share, by the object encoded: every
 * task of a stage is sent the same fragment and physical plan, every request of a query the same
 * session, so each is written once, not once per task and update.
 */
const encodedParts = new WeakMap<object, string>();

function encodedOnce(value: object): string {
  let text = encodedParts.get(value);
  if (text === undefined) {
    text = toTaggedJson(value);
    encodedParts.set(value, text);
  }
  return text;
}

/**
 * The request body as sent. The session, fragment and physical plan are written once per object
 * (the coordinator shares them between requests and changes none once made) and spliced in before
 * the rest.
 */
export function encodeTaskUpdateRequest(request: TaskUpdateRequest): string {
  const { session, fragment, physicalPlan, ...rest } = request;
  const shared = [`"session":${encodedOnce(session)}`];
  if (fragment !== undefined) shared.push(`"fragment":${encodedOnce(fragment)}`);
  if (physicalPlan !== undefined) shared.push(`"physicalPlan":${encodedOnce(physicalPlan)}`);
  const body = toTaggedJson(rest);
  return body === '{}' ? `{${shared.join(',')}}` : `{${shared.join(',')},${body.slice(1)}`;
}

/**
 * Parses and checks a request body against TASK_REQUEST_SCHEMA; a malformed one is a ProtocolError
 * naming the path of what is wrong (the worker's task-update-check.ts checks the rest).
 */
export function decodeTaskUpdateRequest(text: string): TaskUpdateRequest {
  let value: unknown;
  try {
    value = fromTaggedJson(text, 'task request');
  } catch (e) {
    throw new ProtocolError((e as Error).message);
  }
  const problem = checkShape(value);
  if (problem !== undefined) throw new ProtocolError(`Invalid task request: ${problem}`);
  const request = value as TaskUpdateRequest;
  if (request.dynamicFilterDomains !== undefined) checkKeyBitmaps(request.dynamicFilterDomains);
  return request;
}
