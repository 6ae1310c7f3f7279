// Internal bearer tokens: HS256 JWTs signed with the shared secret, and the authenticator that signs a
// node's requests and checks the ones it receives.

import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { HttpError } from '../../src/errors/http-error.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { isInternalEndpoint } from '../../src/server/internal-auth/internal-endpoints.js';
import { deriveKey, InvalidTokenError, signToken, verifyToken } from '../../src/security/authentication/internal-token.js';

const SECRET = 'the cluster secret';
const NOW = 1_700_000_000;

function tokenOf(header: Readonly<Record<string, string>>): string {
  const match = /^Bearer (\S+)$/.exec(header.Authorization ?? '');
  expect(match, 'an Authorization: Bearer header').to.not.equal(null);
  return match![1]!;
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(HttpError);
    expect((e as HttpError).status).to.equal(401);
    expect((e as HttpError).errorName).to.equal('UNAUTHORIZED');
    return e as HttpError;
  }
  throw new Error('expected a 401');
}

function tokenError(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(InvalidTokenError);
    return (e as Error).message;
  }
  throw new Error('expected an InvalidTokenError');
}

describe('internal bearer tokens', () => {
  const key = deriveKey(SECRET);

  it('derive the HMAC key as the SHA-256 of the secret, and sign a standard HS256 JWT with sub, iat and exp', () => {
    // printf '%s' 'the cluster secret' | sha256sum
    expect(key.toString('hex')).to.equal('dcc0f55b0a234ec79e870148f499a2fc1f22d1cfa47f88b8ac6ae1327bc70a9d');
    const token = signToken(key, { sub: 'worker-1', iat: NOW, exp: NOW + 300 });
    const [header, payload, signature] = token.split('.');
    expect(decodePart(header!)).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    expect(decodePart(payload!)).to.deep.equal({ sub: 'worker-1', iat: NOW, exp: NOW + 300 });
    // Any JWT library would check it: the signature is HMAC-SHA256 over "header.payload" with the key.
    expect(signature).to.equal(createHmac('sha256', key).update(`${header!}.${payload!}`).digest('base64url'));
    expect(verifyToken(key, token, NOW + 10, 60)).to.deep.equal({ sub: 'worker-1', iat: NOW, exp: NOW + 300 });
  });

  it('refuse an expired token, one issued in the future, and allow a minute of clock skew', () => {
    const token = signToken(key, { sub: 'w', iat: NOW, exp: NOW + 300 });
    expect(verifyToken(key, token, NOW + 300 + 59, 60).sub).to.equal('w');
    expect(tokenError(() => verifyToken(key, token, NOW + 300 + 60, 60))).to.equal("it expired 60 s ago (are the nodes' clocks apart?)");
    expect(verifyToken(key, token, NOW - 60, 60).sub).to.equal('w');
    expect(tokenError(() => verifyToken(key, token, NOW - 61, 60))).to.equal(
      "it was issued 61 s in the future (are the nodes' clocks apart?)",
    );
  });

  it('refuse a token signed with another secret, a tampered payload, and a re-spelt signature', () => {
    const token = signToken(key, { sub: 'w', iat: NOW, exp: NOW + 300 });
    const mismatch = "its signature does not match this node's shared secret";
    expect(tokenError(() => verifyToken(deriveKey('another secret'), token, NOW, 60))).to.equal(mismatch);
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'w', iat: NOW, exp: NOW + 86_400 * 365 })).toString('base64url');
    expect(tokenError(() => verifyToken(key, `${header!}.${forged}.${signature!}`, NOW, 60))).to.equal(mismatch);
    // The last of the 43 base64url characters of a 32-byte signature has 2 unused bits: another spelling decodes to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelt = signature!.slice(0, -1) + alphabet[alphabet.indexOf(signature!.at(-1)!) ^ 1]!;
    expect(Buffer.from(respelt, 'base64url').equals(Buffer.from(signature!, 'base64url'))).to.equal(true);
    expect(tokenError(() => verifyToken(key, `${token.slice(0, token.lastIndexOf('.'))}.${respelt}`, NOW, 60))).to.equal(mismatch);
  });

  it('refuse alg none and every algorithm but HS256, even with a valid HMAC', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'w', iat: NOW, exp: NOW + 300 })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(tokenError(() => verifyToken(key, `${none}.${payload}.`, NOW, 60))).to.equal('not a signed JWT (three base64url parts)');
    const signed = (header: string) =>
      `${header}.${payload}.${createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')}`;
    expect(tokenError(() => verifyToken(key, signed(none), NOW, 60))).to.equal('algorithm "none" is not accepted (only HS256)');
    const hs512 = Buffer.from(JSON.stringify({ alg: 'HS512' })).toString('base64url');
    expect(tokenError(() => verifyToken(key, signed(hs512), NOW, 60))).to.equal('algorithm "HS512" is not accepted (only HS256)');
  });

  it('refuse malformed tokens and claims with a message, never a crash', () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signed = (payload: string) => {
      const header = json({ alg: 'HS256' });
      return `${header}.${payload}.${createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')}`;
    };
    expect(tokenError(() => verifyToken(key, 'abc', NOW, 60))).to.equal('not a signed JWT (three base64url parts)');
    expect(tokenError(() => verifyToken(key, 'a.b.c.d', NOW, 60))).to.equal('not a signed JWT (three base64url parts)');
    expect(tokenError(() => verifyToken(key, 'a+b.c.d', NOW, 60))).to.equal('not a signed JWT (three base64url parts)');
    expect(tokenError(() => verifyToken(key, `${Buffer.from('{nope').toString('base64url')}.e30.sig`, NOW, 60))).to.equal(
      'its header is not JSON',
    );
    expect(tokenError(() => verifyToken(key, `${json([1])}.e30.sig`, NOW, 60))).to.equal('its header is not a JSON object');
    expect(tokenError(() => verifyToken(key, signed(json({ iat: NOW, exp: NOW + 1 })), NOW, 60))).to.equal('it names no node (sub)');
    expect(tokenError(() => verifyToken(key, signed(json({ sub: 'w', exp: NOW + 1 })), NOW, 60))).to.equal('it has no valid iat and exp');
    expect(tokenError(() => verifyToken(key, signed(json({ sub: 'w', iat: NOW, exp: 'later' })), NOW, 60))).to.equal(
      'it has no valid iat and exp',
    );
    expect(tokenError(() => verifyToken(key, signed(json('w')), NOW, 60))).to.equal('its payload is not a JSON object');
  });
});

