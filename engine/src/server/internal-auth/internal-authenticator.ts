// One node's side of internal authentication: signs the bearer token its requests to other nodes carry,
// and checks the token of the requests other nodes send it. Without a shared secret it signs nothing,
// checks nothing, and refuses a token it cannot check: every node of a cluster has the same secret, or none.

import { HttpError } from '../../errors/http-error.js';
import {
  checkTokenTimes,
  deriveKey,
  type InternalClaims,
  InvalidTokenError,
  signToken,
  verifyToken,
} from '../../security/authentication/internal-token.js';

/** The setting's name in messages (Trino's; here internalCommunication.sharedSecret, or ENGINE_SHARED_SECRET). */
export const SHARED_SECRET_SETTING = 'internal-communication.shared-secret';

/** Tokens live five minutes and are renewed a minute before they expire, so none in flight runs out. */
const TOKEN_LIFETIME_SECONDS = 5 * 60;
const RENEW_BEFORE_EXPIRY_SECONDS = 60;
/** How far apart the clocks of two nodes may be. */
const CLOCK_SKEW_SECONDS = 60;
/** Tokens whose signature is remembered: a few per peer node (each renews its own every four minutes). */
const MAX_VERIFIED_TOKENS = 256;

export class InternalAuthenticator {
  /** The HMAC key; the secret itself is not kept. */
  private readonly key: Buffer | undefined;
  private current: { header: Readonly<Record<string, string>>; renewAtMillis: number } | undefined;
  /**
   * The claims of tokens whose signature checked out, by token. A peer sends the same token for
   * minutes, on every task request and page fetch: its HMAC is computed once, its times at each use.
   */
  private readonly verified = new Map<string, InternalClaims>();
  /** How many tokens had their signature computed (not taken from `verified`). */
  signatureChecks = 0;

  constructor(
    secret: string | undefined,
    private readonly nodeId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = secret === undefined ? undefined : deriveKey(secret);
  }

  /** Whether this node has a shared secret (and so signs its requests and checks the ones it gets). */
  get enabled(): boolean {
    return this.key !== undefined;
  }

  /** The headers an internal request carries: `{}` without a secret, else `{ Authorization: 'Bearer <token>' }`. */
  authorizationHeader(): Readonly<Record<string, string>> {
    if (this.key === undefined) return {};
    const nowMillis = this.now();
    if (this.current === undefined || nowMillis >= this.current.renewAtMillis) {
      const iat = Math.floor(nowMillis / 1000);
      const token = signToken(this.key, { sub: this.nodeId, iat, exp: iat + TOKEN_LIFETIME_SECONDS });
      this.current = {
        header: Object.freeze({ Authorization: `Bearer ${token}` }),
        renewAtMillis: (iat + TOKEN_LIFETIME_SECONDS - RENEW_BEFORE_EXPIRY_SECONDS) * 1000,
      };
    }
    return this.current.header;
  }

  /** Checks an internal request's Authorization header; returns the id of the node that signed it. Throws HttpError 401. */
  verify(authorization: string | undefined): string | undefined {
    const token = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    if (this.key === undefined) {
      if (token === undefined) return undefined;
      throw unauthorized(
        `This node has no shared secret (${SHARED_SECRET_SETTING}) but the request carries an internal bearer token: give every node of the cluster the same secret, or none`,
      );
    }
    if (token === undefined) {
      throw unauthorized(
        `This endpoint is internal: a request needs a bearer token signed with the cluster's shared secret (${SHARED_SECRET_SETTING})`,
      );
    }
    try {
      const nowSeconds = Math.floor(this.now() / 1000);
      const known = this.verified.get(token);
      if (known !== undefined) return checkTokenTimes(known, nowSeconds, CLOCK_SKEW_SECONDS).sub;
      this.signatureChecks++;
      const claims = verifyToken(this.key, token, nowSeconds, CLOCK_SKEW_SECONDS);
      if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
      this.verified.set(token, claims);
      return claims.sub;
    } catch (e) {
      if (e instanceof InvalidTokenError) throw unauthorized(`Invalid internal bearer token: ${e.message}`);
      throw e;
    }
  }
}

function unauthorized(message: string): HttpError {
  return new HttpError(401, message, 'UNAUTHORIZED');
}
