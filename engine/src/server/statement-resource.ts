// The statement resource: POST /v1/statement submits, GET nextUri polls (long-polling up to a
// second while nothing is ready) and returns the next chunk of rows, DELETE nextUri cancels.
// Tokens advance one by one and the current token's response is kept, so a client that retries
// after a lost response gets the same chunk again. Every token carries the query's secret slug: the
// nextUri is the capability to read and cancel (as in Trino, whose clients do not all resend the
// user on follow-ups), and a wrong slug gets the same 404 as an unknown query.

import { TransactionEndingError } from '../coordinator/transactions/transaction-manager.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { IncomingHttpHeaders } from 'node:http';
import type { ManagedQuery } from '../coordinator/managed-query.js';
import { isAtLeast } from '../coordinator/query-state.js';
import { baseUri } from './base-uri.js';
import { HttpError } from '../errors/http-error.js';
import { detectPrefix, readSessionHeaders, requestUser, sessionChangeHeaders, type HeaderPrefix } from './protocol-headers.js';
import { readBodyText } from './request-body.js';
import type { ServerContext } from './server-context.js';
import { statementResponse, type StatementResponseJson } from './statement-json.js';
import { statementBody } from './statement-body.js';
import type { JsonRowsChunk } from '../coordinator/result-buffer.js';
import { newSlug, parseToken, slugMatches } from './statement-token.js';

/** How long one poll waits for something to report. */
export const MAX_POLL_WAIT_MILLIS = 1000;

/** A statement response: its fields, and the rows (as JSON text) it delivers. */
interface StatementResponse {
  json: StatementResponseJson;
  rows?: JsonRowsChunk;
}

/** The client's position in a query's responses. */
interface Cursor {
  /** The secret every token of the query carries. */
  slug: string;
  token: number;
  response: Promise<StatementResponse>;
  /** The header spelling the query was submitted with; used when a poll carries no protocol header. */
  prefix: HeaderPrefix;
}

const DEFAULT_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function statementRoutes(router: Router, server: ServerContext): void {
  const cursors = new WeakMap<ManagedQuery, Cursor>();

  router.post('/v1/statement', async (ctx) => {
    if (!server.nodeState.acceptsWork) throw server.nodeState.notAcceptingWork('queries');
    const sql = await readBodyText(ctx, server.config.http.maxRequestBodySize);
    if (sql === '') throw new HttpError(400, 'SQL statement is empty', 'BAD_REQUEST');
    const prefix = detectPrefix(ctx.headers) ?? 'X-Engine-';
    const headers = readSessionHeaders(ctx.headers, prefix, DEFAULT_TIME_ZONE);
    const session = { ...headers, groups: server.access.groupsOf(headers.user) };
    const slug = newSlug();
    const query = server.queries.submit(sql, session, { remoteAddress: ctx.ip, userAgent: ctx.get('User-Agent') || undefined });
    await waitUntilStarted(query, Date.now() + MAX_POLL_WAIT_MILLIS);
    const response = {
      json: statementResponse(query, { origin: baseUri(ctx, server.node.internalUri), nextToken: 1, slug, initial: true }),
    };
    cursors.set(query, { slug, token: 0, response: Promise.resolve(response), prefix });
    respond(ctx, query, prefix, response);
  });

  /** The query and cursor a statement path names, if its slug is right; else 404 as for an unknown query. */
  const findStatement = (queryId: string, tokenText: string): { query: ManagedQuery; cursor: Cursor; token: number } => {
    const query = server.queries.get(queryId);
    const cursor = query && cursors.get(query);
    const token = parseToken(tokenText);
    if (!query || !cursor || !token || !slugMatches(cursor.slug, token.slug)) throw queryNotFound(queryId);
    return { query, cursor, token: token.sequence };
  };

  router.get('/v1/statement/:queryId/:token', async (ctx) => {
    const { query, cursor, token } = findStatement(ctx.params.queryId!, ctx.params.token!);
    query.touch();
    if (token === cursor.token + 1) {
      const previous = await cursor.response;
      // Re-checked after the wait: a concurrent retry of this token may have advanced the cursor already.
      if (token === cursor.token + 1 && previous.json.nextUri !== undefined) {
        cursor.token = token;
        cursor.response = nextResponse(query, baseUri(ctx, server.node.internalUri), token, cursor.slug);
      }
    }
    if (token !== cursor.token) {
      if (token < cursor.token)
        throw new HttpError(410, `Token ${token} of query ${query.id} is no longer available (current token: ${cursor.token})`, 'GONE');
      throw new HttpError(404, `Token ${token} of query ${query.id} does not exist (current token: ${cursor.token})`, 'NOT_FOUND');
    }
    const response = await cursor.response;
    query.touch();
    if (response.json.nextUri === undefined) server.queries.clientFinished(query);
    respond(ctx, query, detectPrefix(ctx.headers) ?? cursor.prefix, response);
  });

  router.delete('/v1/statement/:queryId/:token', (ctx) => {
    cancelQuery(server, findStatement(ctx.params.queryId!, ctx.params.token!).query);
    ctx.status = 204;
  });

  // Partial cancel: stop producing more output; what is buffered is delivered and the query finishes.
  // Its address carries no slug (it names a stage), so it is for the query's user (or an admin).
  router.delete('/v1/stage/:stageId', (ctx) => {
    const stageId = ctx.params.stageId!;
    const dot = stageId.lastIndexOf('.');
    const query = findOwnQuery(server, ctx.headers, dot > 0 ? stageId.slice(0, dot) : stageId);
    query.buffer?.stop();
    ctx.status = 204;
  });
}

