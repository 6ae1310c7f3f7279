// Who is using the web interface. Without client authentication, the interface asks for a user
// name, as Trino's insecure login form does, and keeps it in an HttpOnly, SameSite=Strict cookie;
// with it, the form asks for the password too and the cookie holds a signed short-lived token
// (security/authentication/ui-session.ts). Every /ui/api request acts as that user, with the same
// access rules as the REST interface (the X-Engine-User header is not read here).

import type Router from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../../errors/http-error.js';
import { readBodyText } from '../request-body.js';
import type { ServerContext } from '../server-context.js';
import type { SignedIn } from '../../security/authentication/ui-session.js';

export const USER_COOKIE = 'engine_ui_user';
/** Trino's user names are free text; this bounds what a cookie carries. */
const MAX_USER_LENGTH = 256;

/** The signed-in user of a /ui/api request; 401 LOGIN_REQUIRED (PASSWORD_LOGIN_REQUIRED with authentication on) without one. */
export function uiUser(ctx: Context): string {
  // Set for every request by the authentication middleware when client authentication is on.
  const signedIn = ctx.state.uiSignedIn as SignedIn | undefined;
  const user = signedIn?.user ?? (signedIn === undefined ? cookieUser(ctx.get('Cookie')) : undefined);
  if (user === undefined)
    throw new HttpError(401, 'Sign in to use the web interface', signedIn === undefined ? 'LOGIN_REQUIRED' : 'PASSWORD_LOGIN_REQUIRED');
  return user;
}

export function identityRoutes(router: Router, server: ServerContext): void {
  const sessions = server.authentication?.uiSessions;

  router.post('/ui/api/login', async (ctx) => {
    const body = await readJsonBody(ctx, server);
    const field = (name: string): string =>
      typeof (body as Record<string, unknown> | null)?.[name] === 'string' ? (body as Record<string, string>)[name]! : '';
    const user = field('user').trim();
    if (user === '' || user.length > MAX_USER_LENGTH || /[\u0000-\u001f]/.test(user)) {
      throw new HttpError(400, `A user name is 1 to ${MAX_USER_LENGTH} characters without control characters`, 'INVALID_USER');
    }
    if (sessions !== undefined) {
      if (field('password') === '') throw new HttpError(401, 'Sign in with your user name and password', 'PASSWORD_LOGIN_REQUIRED');
      const session = await sessions.signIn(user, field('password'), ctx.ip);
      ctx.set('Set-Cookie', session.cookie);
      ctx.body = sessionJson(server, session.user);
      return;
    }
    ctx.set('Set-Cookie', `${USER_COOKIE}=${encodeURIComponent(user)}; Path=/; HttpOnly; SameSite=Strict`);
    ctx.body = sessionJson(server, user);
  });

  router.post('/ui/api/logout', (ctx) => {
    ctx.set('Set-Cookie', sessions?.signOutCookie() ?? `${USER_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    ctx.status = 204;
  });

  router.get('/ui/api/session', (ctx) => {
    ctx.body = sessionJson(server, uiUser(ctx));
  });
}

/** What the interface needs to know of its user: the name, and whether to offer admin actions. */
function sessionJson(server: ServerContext, user: string) {
  return { user, admin: server.access.isAdmin(user) };
}

/**
 * A JSON request body. Requests that change something must say application/json: a form on another
 * site cannot send that without the browser asking first, so with the SameSite cookie no other site
 * can act as the user.
 */
export async function readJsonBody(ctx: Context, server: ServerContext): Promise<unknown> {
  const text = await readBodyText(ctx, server.config.http.maxRequestBodySize);
  if (ctx.request.type !== 'application/json')
    throw new HttpError(415, `Content-Type must be application/json, got ${ctx.get('Content-Type') || 'none'}`, 'UNSUPPORTED_MEDIA_TYPE');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Request body is not JSON', 'BAD_REQUEST');
  }
}

function cookieUser(header: string): string | undefined {
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== USER_COOKIE) continue;
    try {
      const user = decodeURIComponent(value.join('='));
      return user === '' ? undefined : user;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
