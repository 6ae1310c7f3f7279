// The messages between the main thread and a worker thread. One job is one scan pipeline run by
// one thread over the splits it is handed; a thread may run jobs of several queries at once (a job is
// not a cluster task: a task of a query on a node runs its scan pipeline as one job per thread).
//
// Flow of a job: main `start` -> worker `needSplit` -> main `split` (null: no more) -> ... ->
// worker `page`s (each spends a credit; main returns one per page its consumer took) and
// `splitDone`s -> worker `done` or `failed`. `cancel` (or the shared cancel flag) stops it early.
// A worker whose partial aggregation does not pay ends with `poorReduction` instead (the main
// thread then takes the whole fragment back).
//
// A `decodeStream` is a one-message job: an exchange response's body (an Arrow IPC stream of pages,
// transferred) is decoded in the thread and its pages come back as one `decodedStream` (or `failed`).

import type { Session } from '../../spi/session.js';
import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { ErrorName } from '../../errors/error-codes.js';
import type { EncodedPage } from './page-transfer.js';
import type { PartitionExchange } from './hash-exchange.js';
import type { SharedBuildSide } from './shared-build-side.js';
import type { SharedIntegerJoinHash, SharedJoinHash } from '../hash/shared-join-lookup.js';
import type { ScanPipeline } from './scan-pipeline.js';
import type { WorkerSplit } from '../../spi/worker-split.js';
import type { ConnectorMetrics, TableConstraint } from '../../spi/connector.js';

export interface StartJob {
  type: 'start';
  taskId: number;
  fragment: ScanPipeline;
  session: Session;
  /** Shared with every worker of the query: set to 1 when the query stops early or is cancelled. */
  cancelFlag: Int32Array;
  /** Pages the worker may post before it waits for a credit. */
  credits: number;
  memoryLimitBytes: number;
  /** With a fragment's final aggregation: which partition of the groups this worker owns, and its peers. */
  exchange?: PartitionExchange;
  /** The build sides the fragment's probe stages name (shared memory, see shared-build-side). */
  builds: SharedBuildSide[];
  /** The scan's dynamic filters complete when the task starts (see exec/dynamic-filters); later ones come with a split. */
  dynamicFilter?: TableConstraint;
}

/** A message for one task of the thread. */
export type MainToJob =
  | StartJob
  /** `dynamicFilter`: the scan's dynamic filters, when more are complete than the worker was given (a remote one arrived late). */
  | { type: 'split'; taskId: number; split: WorkerSplit | null; dynamicFilter?: TableConstraint }
  | { type: 'credit'; taskId: number }
  | { type: 'cancel'; taskId: number };

/** An exchange response's body to decode: the bytes of its own buffer, transferred with the message. */
export interface DecodeStream {
  type: 'decodeStream';
  taskId: number;
  body: Uint8Array;
}

/**
 * One step of filling a join's lookup table on the threads (parallel-join-build), a one-message job:
 * hash a range of the build rows, or insert the rows of one region; answered by `joinTableFilled`.
 */
export interface FillJoinTable {
  type: 'fillJoinTable';
  taskId: number;
  /** The table's arrays, in shared memory (a dense table is never filled on the threads). */
  lookup: SharedIntegerJoinHash | SharedJoinHash;
  /** The build side's key columns, in shared memory. */
  keys: EncodedPage;
  /** An integer table's row hashes, in shared memory (the general table holds its own). */
  hashes: Int32Array;
  step: { kind: 'hash'; from: number; end: number } | { kind: 'insert'; region: number };
}

/** `relieveMemory`: the node is short of memory; the thread empties its caches and collects its garbage. */
export type MainToThread = MainToJob | DecodeStream | FillJoinTable | { type: 'relieveMemory' } | { type: 'releaseBuffers' };

/** What a thread is started with (its workerData). */
export interface ThreadData {
  /** Nice steps below the event loop's priority the thread runs at. */
  nice: number;
  /** The thread's buffer pool (buffer-pool.ts): its share of memory.bufferPoolSize, and its idle time. */
  bufferPoolBytes: number;
  bufferPoolIdleMillis: number;
}

/** Work a worker did since its last report. */
export interface WorkReport {
  rows: number;
  bytes: number;
  cpuMillis: number;
  /** What the task's operators hold in the worker's heap now, mirrored in the query's memory on the main thread. */
  memoryBytes: number;
  /** What the split's page source reported about reading it. */
  metrics?: ConnectorMetrics;
}

export type ThreadToMain =
  | { type: 'needSplit'; taskId: number }
  | { type: 'page'; taskId: number; page: EncodedPage; memoryBytes: number }
  | ({ type: 'splitDone'; taskId: number } & WorkReport)
  | { type: 'poorReduction'; taskId: number }
  /** What the task holds now, when it changed while no split or page was reported (a final step's groups). */
  | { type: 'memory'; taskId: number; memoryBytes: number }
  | { type: 'done'; taskId: number; cpuMillis: number }
  /** The pages of a DecodeStream's body, in order. */
  | { type: 'decodedStream'; taskId: number; pages: EncodedPage[]; cpuMillis: number }
  /** A FillJoinTable step done; `regionFull`: its region ran out of slots (the table is built in one thread instead). */
  | { type: 'joinTableFilled'; taskId: number; cpuMillis: number; regionFull: boolean }
  | { type: 'failed'; taskId: number; error: ErrorPayload };

/** An EngineError as plain data. */
export interface ErrorPayload {
  name: ErrorName;
  message: string;
  location?: SourceLocation;
  stack?: string;
}

export function errorPayload(e: EngineError): ErrorPayload {
  return { name: e.errorName, message: e.rawMessage, location: e.location, stack: e.stack };
}

/** The same EngineError in this thread (name, message and location as the worker raised them). */
export function errorFromPayload(payload: ErrorPayload): EngineError {
  const error = new EngineError(payload.name, payload.message, payload.location);
  if (payload.stack !== undefined) error.stack = payload.stack;
  return error;
}
