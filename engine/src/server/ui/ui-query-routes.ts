// /ui/api/queries: the list (filtered, searched, sorted and limited on the server, see
// query-list.ts), one query's detail with its plan, and killing a query. All act as the signed-in
// user, under the REST interface's access rules.

import type Router from '@koa/router';
import { baseUri } from '../base-uri.js';
import type { ServerContext } from '../server-context.js';
import { cancelQuery, checkMayKill, queryNotFound } from '../statement-resource.js';
import { visibleQueries, visibleQueryDetail } from './query-details.js';
import { parseQueryListParams, selectQueries } from './query-list.js';
import { uiUser } from './ui-identity.js';

export function uiQueryRoutes(router: Router, server: ServerContext): void {
  router.get('/ui/api/queries', (ctx) => {
    const user = uiUser(ctx);
    const params = parseQueryListParams(ctx.query);
    ctx.body = selectQueries(visibleQueries(server, user), params);
  });

  router.get('/ui/api/queries/:queryId', async (ctx) => {
    ctx.body = await visibleQueryDetail(server, uiUser(ctx), ctx.params.queryId!, baseUri(ctx, server.node.internalUri));
  });

  // Killing a query: its owner and admin users; anyone else is told it does not exist, as by DELETE /v1/query/{queryId}.
  router.delete('/ui/api/queries/:queryId', (ctx) => {
    const user = uiUser(ctx);
    const queryId = ctx.params.queryId!;
    const query = server.queries.get(queryId);
    if (query === undefined || !server.access.canAccess(user, query)) throw queryNotFound(queryId);
    checkMayKill(server, user, query);
    cancelQuery(server, query);
    ctx.status = 204;
  });
}
