// JWT authentication: a bearer token signed with the configured key (a PEM public key, an HMAC key
// file holding the key in base64 as Trino reads it, or a JWKS URL), with the algorithms that key
// allows and never `none`; expiry and not-before checked with a small clock skew; the required
// issuer and audience; the principal read from principalField.

import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { ConfigError } from '../../config/config-error.js';
import type { JwtAuthenticationConfig } from '../../config/authentication-config.js';
import { AuthenticationError } from './authentication-error.js';
import { userMapping, type UserMapping } from './user-mapping.js';

const CLOCK_SKEW_SECONDS = 30;
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

interface VerificationKey {
  key: KeyObject | JWTVerifyGetKey;
  algorithms: string[];
}

export class JwtAuthenticator {
  private readonly verification: VerificationKey;
  private readonly mapUser: UserMapping;

  constructor(private readonly config: JwtAuthenticationConfig) {
    this.verification = loadKey(config.keyFile);
    this.mapUser = userMapping(config.userMappingPattern, 'authentication.jwt.userMappingPattern');
  }

  async authenticate(token: string): Promise<string> {
    let payload: Record<string, unknown>;
    try {
      const verifyOptions = {
        algorithms: this.verification.algorithms,
        clockTolerance: CLOCK_SKEW_SECONDS,
        issuer: this.config.requiredIssuer,
        audience: this.config.requiredAudience,
      };
      const key = this.verification.key;
      payload = (typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions))
        .payload;
    } catch (e) {
      throw new AuthenticationError(`Access Denied: invalid JWT: ${describe(e)}`);
    }
    const principal = payload[this.config.principalField];
    if (typeof principal !== 'string' || principal === '')
      throw new AuthenticationError(`Access Denied: the JWT has no principal in its '${this.config.principalField}' claim`);
    const user = this.mapUser(principal);
    if (user === undefined)
      throw new AuthenticationError(`Access Denied: principal '${principal}' does not match authentication.jwt.userMappingPattern`);
    return user;
  }
}

function loadKey(keyFile: string): VerificationKey {
  if (/^https?:\/\//i.test(keyFile)) return { key: createRemoteJWKSet(new URL(keyFile)), algorithms: ASYMMETRIC_ALGORITHMS };
  let text: string;
  try {
    text = readFileSync(keyFile, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read the JWT key file ${keyFile}: ${(e as Error).message}`);
  }
  if (text.includes('-----BEGIN ')) {
    try {
      const key = createPublicKey(text);
      return { key, algorithms: algorithmsOf(key) };
    } catch (e) {
      throw new ConfigError(`The JWT key file ${keyFile} is not a PEM public key or certificate: ${(e as Error).message}`);
    }
  }
  const secret = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  if (secret.length < 32) throw new ConfigError(`The JWT HMAC key file ${keyFile} must hold at least 256 bits of key, base64-encoded`);
  return { key: createSecretKey(secret), algorithms: ['HS256', 'HS384', 'HS512'] };
}

function algorithmsOf(key: KeyObject): string[] {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
    case 'rsa-pss':
      return ['PS256', 'PS384', 'PS512'];
    case 'ec':
      return ['ES256', 'ES384', 'ES512'];
    case 'ed25519':
    case 'ed448':
      return ['EdDSA'];
    default:
      throw new ConfigError(`JWT keys of type ${key.asymmetricKeyType ?? 'unknown'} are not supported`);
  }
}

/** Why jose refused a token, in words that hold no part of it. */
function describe(e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'it has expired';
  if (e instanceof errors.JWTClaimValidationFailed)
    return e.claim === 'nbf'
      ? 'it is not valid yet (nbf)'
      : e.claim === 'iat'
        ? 'it was issued in the future (iat)'
        : `claim '${e.claim}' is not accepted (${e.reason})`;
  if (e instanceof errors.JOSEAlgNotAllowed) return 'its algorithm is not accepted for this key';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not match the key';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no key of the JWKS matches it';
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid) return 'it is malformed';
  if (e instanceof errors.JOSENotSupported) return 'its algorithm is not supported';
  if (e instanceof errors.JWKSTimeout) return 'the JWKS did not answer in time';
  return e instanceof Error ? e.message : String(e);
}
