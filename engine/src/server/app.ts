// The Koa application of one node: JSON errors around every route, client authentication when configured,
// the internal endpoints' token check,
// one router per resource, and 405 for a wrong method on a known path. A worker refuses statements; only
// a coordinator takes announcements and serves the web interface (/ui/); every node serves /metrics.

import Router from '@koa/router';
import Koa from 'koa';
import { announcementRoutes } from './announcement-resource.js';
import { errorMiddleware } from './http-middleware.js';
import { infoRoutes } from './info-resource.js';
import { internalAuthMiddleware } from './internal-auth/internal-endpoints.js';
import { nodeRoutes } from './node-resource.js';
import { queryRoutes } from './query-resource.js';
import type { ServerContext } from './server-context.js';
import { statementRoutes } from './statement-resource.js';
import { statusRoutes } from './status-resource.js';
import { taskRoutes } from './task-resource.js';
import { TaskEndpoint } from '../worker/task-endpoint.js';
import { workerRefusesStatements } from './worker-refusals.js';
import { metricsRoutes } from './metrics/metrics-resource.js';
import { compressJson } from './ui/json-compression.js';
import { uiRoutes } from './ui/ui-routes.js';
import { authenticationMiddleware } from './authentication-middleware.js';
import { SELF_ONLY } from '../security/impersonation.js';

export function createApp(server: ServerContext): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  const router = new Router();
  infoRoutes(router, server);
  statusRoutes(router, server);
  nodeRoutes(router, server);
  if (server.config.role === 'worker') workerRefusesStatements(router, server);
  else statementRoutes(router, server);
  announcementRoutes(router, server);
  queryRoutes(router, server);
  taskRoutes(router, new TaskEndpoint(server.tasks, server.node));
  metricsRoutes(router, server);
  if (server.clusterHistory !== undefined) uiRoutes(router, server, server.clusterHistory);
  app.use(server.metrics.httpRequests.middleware());
  app.use(errorMiddleware(server.logger));
  if (server.authentication !== undefined) {
    app.use(
      authenticationMiddleware({
        authenticator: server.authentication,
        internalAuth: server.internalAuth,
        access: server.access,
        impersonation: () => server.impersonation ?? SELF_ONLY,
        logger: server.logger,
      }),
    );
  }
  app.use(internalAuthMiddleware(server.internalAuth));
  app.use(compressJson('/ui/api/'));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
