// One query as the web interface's list and system.runtime.queries show it, in plain numbers: the
// same shape for a query the manager holds (its figures as of now) and for one read back from the
// query history on disk (its figures when it ended).

import type { QuerySummary } from '../server/ui/ui-api.js';
import type { ManagedQuery } from './managed-query.js';

export type { QuerySummary };

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