describe('InternalAuthenticator', () => {
  it("signs with the node id as subject and verifies its own and its peers' tokens (round trip)", () => {
    const worker = new InternalAuthenticator(SECRET, 'worker-1');
    const coordinator = new InternalAuthenticator(SECRET, 'coordinator');
    expect(worker.enabled).to.equal(true);
    const header = worker.authorizationHeader();
    expect(Object.keys(header)).to.deep.equal(['Authorization']);
    const claims = decodePart(tokenOf(header).split('.')[1]!);
    expect(claims.sub).to.equal('worker-1');
    expect((claims.exp as number) - (claims.iat as number)).to.equal(300);
    expect(coordinator.verify(header.Authorization)).to.equal('worker-1');
    expect(worker.verify(coordinator.authorizationHeader().Authorization)).to.equal('coordinator');
  });

  it('reuses its token and renews it a minute before it expires', () => {
    let now = NOW * 1000;
    const auth = new InternalAuthenticator(SECRET, 'w', () => now);
    const first = tokenOf(auth.authorizationHeader());
    now += 3 * 60_000;
    expect(tokenOf(auth.authorizationHeader())).to.equal(first);
    now += 60_000 - 1;
    expect(tokenOf(auth.authorizationHeader())).to.equal(first);
    now += 1;
    const renewed = tokenOf(auth.authorizationHeader());
    expect(renewed).to.not.equal(first);
    expect(decodePart(renewed.split('.')[1]!).iat).to.equal(NOW + 4 * 60);
    // The token it just replaced is still valid for its last minute: requests in flight do not fail.
    expect(auth.verify(`Bearer ${first}`)).to.equal('w');
  });

  it("computes a peer token's signature once, checks its times at every use, and refuses it once expired", () => {
    let now = NOW * 1000;
    const auth = new InternalAuthenticator(SECRET, 'coordinator', () => now);
    const peer = new InternalAuthenticator(SECRET, 'w', () => NOW * 1000);
    const header = peer.authorizationHeader().Authorization;
    for (let i = 0; i < 3; i++) expect(auth.verify(header)).to.equal('w');
    expect(auth.signatureChecks).to.equal(1);
    // A token this node refused is not remembered: a foreign one is refused every time.
    const stranger = new InternalAuthenticator('not the cluster secret', 'stranger').authorizationHeader().Authorization;
    for (let i = 0; i < 2; i++) expect(refusal(() => auth.verify(stranger)).message).to.contain('signature does not match');
    expect(auth.signatureChecks).to.equal(3);
    // Five minutes of life and one of clock skew: refused from then on, remembered or not.
    now += 6 * 60_000;
    expect(refusal(() => auth.verify(header)).message).to.match(/^Invalid internal bearer token: it expired \d+ s ago/);
    expect(auth.signatureChecks).to.equal(3);
  });

  it('answers 401 for a missing, malformed, expired or foreign token, saying why', () => {
    const auth = new InternalAuthenticator(SECRET, 'coordinator');
    const required =
      "This endpoint is internal: a request needs a bearer token signed with the cluster's shared secret (internal-communication.shared-secret)";
    expect(refusal(() => auth.verify(undefined)).message).to.equal(required);
    expect(refusal(() => auth.verify('Basic dXNlcjpwYXNz')).message).to.equal(required);
    expect(refusal(() => auth.verify('Bearer')).message).to.equal(required);
    expect(refusal(() => auth.verify('Bearer x.y')).message).to.equal(
      'Invalid internal bearer token: not a signed JWT (three base64url parts)',
    );
    const stranger = new InternalAuthenticator('not the cluster secret', 'stranger');
    expect(refusal(() => auth.verify(stranger.authorizationHeader().Authorization)).message).to.equal(
      "Invalid internal bearer token: its signature does not match this node's shared secret",
    );
    const stale = new InternalAuthenticator(SECRET, 'w', () => Date.now() - 10 * 60_000);
    expect(refusal(() => auth.verify(stale.authorizationHeader().Authorization)).message).to.match(
      /^Invalid internal bearer token: it expired \d+ s ago/,
    );
    // The scheme is case-insensitive, as HTTP says.
    expect(auth.verify(`bearer ${tokenOf(new InternalAuthenticator(SECRET, 'w').authorizationHeader())}`)).to.equal('w');
  });

  it('without a secret signs nothing, lets requests without a token through, and refuses one it cannot check', () => {
    const open = new InternalAuthenticator(undefined, 'coordinator');
    expect(open.enabled).to.equal(false);
    expect(open.authorizationHeader()).to.deep.equal({});
    expect(open.verify(undefined)).to.equal(undefined);
    expect(open.verify('Basic dXNlcjpwYXNz')).to.equal(undefined);
    expect(refusal(() => open.verify(new InternalAuthenticator(SECRET, 'w').authorizationHeader().Authorization)).message).to.equal(
      'This node has no shared secret (internal-communication.shared-secret) but the request carries an internal bearer token: give every node of the cluster the same secret, or none',
    );
  });
});

