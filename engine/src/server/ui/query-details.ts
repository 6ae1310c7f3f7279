// The queries the web interface shows, from the query manager (queries of this run) and the query
// history on disk (queries of earlier runs, and of this one once the manager let them go), under the
// REST interface's rule: a user sees their own queries, an admin user every query.

import type { ManagedQuery } from '../../coordinator/managed-query.js';
import { querySummary, type QuerySummary } from '../../coordinator/query-summary.js';
import { queryDetailJson } from '../query-json.js';
import type { ServerContext } from '../server-context.js';
import { queryNotFound } from '../statement-resource.js';
import { planGraph } from './plan-graph.js';

/** The summaries of ended queries, which do not change any more: a refresh of 10,000 queries makes none again. */
const endedSummaries = new WeakMap<ManagedQuery, QuerySummary>();

function summaryOf(query: ManagedQuery, now: number): QuerySummary {
  if (!query.done) return querySummary(query, now);
  let summary = endedSummaries.get(query);
  if (summary === undefined) endedSummaries.set(query, (summary = querySummary(query, now)));
  return summary;
}

/** Every query `user` may see: those held now, then those of the history not held any more. */
export function visibleQueries(server: ServerContext, user: string, now = Date.now()): QuerySummary[] {
  const live = server.queries.list();
  const held = new Set(live.map((q) => q.id));
  const rows = server.access.visible(user, live).map((q) => summaryOf(q, now));
  for (const summary of server.history?.list(now) ?? []) {
    if (!held.has(summary.queryId) && server.access.mayAccessQueryOf(user, summary.user)) rows.push(summary);
  }
  return rows;
}

/**
 * GET /v1/query/{queryId}'s detail with the query's plan as fragments (null until it is planned to run
 * as tasks), and the plan's text as EXPLAIN prints it, physical plans included (null until planned).
 */
export function queryDetailWithPlan(query: ManagedQuery, origin: string, now = Date.now()) {
  return {
    ...queryDetailJson(query, origin, now),
    plan: query.fragments === undefined ? null : planGraph(query.fragments),
    planText: query.progress.planText ?? null,
  };
}

/**
 * A query's detail for `user`: live while the manager holds it, else as written to the history
 * when it ended. Another user's query, or one not known, is the 404 of an unknown query.
 */
export async function visibleQueryDetail(server: ServerContext, user: string, queryId: string, origin: string): Promise<object> {
  const live = server.queries.get(queryId);
  if (live !== undefined) {
    if (!server.access.canAccess(user, live)) throw queryNotFound(queryId);
    return queryDetailWithPlan(live, origin);
  }
  const stored = server.history?.get(queryId);
  if (stored === undefined || !server.access.mayAccessQueryOf(user, stored.user)) throw queryNotFound(queryId);
  const detail = await server.history!.detail(queryId);
  if (typeof detail !== 'object' || detail === null) throw queryNotFound(queryId);
  return detail;
}
