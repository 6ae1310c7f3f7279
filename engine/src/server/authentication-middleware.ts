// Client authentication of every request, before any route runs. Public: GET /v1/info, /v1/info/state
// and /v1/status (health checks and autoscalers read them), and the web interface, which signs its
// users in itself (ui-session.ts): its requests get the user of their session cookie, if valid. The task and announcement endpoints keep the internal token. PUT
// /v1/info/state takes the internal token or an authenticated admin user; GET /v1/node and
// /v1/node/failed the internal token or credentials (Trino's MANAGEMENT_READ: the Kubernetes operator
// lists the nodes with the internal token). Every other request needs
// credentials; the principal is the user, unless the user header names another user the principal
// may impersonate (else 403). The user header is then set to the authenticated user, so every route
// reads the user as before.

import type { Context, Middleware } from 'koa';
import type { QueryAccess } from '../coordinator/query-access.js';
import type { Logger } from '../log/logger.js';
import { HttpError } from '../errors/http-error.js';
import type { InternalAuthenticator } from './internal-auth/internal-authenticator.js';
import { isInternalEndpoint } from './internal-auth/internal-endpoints.js';
import { DEFAULT_USER, detectPrefix, HEADER_PREFIXES, requestUser } from './protocol-headers.js';
import type { Impersonation } from '../security/impersonation.js';
import { AuthenticationError } from '../security/authentication/authentication-error.js';
import type { Authenticated, ClientAuthenticator } from '../security/authentication/client-authenticator.js';
import type { SignedIn } from '../security/authentication/ui-session.js';

/** '/' only redirects to the web interface, whose page is public too. */
const PUBLIC_GETS = new Set(['/', '/v1/info', '/v1/info/state', '/v1/status']);

/** Reads about the nodes that the internal token also opens. */
const MANAGEMENT_READS = new Set(['/v1/node', '/v1/node/failed']);

/** What a request was authenticated as (ctx.state.identity). */
export interface RequestIdentity extends Authenticated {
  user: string;
}

export interface AuthenticationContext {
  authenticator: ClientAuthenticator;
  internalAuth: InternalAuthenticator;
  access: QueryAccess;
  /** Read at each request: the access rules may replace it. */
  impersonation: () => Impersonation;
  logger: Logger;
}

export function authenticationMiddleware(auth: AuthenticationContext): Middleware {
  return async (ctx, next) => {
    const path = ctx.path.toLowerCase().replace(/\/+$/, '') || '/';
    if (path === '/ui' || path.startsWith('/ui/')) {
      // The web interface signs its users in itself; its routes read who from here (ui-identity.ts).
      ctx.state.uiSignedIn = { user: auth.authenticator.uiSessions.user(ctx.get('Cookie')) } satisfies SignedIn;
      return next();
    }
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && PUBLIC_GETS.has(path)) return next();
    const nodeState = ctx.method === 'PUT' && path === '/v1/info/state';
    if (isInternalEndpoint(ctx.method, ctx.path) && !nodeState) return next();
    if (nodeState && isInternalCaller(auth.internalAuth, ctx.get('Authorization'))) return next();
    if (
      (ctx.method === 'GET' || ctx.method === 'HEAD') &&
      MANAGEMENT_READS.has(path) &&
      isInternalCaller(auth.internalAuth, ctx.get('Authorization'))
    )
      return next();
    const identity = await authenticate(auth, ctx);
    if (nodeState) {
      if (!auth.access.isAdmin(identity.user))
        throw new HttpError(
          403,
          `Access Denied: user '${identity.user}' may not change the node state (an admin user or the internal token may)`,
          'PERMISSION_DENIED',
        );
      ctx.state.adminAuthorized = true;
    }
    ctx.state.identity = identity;
    return next();
  };
}

async function authenticate(auth: AuthenticationContext, ctx: Context): Promise<RequestIdentity> {
  let authenticated: Authenticated;
  try {
    authenticated = await auth.authenticator.authenticate(ctx.get('Authorization') || undefined, ctx.ip);
  } catch (e) {
    if (e instanceof HttpError) {
      auth.logger.info(
        { status: e.status, reason: e.message, method: ctx.method, path: ctx.path, remoteAddress: ctx.ip },
        'authentication failed',
      );
      if (e instanceof AuthenticationError) ctx.set('WWW-Authenticate', auth.authenticator.challenges);
    }
    throw e;
  }
  const asked = requestUser(ctx.headers);
  const user = asked === DEFAULT_USER && !hasUserHeader(ctx) ? authenticated.principal : asked;
  if (user !== authenticated.principal && !auth.impersonation().canImpersonate(authenticated.principal, user)) {
    throw new HttpError(403, `Access Denied: User ${authenticated.principal} cannot impersonate user ${user}`, 'PERMISSION_DENIED');
  }
  setUserHeader(ctx, user);
  return { ...authenticated, user };
}

function hasUserHeader(ctx: Context): boolean {
  return HEADER_PREFIXES.some((prefix) => ctx.headers[`${prefix}user`.toLowerCase()] !== undefined);
}

/** The authenticated user replaces whatever user header the request carried, in the spelling it uses. */
function setUserHeader(ctx: Context, user: string): void {
  const prefix = detectPrefix(ctx.headers) ?? 'X-Engine-';
  for (const p of HEADER_PREFIXES) delete ctx.req.headers[`${p}user`.toLowerCase()];
  ctx.req.headers[`${prefix}user`.toLowerCase()] = user;
}

function isInternalCaller(internalAuth: InternalAuthenticator, authorization: string): boolean {
  if (!internalAuth.enabled || !/^Bearer\s/i.test(authorization)) return false;
  try {
    internalAuth.verify(authorization);
    return true;
  } catch {
    return false;
  }
}