describe('internal endpoints', () => {
  it('are the task resource, announcements and PUT /v1/info/state, matched as the router matches', () => {
    for (const [method, path] of [
      ['GET', '/v1/task'],
      ['POST', '/v1/task/q.1.0'],
      ['GET', '/v1/task/q.1.0/results/0/3'],
      ['DELETE', '/v1/task/q.1.0/results/0'],
      ['PUT', '/v1/announcement/worker-1'],
      ['DELETE', '/v1/announcement/worker-1'],
      ['PUT', '/v1/info/state'],
      ['PUT', '/V1/Info/State/'],
      ['GET', '/V1/TASK/x'],
      ['GET', '/v1/task/'],
    ] as const) {
      expect(isInternalEndpoint(method, path), `${method} ${path}`).to.equal(true);
    }
    for (const [method, path] of [
      ['POST', '/v1/statement'],
      ['GET', '/v1/query'],
      ['GET', '/v1/info'],
      ['GET', '/v1/info/state'],
      ['GET', '/v1/status'],
      ['GET', '/v1/node'],
      ['GET', '/v1/tasks'],
      ['GET', '/v1/taskx/1'],
    ] as const) {
      expect(isInternalEndpoint(method, path), `${method} ${path}`).to.equal(false);
    }
  });
});
