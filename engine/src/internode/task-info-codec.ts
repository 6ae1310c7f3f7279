// The task object on the wire (task-info.ts): its durations written as airlift's duration strings
// and its sizes as data sizes, as INTERFACE.md and Trino's tools expect; its version a JSON number
// with all 64 bits. Reading one checks it against a JSON Schema first, so that a malformed answer
// from a node is a ProtocolError naming what is wrong, not a crash or a NaN in the query's figures.

import { encodeVersionedDomains, untaggedVersionedDomains, VERSIONED_DOMAINS_SCHEMA } from './dynamic-filter-domains.js';
import { DATA_SIZE_SCHEMA, formatDataSize, parseDataSize } from '../config/data-size.js';
import { DURATION_SCHEMA, formatDuration, parseDuration } from '../config/duration.js';
import { shapeCheck } from '../spi/json-shape.js';
import { ProtocolError } from './protocol-error.js';
import { TASK_STATES, type DriverFigures, type OperatorSummary, type PipelineStats, type TaskInfo, type TaskStats } from './task-info.js';

/** Which fields of a message are durations and which sizes (every other field is written as it is). */
interface Units<T> {
  durations: readonly (keyof T & string)[];
  sizes: readonly (keyof T & string)[];
}

/** `T` as written: its durations and sizes as text. */
type Written<T, U extends keyof T> = Omit<T, U> & { [K in U]: string };

const OPERATOR_UNITS = {
  durations: [
    'addInputWall',
    'addInputCpu',
    'addInputUser',
    'getOutputWall',
    'getOutputCpu',
    'getOutputUser',
    'blockedWall',
    'finishWall',
    'finishCpu',
    'finishUser',
  ],
  sizes: ['inputDataSize', 'outputDataSize', 'memoryReservation', 'peakUserMemoryReservation'],
} as const satisfies Units<OperatorSummary>;

const DRIVER_UNITS = {
  durations: ['totalScheduledTime', 'totalCpuTime', 'totalBlockedTime'],
  sizes: ['memoryReservation', 'rawInputDataSize', 'processedInputDataSize', 'outputDataSize'],
} as const satisfies Units<DriverFigures>;

const TASK_STATS_UNITS = {
  durations: [...DRIVER_UNITS.durations, 'elapsedTime', 'queuedTime'],
  sizes: [...DRIVER_UNITS.sizes, 'peakMemoryReservation'],
} as const satisfies Units<TaskStats>;

type OperatorUnit = (typeof OPERATOR_UNITS.durations)[number] | (typeof OPERATOR_UNITS.sizes)[number];
type DriverUnit = (typeof DRIVER_UNITS.durations)[number] | (typeof DRIVER_UNITS.sizes)[number];
type TaskStatsUnit = (typeof TASK_STATS_UNITS.durations)[number] | (typeof TASK_STATS_UNITS.sizes)[number];

export type OperatorSummaryJson = Written<OperatorSummary, OperatorUnit>;
export type PipelineStatsJson = Written<Omit<PipelineStats, 'operatorSummaries'>, DriverUnit> & {
  operatorSummaries: OperatorSummaryJson[];
};
export type TaskStatsJson = Written<Omit<TaskStats, 'pipelines'>, TaskStatsUnit> & { pipelines: PipelineStatsJson[] };
/** The task object as written; its version a bigint still (encodeTaskInfo writes it exactly). */
export type TaskInfoJson = Omit<TaskInfo, 'stats'> & { stats: TaskStatsJson };

export function operatorSummaryJson(summary: OperatorSummary): OperatorSummaryJson {
  return written(summary, OPERATOR_UNITS);
}

export function taskStatsJson(stats: TaskStats): TaskStatsJson {
  const pipelines = stats.pipelines.map((p) => ({
    ...written(p, DRIVER_UNITS),
    operatorSummaries: p.operatorSummaries.map(operatorSummaryJson),
  }));
  return { ...written(stats, TASK_STATS_UNITS), pipelines };
}

export function taskInfoJson(info: TaskInfo): TaskInfoJson {
  return { ...info, stats: taskStatsJson(info.stats) };
}

/**
 * The JSON text of a task object (GET /v1/task/{taskId}, POST and DELETE answers). Its version, the
 * one 64-bit field, is written with all its digits right after the task id (where decodeTaskInfo
 * reads it); the rest by JSON.stringify without a replacer, which would call back for every field.
 */
export function encodeTaskInfo(info: TaskInfo): string {
  const { taskId, version, dynamicFilterDomains, ...rest } = taskInfoJson(info);
  const fields = JSON.stringify(rest);
  // Domains hold bigints and key bitmaps: tagged, as in a fetch answer, and written last.
  const domains = dynamicFilterDomains === undefined ? '' : `,"dynamicFilterDomains":${encodeVersionedDomains(dynamicFilterDomains)}`;
  return `{"taskId":${JSON.stringify(taskId)},"version":${version.toString()},${fields.slice(1, -1)}${domains}}`;
}

/** The JSON text of a list of task objects (GET /v1/task). */
export function encodeTaskInfos(infos: readonly TaskInfo[]): string {
  return `[${infos.map(encodeTaskInfo).join(',')}]`;
}

