// GET /v1/node and /v1/node/failed: the other nodes this node knows, with decaying request counters.

import type Router from '@koa/router';
import type { ServerContext } from './server-context.js';

export function nodeRoutes(router: Router, server: ServerContext): void {
  router.get('/v1/node', (ctx) => {
    ctx.body = server.nodes.entries();
  });

  router.get('/v1/node/failed', (ctx) => {
    ctx.body = server.nodes.failedEntries();
  });
}
