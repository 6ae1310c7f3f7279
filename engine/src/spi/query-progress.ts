// Live counters of a running query: execution updates them, the protocol reports them in `stats`.

export interface QueryProgress {
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  processedRows: number;
  processedBytes: number;
  cpuTimeMillis: number;
  /**
   * Time spent planning (analysis, optimization, physical planning and plan validation), all the
   * statement's plans together: most of it holds the event loop, so the sqllogictest report ranks it.
   */
  planningMillis: number;
  /** Set once planning is done; EXPLAIN ANALYZE and the query detail show it. */
  planText?: string;
}

export function newQueryProgress(): QueryProgress {
  return {
    totalSplits: 0,
    queuedSplits: 0,
    runningSplits: 0,
    completedSplits: 0,
    processedRows: 0,
    processedBytes: 0,
    cpuTimeMillis: 0,
    planningMillis: 0,
  };
}