export function queryNotFound(queryId: string): HttpError {
  return new HttpError(404, `Query not found: ${queryId}`, 'QUERY_NOT_FOUND');
}

/** The query, if the requesting user submitted it or is an admin; else 404, as if it did not exist. */
export function findOwnQuery(server: ServerContext, headers: IncomingHttpHeaders, queryId: string): ManagedQuery {
  const query = server.queries.get(queryId);
  if (!query || !server.access.canAccess(requestUser(headers), query)) throw queryNotFound(queryId);
  return query;
}

/** A query the requesting user may see but not cancel (by the query rules of security.rulesFile) answers 403, as Trino's. */
export function checkMayKill(server: ServerContext, user: string, query: ManagedQuery): void {
  if (!server.access.mayKillQueryOf(user, query.session.user))
    throw new HttpError(403, 'Access Denied: Cannot kill query', 'PERMISSION_DENIED');
}

/** Cancels a query on behalf of its client, who then needs no final response. */
export function cancelQuery(server: ServerContext, query: ManagedQuery): void {
  query.cancel();
  server.queries.clientFinished(query);
}

/** Waits (bounded) until the query is planned, so the first response can name its columns. */
async function waitUntilStarted(query: ManagedQuery, deadline: number): Promise<void> {
  while (!query.done && !isAtLeast(query.state, 'RUNNING')) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    await query.waitForChange(left);
  }
}

/** The response for a new token: rows as soon as there are any, else the final result, else status after the poll wait. */
async function nextResponse(query: ManagedQuery, origin: string, token: number, slug: string): Promise<StatementResponse> {
  const deadline = Date.now() + MAX_POLL_WAIT_MILLIS;
  for (;;) {
    if (query.state === 'FAILED') return { json: statementResponse(query, { origin, slug }) };
    if (query.buffer?.hasRows) {
      const rows = query.takeRows();
      return { json: statementResponse(query, { origin, slug, nextToken: query.done ? undefined : token + 1 }), rows };
    }
    if (query.state === 'FINISHED') return { json: statementResponse(query, { origin, slug }) };
    const left = deadline - Date.now();
    if (left <= 0) return { json: statementResponse(query, { origin, slug, nextToken: token + 1 }) };
    await query.waitForChange(left);
  }
}

function respond(ctx: Context, query: ManagedQuery, prefix: HeaderPrefix, response: StatementResponse): void {
  if (query.result && query.state !== 'FAILED') {
    for (const [name, values] of sessionChangeHeaders(query.result.sessionChanges, prefix)) ctx.set(name, values);
  }
  // A failed COMMIT or ROLLBACK still ends the transaction, as Trino tells its clients.
  if (query.state === 'FAILED' && query.error instanceof TransactionEndingError) ctx.set(`${prefix}Clear-Transaction-Id`, 'true');
  ctx.type = 'application/json';
  ctx.body = statementBody(response.json, response.rows);
}
