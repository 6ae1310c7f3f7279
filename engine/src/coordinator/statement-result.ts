// The contract between the client protocol (server/, query manager) and statement execution.

import type { MemoryContext } from '../exec/memory.js';
import type { Page } from '../exec/page.js';
import type { SqlType } from '../types/types.js';
import type { SessionChanges } from './session.js';

export interface OutputColumn {
  name: string;
  type: SqlType;
}

/** Live counters of a running query; execution updates them, the protocol reports them in `stats`. */
export interface QueryProgress {
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  processedRows: number;
  processedBytes: number;
  cpuTimeMillis: number;
  /** Set once planning is done; EXPLAIN ANALYZE and the query detail show it. */
  planText?: string;
}

export function newQueryProgress(): QueryProgress {
  return { totalSplits: 0, queuedSplits: 0, runningSplits: 0, completedSplits: 0, processedRows: 0, processedBytes: 0, cpuTimeMillis: 0 };
}

export interface QueryExecutionContext {
  /** Aborted on cancel (DELETE) or failure; execution stops promptly. */
  signal: AbortSignal;
  /** The query's memory context (its limit is the per-query limit). */
  memory: MemoryContext;
  progress: QueryProgress;
}

export interface StatementResult {
  columns: OutputColumn[];
  /** Result rows, streamed; pulled by the protocol as the client asks for them. */
  pages: AsyncIterable<Page>;
  /** For statements that are not queries: 'CREATE TABLE', 'INSERT', 'SET SESSION', ... (Trino's updateType). */
  updateType?: string;
  /** Rows written or deleted (INSERT, DELETE, CREATE TABLE AS); also returned as the single `rows` column. */
  updateCount?: number;
  sessionChanges: SessionChanges;
}
