// What the coordinator's queries did since it started, as counters that only grow: queries
// submitted, queries ended by final state and failures by error type, and the rows, bytes and CPU
// time of the queries that ended. GET /metrics reports them; a rate over them (input rows per second)
// adds the progress of the queries still running (see liveTotals).

import type { ManagedQuery } from './managed-query.js';

export const FAILURE_TYPES = ['USER_ERROR', 'INTERNAL_ERROR', 'INSUFFICIENT_RESOURCES', 'EXTERNAL'] as const;

export interface QueryInputTotals {
  rows: number;
  bytes: number;
  cpuMillis: number;
}

export class QueryCounters {
  submitted = 0;
  finished = 0;
  failed = 0;
  readonly failuresByType = new Map<string, number>(FAILURE_TYPES.map((t) => [t, 0]));
  /** What the ended queries read and spent. */
  readonly ended: QueryInputTotals = { rows: 0, bytes: 0, cpuMillis: 0 };

  querySubmitted(): void {
    this.submitted++;
  }

  queryEnded(query: ManagedQuery): void {
    if (query.state === 'FINISHED') this.finished++;
    else this.failed++;
    if (query.error) this.failuresByType.set(query.error.errorType, (this.failuresByType.get(query.error.errorType) ?? 0) + 1);
    this.ended.rows += query.progress.processedRows;
    this.ended.bytes += query.progress.processedBytes;
    this.ended.cpuMillis += query.progress.cpuTimeMillis;
  }

  /** The ended queries' totals plus what the queries still running have read so far. */
  liveTotals(active: Iterable<ManagedQuery>): QueryInputTotals {
    const totals = { ...this.ended };
    for (const query of active) {
      if (query.done) continue;
      totals.rows += query.progress.processedRows;
      totals.bytes += query.progress.processedBytes;
      totals.cpuMillis += query.progress.cpuTimeMillis;
    }
    return totals;
  }
}
