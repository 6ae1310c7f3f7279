// The bearer token between nodes: a JWT signed with HMAC-SHA256 (header {"alg":"HS256"}), as Trino's
// internal bearer. Written with node:crypto rather than a JWT library: one algorithm, three claims, and
// a verifier that accepts nothing else (no `alg` negotiation to get wrong, no dependency to keep).

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface InternalClaims {
  /** The node that signed the token. */
  sub: string;
  /** Issued at and expires at, in seconds since the epoch (JWT NumericDate). */
  iat: number;
  exp: number;
}

/** Why a token was refused; the message says what is wrong with it (never the token or the key). */
export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The HMAC key of a shared secret: SHA-256 of its UTF-8 bytes, as Trino derives it. */
export function deriveKey(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function signToken(key: Buffer, claims: InternalClaims): string {
  const signingInput = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${hmac(key, signingInput).toString('base64url')}`;
}

/** The claims of a token this key signed that is valid at `nowSeconds` (± `skewSeconds`); else throws InvalidTokenError. */
export function verifyToken(key: Buffer, token: string, nowSeconds: number, skewSeconds: number): InternalClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => SEGMENT.test(part)))
    throw new InvalidTokenError('not a signed JWT (three base64url parts)');
  const [header, payload, signature] = parts as [string, string, string];
  const alg = (decodeJson(header, 'header') as { alg?: unknown }).alg;
  if (alg !== 'HS256') throw new InvalidTokenError(`algorithm ${JSON.stringify(alg)} is not accepted (only HS256)`);
  const expected = hmac(key, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  // The re-encoding check refuses a second spelling of the same signature bytes.
  if (given.length !== expected.length || given.toString('base64url') !== signature || !timingSafeEqual(given, expected)) {
    throw new InvalidTokenError("its signature does not match this node's shared secret");
  }
  const claims = decodeJson(payload, 'payload') as Partial<Record<keyof InternalClaims, unknown>>;
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new InvalidTokenError('it names no node (sub)');
  if (!isSeconds(claims.iat) || !isSeconds(claims.exp)) throw new InvalidTokenError('it has no valid iat and exp');
  return checkTokenTimes({ sub: claims.sub, iat: claims.iat, exp: claims.exp }, nowSeconds, skewSeconds);
}

/** `claims` if they are valid at `nowSeconds` (± `skewSeconds`); else throws InvalidTokenError. */
export function checkTokenTimes(claims: InternalClaims, nowSeconds: number, skewSeconds: number): InternalClaims {
  if (claims.exp + skewSeconds <= nowSeconds)
    throw new InvalidTokenError(`it expired ${nowSeconds - claims.exp} s ago (are the nodes' clocks apart?)`);
  if (claims.iat - skewSeconds > nowSeconds)
    throw new InvalidTokenError(`it was issued ${claims.iat - nowSeconds} s in the future (are the nodes' clocks apart?)`);
  return claims;
}

function hmac(key: Buffer, input: string): Buffer {
  return createHmac('sha256', key).update(input, 'ascii').digest();
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function decodeJson(part: string, what: string): object {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidTokenError(`its ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidTokenError(`its ${what} is not a JSON object`);
  return value;
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
