// The query resource: GET /v1/query (recent queries, optionally ?state=RUNNING), GET
// /v1/query/{queryId} (the detail), DELETE /v1/query/{queryId} (cancel). A user sees and cancels
// only their own queries; admin users see and cancel all.

import type Router from '@koa/router';
import { QUERY_STATES } from '../coordinator/query-state.js';
import { baseUri } from './base-uri.js';
import { HttpError } from '../errors/http-error.js';
import { queryDetailJson, queryListItemJson } from './query-json.js';
import type { ServerContext } from './server-context.js';
import { requestUser } from './protocol-headers.js';
import { cancelQuery, checkMayKill, findOwnQuery } from './statement-resource.js';
import { visibleQueryDetail } from './ui/query-details.js';

export function queryRoutes(router: Router, server: ServerContext): void {
  router.get('/v1/query', (ctx) => {
    const filter = typeof ctx.query.state === 'string' ? ctx.query.state.toUpperCase() : undefined;
    if (filter !== undefined && !(QUERY_STATES as readonly string[]).includes(filter)) {
      throw new HttpError(400, `Invalid query state filter: ${filter}; expected one of ${QUERY_STATES.join(', ')}`, 'BAD_REQUEST');
    }
    const now = Date.now();
    const base = baseUri(ctx, server.node.internalUri);
    ctx.body = server.access
      .visible(requestUser(ctx.headers), server.queries.list())
      .filter((q) => filter === undefined || q.state === filter)
      .map((q) => queryListItemJson(q, base, now));
  });

  router.get('/v1/query/:queryId', async (ctx) => {
    const origin = baseUri(ctx, server.node.internalUri);
    const queryId = ctx.params.queryId!;
    // A query of the history on disk (an earlier run's, or one the manager let go) answers as it was when it ended.
    ctx.body =
      server.queries.get(queryId) === undefined
        ? await visibleQueryDetail(server, requestUser(ctx.headers), queryId, origin)
        : queryDetailJson(findOwnQuery(server, ctx.headers, queryId), origin);
  });

  router.delete('/v1/query/:queryId', (ctx) => {
    const query = findOwnQuery(server, ctx.headers, ctx.params.queryId!);
    checkMayKill(server, requestUser(ctx.headers), query);
    cancelQuery(server, query);
    ctx.status = 204;
  });
}
