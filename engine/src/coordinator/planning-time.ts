// How long a statement plans: QueryProgress.planningMillis, which the statement stats report (the
// sqllogictest runner ranks the slowest plans by it: planning holds the event loop).

import type { QueryProgress } from '../spi/query-progress.js';

/** Runs `work` (planning), adding its time to the query's planningMillis. */
export async function timePlanning<T>(progress: QueryProgress, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    progress.planningMillis += performance.now() - started;
  }
}
