// One query as the web interface's list and system.runtime.queries show it, in plain numbers: the
// same shape for a query the manager holds (its figures as of now) and for one read back from the
// query history on disk (its figures when it ended).

import type { ManagedQuery } from './managed-query.js';

export interface QuerySummary {
  queryId: string;
  state: string;
  user: string;
  source: string | null;
  query: string;
  resourceGroupId: string[] | null;
  /** Epoch milliseconds. */
  createTime: number;
  executionStartTime: number | null;
  endTime: number | null;
  elapsedMillis: number;
  queuedMillis: number;
  cpuMillis: number;
  peakMemoryBytes: number;
  /** Rows and bytes its scans read. */
  processedRows: number;
  processedBytes: number;
  /** Rows it returned to its client. */
  outputRows: number;
  totalSplits: number;
  completedSplits: number;
  /** Percent of its splits done (100 once FINISHED); null while it has no splits. */
  progress: number | null;
  errorName: string | null;
  errorType: string | null;
  errorMessage: string | null;
}

export function querySummary(q: ManagedQuery, now = Date.now()): QuerySummary {
  const p = q.progress;
  return {
    queryId: q.id,
    state: q.state,
    user: q.session.user,
    source: q.session.source ?? null,
    query: q.sql,
    resourceGroupId: q.resourceGroupId ? [...q.resourceGroupId] : null,
    createTime: q.createTime,
    executionStartTime: q.executionStartTime ?? null,
    endTime: q.endTime ?? null,
    elapsedMillis: q.elapsedMillis(now),
    queuedMillis: q.queuedMillis(now),
    cpuMillis: Math.round(p.cpuTimeMillis),
    peakMemoryBytes: q.memoryUsage.peakBytes,
    processedRows: p.processedRows,
    processedBytes: p.processedBytes,
    outputRows: q.buffer?.rowsAdded ?? 0,
    totalSplits: p.totalSplits,
    completedSplits: p.completedSplits,
    progress: q.state === 'FINISHED' ? 100 : p.totalSplits > 0 ? (100 * p.completedSplits) / p.totalSplits : null,
    errorName: q.error?.errorName ?? null,
    errorType: q.error?.errorType ?? null,
    errorMessage: q.error?.message ?? null,
  };
}
