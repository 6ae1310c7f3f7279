// The body of POST /v1/task/{taskId} (endpoint 5): what a task runs and where its rows go. The
// first request of a task carries the fragment, the session and the output buffer layout; a later
// one may add splits and remote-source locations. The body is tagged JSON (sql/planner/plan-json.ts),
// so bigint and byte constants of the fragment survive. Requests are idempotent, so that the
// coordinator may send one again when it does not know whether it arrived: every split carries a
// sequence id (increasing per task) and a task takes each id once; locations are taken once each.

import AjvModule from 'ajv';
import { EngineError } from '../errors/engine-error.js';
import type { Split } from '../spi/connector.js';
import type { SessionJson } from '../spi/session-json.js';
import type { PlanNode } from '../sql/planner/plan.js';
import { fromTaggedJson } from '../sql/planner/plan-json.js';

/** How the task's output is laid out over its consumers' buffers. */
export type OutputBuffersSpec =
  /** Rows by the hash of `partitionChannels`, to buffers "0" .. partitions-1 (a REPARTITION exchange). */
  | { type: 'PARTITIONED'; partitions: number; partitionChannels: number[] }
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
  outputBuffers?: OutputBuffersSpec;
  sources: ScanSplits[];
  remoteSources: RemoteSourceLocations[];
}

const Ajv = AjvModule.default;
const validate = new Ajv({ allErrors: false }).compile({
  type: 'object',
  required: ['session', 'sources', 'remoteSources'],
  properties: {
    session: {
      type: 'object',
      required: ['queryId', 'user', 'timeZone', 'properties', 'preparedStatements', 'clientTags', 'startTime'],
      properties: { queryId: { type: 'string' }, user: { type: 'string' }, timeZone: { type: 'string' }, startTime: { type: 'number' } },
    },
    fragment: { type: 'object', required: ['kind', 'id', 'outputs'] },
    outputBuffers: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['PARTITIONED', 'BROADCAST', 'GATHER'] },
        partitions: { type: 'integer', minimum: 1, maximum: 10000 },
        partitionChannels: { type: 'array', items: { type: 'integer', minimum: 0 } },
      },
    },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['planNodeId', 'splits', 'noMoreSplits'],
        properties: {
          planNodeId: { type: 'integer' },
          splits: { type: 'array', items: { type: 'object', required: ['sequenceId', 'split'], properties: { sequenceId: { type: 'integer', minimum: 0 }, split: { type: 'object' } } } },
          noMoreSplits: { type: 'boolean' },
        },
      },
    },
    remoteSources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['planNodeId', 'locations', 'noMoreLocations'],
        properties: {
          planNodeId: { type: 'integer' },
          locations: { type: 'array', items: { type: 'object', required: ['uri', 'nodeId'], properties: { uri: { type: 'string' }, nodeId: { type: 'string' } } } },
          noMoreLocations: { type: 'boolean' },
        },
      },
    },
  },
});

/** Parses and checks a request body; a malformed one is a GENERIC_USER_ERROR naming what is wrong. */
export function parseTaskUpdateRequest(text: string): TaskUpdateRequest {
  let value: unknown;
  try {
    value = fromTaggedJson(text, 'task request');
  } catch (e) {
    throw new EngineError('GENERIC_USER_ERROR', (e as Error).message);
  }
  if (!validate(value)) {
    const error = validate.errors?.[0];
    throw new EngineError('GENERIC_USER_ERROR', `Invalid task request: ${error?.instancePath || '(body)'} ${error?.message ?? ''}`.trim());
  }
  const request = value as TaskUpdateRequest;
  const buffers = request.outputBuffers;
  if (buffers && buffers.type !== 'GATHER' && buffers.partitions === undefined) throw new EngineError('GENERIC_USER_ERROR', `Invalid task request: ${buffers.type} output buffers need partitions`);
  if (buffers?.type === 'PARTITIONED' && buffers.partitionChannels === undefined) throw new EngineError('GENERIC_USER_ERROR', 'Invalid task request: PARTITIONED output buffers need partitionChannels');
  return request;
}
