// GET /v1/info, GET /v1/info/state, and PUT /v1/info/state (a JSON string naming the target state).

import type Router from '@koa/router';
import { formatDuration } from '../config/duration.js';
import { HttpError } from './http-error.js';
import { readBodyText } from './request-body.js';
import type { ServerContext } from './server-context.js';

export function infoRoutes(router: Router, server: ServerContext): void {
  router.get('/v1/info', (ctx) => {
    ctx.body = {
      nodeVersion: { version: server.node.version },
      environment: server.node.environment,
      coordinator: server.node.coordinator,
      starting: server.nodeState.state === 'INACTIVE',
      uptime: formatDuration(Date.now() - server.node.startTime),
    };
  });

  router.get('/v1/info/state', (ctx) => {
    ctx.body = JSON.stringify(server.nodeState.state);
    ctx.type = 'application/json';
  });

  router.put('/v1/info/state', async (ctx) => {
    const text = await readBodyText(ctx, server.config.http.maxRequestBodySize);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, `Body must be a JSON string naming a node state, got: ${text.slice(0, 100)}`, 'INVALID_NODE_STATE');
    }
    const previous = server.nodeState.state;
    const state = server.nodeState.request(body);
    if (state !== previous) server.logger.info({ from: previous, to: state }, 'node state changed');
    ctx.body = JSON.stringify(server.nodeState.state);
    ctx.type = 'application/json';
  });
}