/** Reads a task object another node wrote; a ProtocolError names what is wrong with a malformed one. */
export function decodeTaskInfo(text: string): TaskInfo {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError(`Invalid task info: not JSON (${(e as Error).message}): ${text.slice(0, 200)}`);
  }
  const problem = checkTaskInfo(value);
  if (problem !== undefined) throw new ProtocolError(`Invalid task info: ${problem}`);
  const json = value as Omit<TaskInfoJson, 'version'> & { version: number };
  const stats = json.stats;
  const pipelines = stats.pipelines.map((p) => ({
    ...read<PipelineStats>(p, DRIVER_UNITS),
    operatorSummaries: p.operatorSummaries.map((o) => read<OperatorSummary>(o, OPERATOR_UNITS)),
  }));
  return {
    ...json,
    version: exactVersion(json.version, text),
    stats: { ...read<TaskStats>(stats, TASK_STATS_UNITS), pipelines },
    ...(json.dynamicFilterDomains === undefined ? {} : { dynamicFilterDomains: untaggedVersionedDomains(json.dynamicFilterDomains) }),
  };
}

function written<T extends object, U extends keyof T & string>(
  value: T,
  units: { durations: readonly U[]; sizes: readonly U[] },
): Written<T, U> {
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of units.durations) out[field] = formatDuration(value[field] as number);
  for (const field of units.sizes) out[field] = formatDataSize(value[field] as number);
  return out as Written<T, U>;
}

/** The inverse of `written`, for a value the schema checked (every duration and size parses). */
function read<T>(value: object, units: { durations: readonly string[]; sizes: readonly string[] }): T {
  const source = value as Record<string, string>;
  const out: Record<string, unknown> = { ...value };
  for (const field of units.durations) out[field] = parseDuration(source[field]!);
  for (const field of units.sizes) out[field] = parseDataSize(source[field]!);
  return out as T;
}

/**
 * The version with all its digits: JSON.parse rounds one above 2^53 (a done task's is 2^63-1), so
 * such a version is read from the text, where the writer put it right after the task id.
 */
const MAX_VERSION = 2n ** 63n - 1n;

function exactVersion(parsed: number, text: string): bigint {
  if (Number.isSafeInteger(parsed)) return BigInt(parsed);
  const digits = /^\s*\{\s*"taskId"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"version"\s*:\s*(\d{1,19})\s*[,}]/.exec(text)?.[1];
  if (digits === undefined || BigInt(digits) > MAX_VERSION) {
    throw new ProtocolError(`Invalid task info: /version ${parsed} is not a 64-bit integer written after the task id`);
  }
  return BigInt(digits);
}

const STRING = { type: 'string' };
const INTEGER = { type: 'integer', minimum: 0 };
const BOOLEAN = { type: 'boolean' };
const OBJECT = { type: 'object' };
const DURATION = DURATION_SCHEMA.oneOf[1];
const DATA_SIZE = DATA_SIZE_SCHEMA.oneOf[1];

/** An object with these fields required (and others allowed: a newer node may write more). */
function fields(required: Record<string, object>, optional: Record<string, object> = {}): object {
  return { type: 'object', required: Object.keys(required), properties: { ...required, ...optional } };
}

function withUnits(units: { durations: readonly string[]; sizes: readonly string[] }, integers: readonly string[]): Record<string, object> {
  return Object.fromEntries([
    ...units.durations.map((f) => [f, DURATION]),
    ...units.sizes.map((f) => [f, DATA_SIZE]),
    ...integers.map((f) => [f, INTEGER]),
  ]);
}

const DRIVER_COUNTS = [
  'totalDrivers',
  'queuedDrivers',
  'runningDrivers',
  'completedDrivers',
  'rawInputPositions',
  'processedInputPositions',
  'outputPositions',
];

const OPERATOR_SUMMARY = fields(
  {
    operatorId: INTEGER,
    planNodeId: STRING,
    operatorType: STRING,
    ...withUnits(OPERATOR_UNITS, ['addInputCalls', 'getOutputCalls', 'finishCalls', 'inputPositions', 'outputPositions']),
  },
  { connectorMetrics: { type: 'object', additionalProperties: { type: 'number' } }, info: OBJECT },
);

const PIPELINE = fields({
  inputPipeline: BOOLEAN,
  outputPipeline: BOOLEAN,
  ...withUnits(DRIVER_UNITS, DRIVER_COUNTS),
  queuedTime: OBJECT,
  elapsedTime: OBJECT,
  operatorSummaries: { type: 'array', items: OPERATOR_SUMMARY },
  drivers: { type: 'array' },
});

const TASK_STATS = fields(
  {
    createTime: STRING,
    ...withUnits(TASK_STATS_UNITS, [...DRIVER_COUNTS, 'totalSplits', 'queuedSplits', 'runningSplits', 'completedSplits']),
    pipelines: { type: 'array', items: PIPELINE },
  },
  { startTime: STRING, endTime: STRING },
);

const FAILURE = fields({ type: STRING, message: STRING, errorCode: fields({ code: { type: 'integer' }, name: STRING, type: STRING }) });

const OUTPUT_BUFFERS = fields({
  state: { enum: ['OPEN', 'FLUSHING', 'FINISHED', 'ABORTED'] },
  masterSequenceId: INTEGER,
  pagesAdded: INTEGER,
  buffers: { type: 'array', items: fields({ bufferId: STRING, finished: BOOLEAN, bufferedPages: INTEGER, pagesSent: INTEGER }) },
});

export const TASK_INFO_SCHEMA = {
  $id: 'urn:engine:task-info',
  ...fields(
    {
      taskId: STRING,
      version: INTEGER,
      state: { enum: TASK_STATES },
      self: STRING,
      nodeId: STRING,
      lastHeartbeat: STRING,
      outputBuffers: OUTPUT_BUFFERS,
      noMoreSplits: { type: 'array', items: STRING },
      stats: TASK_STATS,
      failures: { type: 'array', items: FAILURE },
      outputs: OBJECT,
    },
    { dynamicFiltersVersion: { type: 'integer', minimum: 0 }, dynamicFilterDomains: VERSIONED_DOMAINS_SCHEMA },
  ),
};

const checkTaskInfo = shapeCheck(TASK_INFO_SCHEMA);
