// GET /v1/info, GET /v1/info/state, and PUT /v1/info/state (a JSON string naming the target state).

import type Router from '@koa/router';
import { formatDuration } from '../config/duration.js';
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
    const states = server.nodeState;
    // The body is read first even when refused, so the connection stays usable.
    const text = await readBodyText(ctx, server.config.http.maxRequestBodySize);
    if (ctx.request.type !== 'application/json') {
      throw states.refusal(`Content-Type must be application/json, got ${ctx.get('Content-Type') || 'none'}`, 'INVALID_NODE_STATE');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw states.refusal(`Body must be a JSON string naming a node state, got: ${text.slice(0, 100)}`, 'INVALID_NODE_STATE');
    }
    const previous = states.state;
    const state = states.request(body);
    if (state !== previous) server.logger.info({ from: previous, to: state, workload: server.workload() }, 'node state changed');
    ctx.body = JSON.stringify(state);
    ctx.type = 'application/json';
  });
}
