// The endpoints only nodes call: the task resource (/v1/task and everything under it: tasks and their
// results), announcements, and PUT /v1/info/state. With a shared secret they need a valid internal bearer
// token, checked before any route runs (and before a body is read); client endpoints stay open.

import type { Middleware } from 'koa';
import type { InternalAuthenticator } from './internal-authenticator.js';

const INTERNAL_PREFIXES = ['/v1/task', '/v1/announcement'];

/** Matches as the router does: case-insensitive, trailing slashes ignored. */
export function isInternalEndpoint(method: string, path: string): boolean {
  const normalized = path.toLowerCase().replace(/\/+$/, '');
  if (INTERNAL_PREFIXES.some((prefix) => normalized === prefix || normalized.startsWith(`${prefix}/`))) return true;
  return method === 'PUT' && normalized === '/v1/info/state';
}

export function internalAuthMiddleware(authenticator: InternalAuthenticator): Middleware {
  return async (ctx, next) => {
    // An admin user authenticated by client authentication may change the node state (PUT /v1/info/state).
    if (isInternalEndpoint(ctx.method, ctx.path) && ctx.state.adminAuthorized !== true) {
      try {
        authenticator.verify(ctx.get('Authorization') || undefined);
      } catch (e) {
        ctx.set('WWW-Authenticate', 'Bearer realm="engine-internal"');
        throw e;
      }
    }
    await next();
  };
}
