// Runs one SQL statement over the client protocol: POST /v1/statement, then GET nextUri until the
// response has none, collecting columns and rows; an `error` in any response ends it.

import { parseJson, type JsonValue } from '../../src/types/exact-json.js';

export interface StatementSession {
  user: string;
  source: string;
  catalog: string;
  schema?: string;
  /** Session properties, sent in the Session header. */
  properties?: Record<string, string>;
}

export interface ResultColumn {
  name: string;
  type: string;
}

export interface StatementError {
  message: string;
  errorName?: string;
}

export interface StatementOutcome {
  /** The server's query id (the first response's `id`), for GET /v1/query/{queryId}. */
  queryId?: string;
  columns: ResultColumn[];
  rows: JsonValue[][];
  error?: StatementError;
  /** Set when the statement ran past its deadline (the request was aborted here, whether or not the server answers). */
  timedOut?: true;
  /** The server's planning time for the statement (stats.planningTimeMillis of its last response). */
  planningMillis?: number;
}

export interface StatementOptions {
  /** The statement is cancelled and reported as failed after this long. */
  timeoutMillis: number;
}

/** How long a cancel (DELETE) after the deadline may take: a server whose event loop is held never answers it. */
const CANCEL_TIMEOUT_MILLIS = 5000;
/** Gateway and overload statuses the Trino clients retry on a GET of nextUri. */
const RETRY_STATUSES = new Set([502, 503, 504]);
const MAX_RETRIES = 5;

export async function executeStatement(
  serverUrl: string,
  sql: string,
  session: StatementSession,
  options: StatementOptions,
): Promise<StatementOutcome> {
  const outcome: StatementOutcome = { columns: [], rows: [] };
  const deadline = Date.now() + options.timeoutMillis;
  const headers: Record<string, string> = {
    'X-Engine-User': session.user,
    'X-Engine-Source': session.source,
    'X-Engine-Catalog': session.catalog,
    'Content-Type': 'text/plain; charset=utf-8',
  };
  if (session.schema !== undefined) headers['X-Engine-Schema'] = session.schema;
  const properties = Object.entries(session.properties ?? {});
  if (properties.length > 0) headers['X-Engine-Session'] = properties.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join(',');

  const timedOut = (): StatementOutcome => ({
    ...outcome,
    error: { message: `Statement timed out after ${options.timeoutMillis} ms` },
    timedOut: true,
  });
  let response = await request(new URL('/v1/statement', serverUrl), { method: 'POST', headers, body: sql }, deadline);
  for (;;) {
    if ('error' in response) return Date.now() >= deadline ? timedOut() : { ...outcome, error: response.error };
    const body = response.body;
    if (typeof body.id === 'string' && outcome.queryId === undefined) outcome.queryId = body.id;
    if (Array.isArray(body.columns) && outcome.columns.length === 0) outcome.columns = body.columns as unknown as ResultColumn[];
    if (Array.isArray(body.data)) outcome.rows.push(...(body.data as JsonValue[][]));
    const planning = planningMillis(body.stats);
    if (planning !== undefined) outcome.planningMillis = planning;
    if (body.error !== undefined && body.error !== null) return { ...outcome, error: statementError(body.error) };
    if (typeof body.nextUri !== 'string') return outcome;
    const next = new URL(body.nextUri, serverUrl);
    // A statement past its deadline (or a request cut short by it) leaves the query running on the server: cancel it too.
    const cancel = async (): Promise<StatementOutcome> => {
      await fetch(next, { method: 'DELETE', headers, signal: AbortSignal.timeout(CANCEL_TIMEOUT_MILLIS) }).catch(() => undefined);
      const outcome = timedOut();
      return { ...outcome, error: { message: `${outcome.error?.message} and was cancelled` } };
    };
    if (Date.now() >= deadline) return cancel();
    response = await request(next, { method: 'GET', headers }, deadline);
    if ('error' in response && Date.now() >= deadline) return cancel();
  }
}

function planningMillis(stats: JsonValue | undefined): number | undefined {
  if (stats === null || typeof stats !== 'object' || Array.isArray(stats)) return undefined;
  return typeof stats.planningTimeMillis === 'number' ? stats.planningTimeMillis : undefined;
}

/** Trino's error object ({message, errorName, ...}); a bare string is accepted too. */
function statementError(error: JsonValue): StatementError {
  if (typeof error === 'string') return { message: error };
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
    return typeof error.errorName === 'string' ? { message, errorName: error.errorName } : { message };
  }
  return { message: String(error) };
}

type Response = { body: { [key: string]: JsonValue } } | { error: StatementError };

async function request(url: URL, init: RequestInit, deadline: number): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let res: globalThis.Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(Math.max(deadline - Date.now(), 1)) });
    } catch (e) {
      return { error: { message: `HTTP ${init.method} ${url.pathname} failed: ${e instanceof Error ? e.message : String(e)}` } };
    }
    const text = await res.text();
    if (RETRY_STATUSES.has(res.status) && init.method === 'GET' && attempt < MAX_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      continue;
    }
    let body: JsonValue;
    try {
      body = parseJson(text);
    } catch {
      return { error: { message: `HTTP ${res.status} from ${init.method} ${url.pathname}: ${text.slice(0, 500)}` } };
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return { error: { message: `HTTP ${res.status} from ${init.method} ${url.pathname}: not a JSON object` } };
    }
    if (!res.ok && !('error' in body)) {
      const message = typeof body.message === 'string' ? body.message : text.slice(0, 500);
      return { error: { message: `HTTP ${res.status}: ${message}` } };
    }
    return { body };
  }
}
