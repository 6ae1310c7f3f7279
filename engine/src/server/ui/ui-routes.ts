// The coordinator's web interface under /ui/: its page and files, and the JSON endpoints it reads
// (/ui/api/...), each acting as the signed-in user with the REST interface's access rules.

import type Router from '@koa/router';
import type { ServerContext } from '../server-context.js';
import type { ClusterHistory } from './cluster-history.js';
import { identityRoutes } from './ui-identity.js';
import { uiNodeRoutes } from './ui-node-routes.js';
import { uiQueryRoutes } from './ui-query-routes.js';
import { uiStaticRoutes } from './ui-static.js';

export function uiRoutes(router: Router, server: ServerContext, history: ClusterHistory): void {
  identityRoutes(router, server);
  uiQueryRoutes(router, server);
  uiNodeRoutes(router, server, history);
  uiStaticRoutes(router);
}
