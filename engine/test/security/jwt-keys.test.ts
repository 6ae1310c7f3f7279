// The JWT authenticator with each kind of key Trino's key-file takes: an EC public key (ES256), an
// HMAC key file (base64), and a JWKS URL served by a local HTTP server; a principal read from another
// claim and mapped by a pattern. Tokens are made by jose, independently of the engine's checks.

import { expect } from 'chai';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, SignJWT } from 'jose';
import { JwtAuthenticator } from '../../src/security/authentication/jwt-authenticator.js';
import type { JwtAuthenticationConfig } from '../../src/config/authentication-config.js';
import { ConfigError } from '../../src/config/config-error.js';

describe('JWT keys', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-jwt-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const config = (keyFile: string, more: Partial<JwtAuthenticationConfig> = {}): JwtAuthenticationConfig => ({
    keyFile,
    principalField: 'sub',
    ...more,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (e: Error) => e.message,
    );

  it('takes an ES256 token for an EC public key, reading the principal from another claim through a user mapping', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'ec.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const jwt = new JwtAuthenticator(config(join(dir, 'ec.pem'), { principalField: 'email', userMappingPattern: '(.*)@example\\.com' }));
    const token = await new SignJWT({ email: 'alice@example.com' })
      .setProtectedHeader({ alg: 'ES256' })
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await jwt.authenticate(token)).to.equal('alice');
    const other = await new SignJWT({ email: 'alice@elsewhere.org' })
      .setProtectedHeader({ alg: 'ES256' })
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await refusal(jwt.authenticate(other))).to.equal(
      "Access Denied: principal 'alice@elsewhere.org' does not match authentication.jwt.userMappingPattern",
    );
  });

  it('takes HS256/HS512 tokens for an HMAC key file, and refuses one signed with another secret', async () => {
    const secret = randomBytes(64);
    writeFileSync(join(dir, 'hmac.key'), `${secret.toString('base64')}\n`);
    const jwt = new JwtAuthenticator(config(join(dir, 'hmac.key')));
    for (const alg of ['HS256', 'HS512'])
      expect(await jwt.authenticate(await new SignJWT({ sub: 'bob' }).setProtectedHeader({ alg }).sign(secret))).to.equal('bob');
    expect(
      await refusal(jwt.authenticate(await new SignJWT({ sub: 'bob' }).setProtectedHeader({ alg: 'HS256' }).sign(randomBytes(64)))),
    ).to.match(/signature does not match/);
    writeFileSync(join(dir, 'short.key'), randomBytes(8).toString('base64'));
    expect(() => new JwtAuthenticator(config(join(dir, 'short.key')))).to.throw(ConfigError, 'at least 256 bits');
  });

  it('takes a token whose key a JWKS URL serves, and refuses one whose kid it does not list', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    const server: Server = createServer((_request, response) =>
      response.setHeader('Content-Type', 'application/json').end(JSON.stringify({ keys: [jwk] })),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const jwt = new JwtAuthenticator(config(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`));
      expect(
        await jwt.authenticate(await new SignJWT({ sub: 'carol' }).setProtectedHeader({ alg: 'RS256', kid: 'key-1' }).sign(privateKey)),
      ).to.equal('carol');
      const unknown = await new SignJWT({ sub: 'carol' })
        .setProtectedHeader({ alg: 'RS256', kid: 'key-2' })
        .sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
      expect(await refusal(jwt.authenticate(unknown))).to.equal('Access Denied: invalid JWT: no key of the JWKS matches it');
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
