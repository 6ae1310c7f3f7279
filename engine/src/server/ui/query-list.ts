// The web interface's query list, chosen on the server: the queries a user may see, filtered by
// state and failure type, searched, sorted and cut to a limit, so that a coordinator holding 10,000
// queries sends one page of rows, not all of them, on each refresh. Every parameter is in the page's
// URL; a bad one is a 400 naming it.

import { FAILURE_TYPES } from '../../coordinator/query-counters.js';
import type { QueryListPage, QueryListRow, QuerySummary, StateGroup } from './ui-api.js';
import { HttpError } from '../../errors/http-error.js';

/** The states a list filter names, each standing for the query states it covers. */
export const STATE_GROUPS: Readonly<Record<StateGroup, readonly string[]>> = {
  queued: ['QUEUED'],
  running: ['PLANNING', 'STARTING', 'RUNNING', 'FINISHING'],
  finished: ['FINISHED'],
  failed: ['FAILED'],
};

/** Each sortable column and the figure it orders by. */
const SORT_KEYS = {
  created: (q: QuerySummary) => q.createTime,
  ended: (q: QuerySummary) => q.endTime ?? Number.MAX_SAFE_INTEGER,
  elapsed: (q: QuerySummary) => q.elapsedMillis,
  queued: (q: QuerySummary) => q.queuedMillis,
  cpu: (q: QuerySummary) => q.cpuMillis,
  memory: (q: QuerySummary) => q.peakMemoryBytes,
  rows: (q: QuerySummary) => q.processedRows,
  bytes: (q: QuerySummary) => q.processedBytes,
  output: (q: QuerySummary) => q.outputRows,
  progress: (q: QuerySummary) => q.progress ?? -1,
  state: (q: QuerySummary) => q.state,
  user: (q: QuerySummary) => q.user,
  source: (q: QuerySummary) => q.source ?? '',
  id: (q: QuerySummary) => q.queryId,
  sql: (q: QuerySummary) => q.query,
} as const;
export type SortKey = keyof typeof SORT_KEYS;

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/** SQL text in a list row is cut to this many characters (the detail has it whole). */
export const LIST_SQL_LENGTH = 300;

export interface QueryListParams {
  states: StateGroup[];
  failureTypes: string[];
  search: string;
  sort: SortKey;
  descending: boolean;
  limit: number;
}

/** Reads the list parameters of a request's query string. */
export function parseQueryListParams(query: Readonly<Record<string, string | string[] | undefined>>): QueryListParams {
  const one = (name: string): string | undefined => {
    const value = query[name];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
  const list = (name: string): string[] =>
    (one(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const states = list('state').map((s) => s.toLowerCase());
  const badState = states.find((s) => !(s in STATE_GROUPS));
  if (badState !== undefined)
    throw new HttpError(400, `Unknown state filter '${badState}'; expected some of ${Object.keys(STATE_GROUPS).join(', ')}`, 'BAD_REQUEST');
  const failureTypes = list('failure').map((s) => s.toUpperCase());
  const badType = failureTypes.find((t) => !(FAILURE_TYPES as readonly string[]).includes(t));
  if (badType !== undefined)
    throw new HttpError(400, `Unknown failure type '${badType}'; expected some of ${FAILURE_TYPES.join(', ')}`, 'BAD_REQUEST');
  const sort = one('sort') ?? 'created';
  if (!(sort in SORT_KEYS))
    throw new HttpError(400, `Unknown sort column '${sort}'; expected one of ${Object.keys(SORT_KEYS).join(', ')}`, 'BAD_REQUEST');
  const order = (one('order') ?? 'desc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw new HttpError(400, `Sort order must be asc or desc, got '${order}'`, 'BAD_REQUEST');
  const limitText = one('limit') ?? String(DEFAULT_LIMIT);
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new HttpError(400, `limit must be an integer from 1 to ${MAX_LIMIT}, got '${limitText}'`, 'BAD_REQUEST');
  return {
    states: states as StateGroup[],
    failureTypes,
    search: (one('search') ?? '').trim(),
    sort: sort as SortKey,
    descending: order === 'desc',
    limit,
  };
}

/** The page of `visible` (the queries the user may see) that `params` asks for. */
export function selectQueries(visible: readonly QuerySummary[], params: QueryListParams): QueryListPage {
  const counts: Record<StateGroup, number> = { queued: 0, running: 0, finished: 0, failed: 0 };
  const states = new Set<string>(params.states.flatMap((g) => STATE_GROUPS[g]));
  const types = new Set(params.failureTypes);
  const needle = params.search.toLowerCase();
  const matched: QuerySummary[] = [];
  for (const q of visible) {
    counts[stateGroup(q.state)]++;
    if (states.size > 0 && !states.has(q.state)) continue;
    if (types.size > 0 && !(q.state === 'FAILED' && q.errorType !== null && types.has(q.errorType))) continue;
    if (needle !== '' && !matchesSearch(q, needle)) continue;
    matched.push(q);
  }
  const key = SORT_KEYS[params.sort];
  const sign = params.descending ? -1 : 1;
  matched.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    // Ties: newest first, whatever the order asked.
    return order !== 0 ? sign * order : b.createTime - a.createTime;
  });
  return { total: visible.length, matched: matched.length, counts, queries: matched.slice(0, params.limit).map(listRow) };
}

function stateGroup(state: string): StateGroup {
  if (state === 'QUEUED') return 'queued';
  if (state === 'FINISHED') return 'finished';
  if (state === 'FAILED') return 'failed';
  return 'running';
}

function matchesSearch(q: QuerySummary, needle: string): boolean {
  return [q.queryId, q.user, q.source, q.query, q.errorName, q.errorMessage].some(
    (field) => field !== null && field.toLowerCase().includes(needle),
  );
}

function listRow(q: QuerySummary): QueryListRow {
  const truncated = q.query.length > LIST_SQL_LENGTH;
  return {
    ...q,
    query: truncated ? q.query.slice(0, LIST_SQL_LENGTH) : q.query,
    queryTruncated: truncated,
    errorMessage: q.errorMessage?.slice(0, LIST_SQL_LENGTH) ?? null,
  };
}
