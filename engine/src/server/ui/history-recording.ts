// What the coordinator writes to the query history on disk when a query ends: its summary, and the
// detail GET /v1/query/{queryId} answers then, with its plan. A query that failed or was canceled
// ends before its tasks on other nodes have reported their final state: its detail is written again
// once they had the time to (the history keeps the last one written).

import type { ManagedQuery } from '../../coordinator/managed-query.js';
import type { QueryHistory } from '../../coordinator/query-history.js';
import { querySummary } from '../../coordinator/query-summary.js';
import { flattenStages } from '../../coordinator/root-stage.js';
import { queryDetailWithPlan } from './query-details.js';

/** Longer than a task's final report takes to arrive (the coordinator follows its tasks with 1 s long polls). */
const FINAL_TASK_INFO_MILLIS = 3000;

export function recordEndedQuery(history: QueryHistory, query: ManagedQuery, origin: string): void {
  const write = () => history.record(querySummary(query), queryDetailWithPlan(query, origin));
  write();
  if (flattenStages(query.subStages()).some((stage) => !stage.done)) setTimeout(write, FINAL_TASK_INFO_MILLIS).unref();
}
