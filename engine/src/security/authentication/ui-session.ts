// The web interface's sign-in while client authentication is on: the user and password of the login
// form are checked as a Basic header would be (same file, cache and slow-down of guessing), and the
// browser gets an HttpOnly, Secure, SameSite=Strict cookie holding a token signed with a key of this
// process, valid for a short while. Without the cookie, or with a forged or expired one, the
// interface's JSON endpoints answer 401.

import { randomBytes } from 'node:crypto';
import { HttpError } from '../../errors/http-error.js';
import { InvalidTokenError, signToken, verifyToken } from './internal-token.js';
import type { ClientAuthenticator } from './client-authenticator.js';

export const UI_TOKEN_COOKIE = 'engine_ui_token';
const TOKEN_LIFETIME_SECONDS = 30 * 60;
const CLOCK_SKEW_SECONDS = 5;
const COOKIE_ATTRIBUTES = 'Path=/ui; HttpOnly; Secure; SameSite=Strict';

/** With client authentication, on every /ui request (ctx.state.uiSignedIn): the user of its session token, if valid. */
export interface SignedIn {
  user: string | undefined;
}

export class UiSessions {
  /** Restarting the coordinator signs everyone out: nothing else holds the key. */
  private readonly key = randomBytes(32);

  constructor(private readonly authenticator: ClientAuthenticator) {}

  /** Checks the form's credentials; the Set-Cookie value of the new session and its user. */
  async signIn(user: string, password: string, clientAddress: string): Promise<{ cookie: string; user: string }> {
    if (this.authenticator.password === undefined) {
      throw new HttpError(
        501,
        `Signing in to the web interface needs authentication type PASSWORD (configured: ${this.authenticator.config.types.join(', ')})`,
        'NOT_SUPPORTED',
      );
    }
    const principal = await this.authenticator.password.authenticate(user, password, clientAddress);
    const iat = Math.floor(Date.now() / 1000);
    const token = signToken(this.key, { sub: principal, iat, exp: iat + TOKEN_LIFETIME_SECONDS });
    return { cookie: `${UI_TOKEN_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}; Max-Age=${TOKEN_LIFETIME_SECONDS}`, user: principal };
  }

  /** The user of a request's session cookie, if it holds a valid token. */
  user(cookieHeader: string): string | undefined {
    const token = cookieValue(cookieHeader, UI_TOKEN_COOKIE);
    if (token === undefined) return undefined;
    try {
      return verifyToken(this.key, token, Math.floor(Date.now() / 1000), CLOCK_SKEW_SECONDS).sub;
    } catch (e) {
      if (e instanceof InvalidTokenError) return undefined;
      throw e;
    }
  }

  signOutCookie(): string {
    return `${UI_TOKEN_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;
  }
}

export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
