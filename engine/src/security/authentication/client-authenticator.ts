// Authenticates a client request with the configured types in order: PASSWORD reads a Basic header,
// JWT a Bearer header; the first type whose credentials the request carries decides. A request with
// no credentials of any configured type, or refused ones, gets 401 with a challenge per type.

import type { Logger } from '../../log/logger.js';
import type { AuthenticationConfig, AuthenticationType } from '../../config/authentication-config.js';
import { AuthenticationError } from './authentication-error.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { PasswordAuthenticator } from './password-authenticator.js';
import { UiSessions } from './ui-session.js';

/** Longest Authorization header looked at (a JWT with many claims is a few kB). */
const MAX_AUTHORIZATION_LENGTH = 8192;

export interface Authenticated {
  principal: string;
  type: AuthenticationType;
}

export class ClientAuthenticator {
  readonly password: PasswordAuthenticator | undefined;
  private readonly jwt: JwtAuthenticator | undefined;
  /** The WWW-Authenticate challenges of a 401. */
  readonly challenges: string[];
  /** The web interface's signed-in users. */
  readonly uiSessions = new UiSessions(this);

  constructor(
    readonly config: AuthenticationConfig,
    logger: Logger,
  ) {
    this.password = config.password && new PasswordAuthenticator(config.password, logger);
    this.jwt = config.jwt && new JwtAuthenticator(config.jwt);
    this.challenges = config.types.map((type) => (type === 'PASSWORD' ? 'Basic realm="Engine"' : 'Bearer realm="Engine"'));
  }

  async authenticate(authorization: string | undefined, clientAddress: string): Promise<Authenticated> {
    if (authorization === undefined || authorization.trim() === '')
      throw new AuthenticationError(`Unauthorized: credentials are required (${this.config.types.join(' or ')})`);
    if (authorization.length > MAX_AUTHORIZATION_LENGTH)
      throw new AuthenticationError(`Unauthorized: the Authorization header is longer than ${MAX_AUTHORIZATION_LENGTH} characters`);
    const scheme = /^(\S+)\s+(\S+)\s*$/.exec(authorization);
    if (scheme === null) throw new AuthenticationError('Unauthorized: malformed Authorization header (expected "<scheme> <credentials>")');
    const kind = scheme[1]!.toLowerCase();
    const credentials = scheme[2]!;
    for (const type of this.config.types) {
      if (type === 'PASSWORD' && kind === 'basic') {
        const [user, password] = decodeBasic(credentials);
        return { principal: await this.password!.authenticate(user, password, clientAddress), type };
      }
      if (type === 'JWT' && kind === 'bearer') return { principal: await this.jwt!.authenticate(credentials), type };
    }
    throw new AuthenticationError(`Unauthorized: ${scheme[1]} credentials are not accepted (configured: ${this.config.types.join(', ')})`);
  }
}

function decodeBasic(credentials: string): [string, string] {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) throw new AuthenticationError('Unauthorized: malformed Basic credentials (not base64)');
  const text = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) throw new AuthenticationError('Unauthorized: malformed Basic credentials (expected user:password)');
  const password = text.slice(colon + 1);
  if (password === '') throw new AuthenticationError('Unauthorized: the password is empty');
  return [text.slice(0, colon), password];
}
