// PUT /v1/announcement/{nodeId} (a node joins or renews, airlift's discovery protocol: 202 Accepted)
// and DELETE /v1/announcement/{nodeId} (a node leaves gracefully). Only a coordinator takes them.

import type Router from '@koa/router';
import { AnnouncementError, readAnnouncement } from '../internode/announcement.js';
import { HttpError } from '../errors/http-error.js';
import { readBodyText } from './request-body.js';
import type { ServerContext } from './server-context.js';

export function announcementRoutes(router: Router, server: ServerContext): void {
  const requireCoordinator = () => {
    const heartbeats = server.heartbeats;
    if (!heartbeats) {
      throw new HttpError(404, `This node's role is '${server.config.role}': only a coordinator takes announcements`, 'NOT_A_COORDINATOR');
    }
    return heartbeats;
  };

  router.put('/v1/announcement/:nodeId', async (ctx) => {
    const monitor = requireCoordinator();
    const text = await readBodyText(ctx, server.config.http.maxRequestBodySize);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, `Announcement must be JSON, got: ${text.slice(0, 100)}`, 'INVALID_ANNOUNCEMENT');
    }
    try {
      const { node, joined } = server.nodes.announce(readAnnouncement(body, ctx.params.nodeId!));
      if (joined) {
        server.logger.info({ node: node.nodeId, uri: node.uri, version: node.version, coordinator: node.coordinator }, 'node joined');
        // Its state is known at once rather than a heartbeat later.
        void monitor.check(node);
      }
    } catch (e) {
      if (e instanceof AnnouncementError) throw new HttpError(400, e.message, 'INVALID_ANNOUNCEMENT');
      throw e;
    }
    ctx.status = 202;
    ctx.body = '';
  });

  router.delete('/v1/announcement/:nodeId', (ctx) => {
    requireCoordinator();
    const nodeId = ctx.params.nodeId!;
    if (!server.nodes.remove(nodeId)) throw new HttpError(404, `Node '${nodeId}' is not known`, 'NODE_NOT_FOUND');
    server.logger.info({ node: nodeId }, 'node left');
    ctx.status = 204;
  });
}
