// query_max_execution_time: its default (Trino's) and the limit a session sets, read by the query
// manager (which fails a query running past it) and by SQL routines (whose loops check it).

import { parseDuration } from './duration.js';

export const DEFAULT_QUERY_MAX_EXECUTION_TIME = '100.00d';

/** How long a query may run once out of the queue, in milliseconds. */
export function queryMaxExecutionMillis(session: { readonly properties: ReadonlyMap<string, string> }): number {
  return parseDuration(session.properties.get('query_max_execution_time') ?? DEFAULT_QUERY_MAX_EXECUTION_TIME)!;
}
