// Client authentication on a real server process over real TLS: password (bcrypt file) and JWT (RSA
// key), tried in that order, with real clients (trino-client, presto-client, curl, the engine CLI),
// and the bad inputs of issue 20 §5: each answers its status with a JSON error, the server keeps
// serving, and no password or token appears in its logs.

import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { connect as netConnect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { SignJWT } from 'jose';
import { Client as PrestoClient } from 'presto-client';
import { BasicAuth, Trino } from 'trino-client';
import { deriveKey, signToken } from '../../src/security/authentication/internal-token.js';
import { startEngine } from '../support/engine-cli.js';
import { ServerProcess } from '../support/server-process.js';
import { basic, KEY_PASSPHRASE, makeTlsFiles, writePasswordFile, type TlsFiles } from '../support/tls-fixtures.js';

const SECRET = 'internal secret of the auth test 93ab';
const PASSWORDS = {
  alice: 'alice password 1',
  bob: 'bob password 2',
  admin: 'admin password 3',
  carol: 'carol password 4',
  dave: 'dave password 5',
};
const ISSUER = 'https://issuer.test';
const AUDIENCE = 'engine-test';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { message: string; errorName: string } } & Record<string, unknown>;
  text: string;
}

describe('client authentication over HTTPS (PASSWORD, JWT)', function () {
  this.timeout(60_000);
  let tls: TlsFiles;
  let server: ServerProcess;
  let base: string;
  let rsaKey: KeyObject;
  const secrets: string[] = [...Object.values(PASSWORDS), KEY_PASSPHRASE, SECRET];
  const passwordFile = () => join(tls.dir, 'password.db');

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = httpsRequest(`${base}${path}`, { method, headers, ca: tls.ca }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            text,
            body: text === '' || !/json/.test(response.headers['content-type'] ?? '') ? {} : (JSON.parse(text) as Answer['body']),
          }),
        );
      });
      request.on('error', reject);
      request.end(body);
    });

  const token = async (
    claims: Record<string, unknown>,
    options: {
      key?: KeyObject | Uint8Array;
      alg?: string;
      expiresIn?: string;
      notBefore?: string;
      audience?: string;
      issuer?: string;
    } = {},
  ) => {
    let jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: options.alg ?? 'RS256' })
      .setIssuedAt()
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setExpirationTime(options.expiresIn ?? '10m');
    if (options.notBefore !== undefined) jwt = jwt.setNotBefore(options.notBefore);
    const signed = await jwt.sign(options.key ?? rsaKey);
    secrets.push(signed);
    return signed;
  };

  before(async () => {
    tls = makeTlsFiles();
    writePasswordFile(passwordFile(), PASSWORDS);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    rsaKey = rsa.privateKey;
    writeFileSync(join(tls.dir, 'jwt.pem'), rsa.publicKey.export({ type: 'spki', format: 'pem' }));
    server = await ServerProcess.start(
      [
        '--https-enabled',
        'true',
        '--https-port',
        '0',
        '--https-certificate-file',
        tls.chainFile,
        '--https-key-file',
        tls.encryptedKeyFile,
        '--authentication-types',
        'PASSWORD,JWT',
        '--password-file',
        passwordFile(),
        '--password-refresh-period',
        '100ms',
        '--jwt-key-file',
        join(tls.dir, 'jwt.pem'),
        '--jwt-required-issuer',
        ISSUER,
        '--jwt-required-audience',
        AUDIENCE,
        '--admin-users',
        'admin',
        '--log-level',
        'debug',
      ],
      { ENGINE_SHARED_SECRET: SECRET, ENGINE_HTTP_HTTPS_KEY_PASSPHRASE: KEY_PASSPHRASE },
    );
    base = `https://127.0.0.1:${server.port}`;
  });

  after(async () => {
    await server?.stop();
    const logs = JSON.stringify(server?.logs ?? []) + (server?.stderr.join('') ?? '');
    tls?.remove();
    // Nothing the clients sent as a secret, nor the server's own secrets, is in the logs.
    for (const secret of secrets) expect(logs.includes(secret), `a secret in the logs: ${secret.slice(0, 12)}...`).to.equal(false);
    for (const password of Object.values(PASSWORDS)) expect(logs).not.to.include(Buffer.from(password).toString('base64').slice(0, 12));
  });

  const expectRefused = (answer: Answer, status: number, message: RegExp, errorName?: string) => {
    expect(answer.status, answer.text).to.equal(status);
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(answer.body.error?.message).to.match(message);
    if (errorName !== undefined) expect(answer.body.error?.errorName).to.equal(errorName);
  };

  describe('what works', () => {
    it('serves /v1/info, /v1/info/state and /v1/status without credentials, and closes the plain HTTP port', async () => {
      expect((await call('GET', '/v1/info')).body.coordinator).to.equal(true);
      expect((await call('GET', '/v1/info/state')).body).to.equal('ACTIVE');
      expect((await call('GET', '/v1/status')).status).to.equal(200);
      const listening = server.logs.find((l) => l.msg === 'listening')!;
      expect(listening.httpPort).to.equal(undefined);
      expect(listening.uri).to.equal(base);
    });

    it('runs a query for trino-client with BasicAuth, as the authenticated user', async () => {
      const trino = Trino.create({
        server: base,
        catalog: 'tpch',
        schema: 'tiny',
        auth: new BasicAuth('alice', PASSWORDS.alice),
        ssl: { ca: tls.ca },
      });
      const rows: unknown[][] = [];
      for await (const result of await trino.query('SELECT current_user, count(*) FROM nation')) rows.push(...(result.data ?? []));
      expect(rows).to.deep.equal([['alice', 25]]);
    });

    it('runs a query for trino-client with a bearer JWT in extraHeaders', async () => {
      const jwt = await token({ sub: 'bob' });
      const trino = Trino.create({
        server: base,
        catalog: 'tpch',
        schema: 'tiny',
        extraHeaders: { Authorization: `Bearer ${jwt}` },
        ssl: { ca: tls.ca },
      });
      const rows: unknown[][] = [];
      for await (const result of await trino.query('SELECT current_user')) rows.push(...(result.data ?? []));
      expect(rows).to.deep.equal([['bob']]);
    });

    it('runs a query for presto-client with basic_auth over https', async () => {
      const client = new PrestoClient({
        host: '127.0.0.1',
        port: server.port,
        user: 'carol',
        catalog: 'tpch',
        schema: 'tiny',
        ssl: { ca: tls.ca },
        basic_auth: { user: 'carol', password: PASSWORDS.carol },
        engine: 'trino',
        checkInterval: 10,
      });
      const rows = await new Promise<unknown[][]>((resolve, reject) => {
        const data: unknown[][] = [];
        client.execute({
          query: 'SELECT current_user',
          data: (_e, chunk) => data.push(...chunk),
          success: () => resolve(data),
          error: (e) => reject(new Error(e.message)),
        });
      });
      expect(rows).to.deep.equal([['carol']]);
    });

    it('answers curl with -u over https checked against the CA', function () {
      let version: string;
      try {
        version = execFileSync('curl', ['--version'], { encoding: 'utf8' });
      } catch {
        this.skip();
      }
      expect(version!).to.match(/^curl/);
      const ok = execFileSync(
        'curl',
        [
          '-sS',
          '--cacert',
          tls.caFile,
          '-u',
          `dave:${PASSWORDS.dave}`,
          '-H',
          'X-Trino-Catalog: tpch',
          '--data',
          'SELECT 1',
          `${base}/v1/statement`,
        ],
        { encoding: 'utf8' },
      );
      expect(JSON.parse(ok).nextUri).to.match(/^https:\/\/127\.0\.0\.1:/);
      const refused = execFileSync(
        'curl',
        ['-sS', '--cacert', tls.caFile, '-u', 'dave:wrong', '-o', '/dev/null', '-w', '%{http_code}', `${base}/v1/query`],
        { encoding: 'utf8' },
      );
      expect(refused).to.equal('401');
    });

    it('runs the engine CLI with --password from the environment, --access-token, --ca-file and --insecure', async () => {
      const sql = ['sql', '--server', base, '--execute', 'SELECT current_user'];
      const withPassword = await startEngine([...sql, '--user', 'alice', '--password', '--ca-file', tls.caFile], {
        ENGINE_PASSWORD: PASSWORDS.alice,
      }).done;
      expect(withPassword.stdout, withPassword.stderr).to.equal('"alice"\n');
      const withToken = await startEngine([...sql, '--access-token', await token({ sub: 'bob' }), '--ca-file', tls.caFile]).done;
      expect(withToken.stdout, withToken.stderr).to.equal('"bob"\n');
      const insecure = await startEngine([...sql, '--user', 'carol', '--password', '--insecure'], { ENGINE_PASSWORD: PASSWORDS.carol })
        .done;
      expect(insecure.stdout, insecure.stderr).to.equal('"carol"\n');
      const untrusted = await startEngine([...sql, '--user', 'carol', '--password'], { ENGINE_PASSWORD: PASSWORDS.carol }).done;
      expect(untrusted.code).to.equal(1);
      expect(untrusted.stderr).to.match(/certificate/i);
      const wrong = await startEngine([...sql, '--user', 'carol', '--password', '--ca-file', tls.caFile], { ENGINE_PASSWORD: 'not it' })
        .done;
      expect(wrong.code).to.equal(1);
      expect(wrong.stderr).to.include('401 Unauthorized: Access Denied: Invalid credentials');
      const noVariable = await startEngine([...sql, '--user', 'carol', '--password', '--ca-file', tls.caFile], {
        ENGINE_PASSWORD: '',
        TRINO_PASSWORD: '',
      }).done;
      expect(noVariable.stderr).to.include('ENGINE_PASSWORD or TRINO_PASSWORD');
    });

    it("runs engine node state over HTTPS: --local from the node's environment, --server with --ca-file, signing the move with the shared secret", async () => {
      const nodeEnv = {
        ENGINE_HTTP_HTTPS_ENABLED: 'true',
        ENGINE_INTERNAL_COMMUNICATION_CA_FILE: tls.caFile,
        ENGINE_SHARED_SECRET: SECRET,
      };
      const local = await startEngine(['node', 'state', '--local', '--port', String(server.port), 'ACTIVE'], nodeEnv).done;
      expect(local.stdout, local.stderr).to.equal('ACTIVE\n');
      const remote = await startEngine(['node', 'state', '--server', base, '--ca-file', tls.caFile], { ENGINE_SHARED_SECRET: SECRET }).done;
      expect(remote.stdout, remote.stderr).to.equal('ACTIVE\n');
      const untrusted = await startEngine(['node', 'state', '--server', base], { ENGINE_SHARED_SECRET: SECRET }).done;
      expect(untrusted.code).to.equal(1);
      expect(untrusted.stderr).to.match(/certificate/i);
    });

    it('lets an admin user change the node state with credentials (a GET shows it)', async () => {
      const answer = await call(
        'PUT',
        '/v1/info/state',
        { Authorization: basic('admin', PASSWORDS.admin), 'Content-Type': 'application/json' },
        '"ACTIVE"',
      );
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body).to.equal('ACTIVE');
    });
  });

  describe('web interface', () => {
    const login = (body: unknown, contentType = 'application/json') =>
      call('POST', '/ui/api/login', { 'Content-Type': contentType }, JSON.stringify(body));

    it('serves its page without credentials, and its JSON endpoints answer 401 asking for a password', async () => {
      const root = await call('GET', '/');
      expect(root.status).to.equal(302);
      expect(root.headers.location).to.equal('/ui/');
      expect((await call('GET', '/ui/')).status).to.equal(200);
      expectRefused(await call('GET', '/ui/api/session'), 401, /Sign in/, 'PASSWORD_LOGIN_REQUIRED');
      expectRefused(await call('GET', '/ui/api/queries'), 401, /Sign in/, 'PASSWORD_LOGIN_REQUIRED');
      // The name-only cookie of the interface without authentication counts for nothing, however the path is spelled.
      expectRefused(await call('GET', '/ui/api/session', { Cookie: 'engine_ui_user=admin' }), 401, /Sign in/, 'PASSWORD_LOGIN_REQUIRED');
      expectRefused(await call('GET', '/UI/API/Session', { Cookie: 'engine_ui_user=admin' }), 401, /Sign in/, 'PASSWORD_LOGIN_REQUIRED');
      expectRefused(await call('DELETE', '/ui/api/queries/20260101_000000_00000_aaaaa'), 401, /Sign in/);
      expectRefused(await login({ user: 'alice' }), 401, /user name and password/, 'PASSWORD_LOGIN_REQUIRED');
      expectRefused(await login({ user: 'alice', password: 'guess' }), 401, /Invalid credentials/, 'AUTHENTICATION_FAILED');
      // A form another site posts cannot say application/json.
      expectRefused(await login({ user: 'alice', password: PASSWORDS.alice }, 'text/plain'), 415, /application\/json/);
    });

    it('signs in with a password into an HttpOnly, Secure, SameSite cookie holding a signed token; a forged one is refused; logout clears it', async () => {
      const signedIn = await login({ user: 'admin', password: PASSWORDS.admin });
      expect(signedIn.status, signedIn.text).to.equal(200);
      expect(signedIn.body).to.deep.equal({ user: 'admin', admin: true });
      const setCookie = String(signedIn.headers['set-cookie']);
      expect(setCookie).to.match(/^engine_ui_token=[\w-]+\.[\w-]+\.[\w-]+; Path=\/ui; HttpOnly; Secure; SameSite=Strict; Max-Age=1800$/);
      const cookie = setCookie.split(';')[0]!;
      secrets.push(cookie.slice('engine_ui_token='.length));
      expect((await call('GET', '/ui/api/session', { Cookie: cookie })).body).to.deep.equal({ user: 'admin', admin: true });
      const [header, , signature] = cookie.slice('engine_ui_token='.length).split('.');
      const forged = `engine_ui_token=${header}.${Buffer.from(JSON.stringify({ sub: 'admin', iat: 1, exp: 4_000_000_000 })).toString('base64url')}.${signature}`;
      expectRefused(await call('GET', '/ui/api/session', { Cookie: forged }), 401, /Sign in/);
      // The cookie alone does not move a node: the move must say application/json, which a form cannot.
      const move = await call('PUT', '/ui/api/nodes/any/state', { Cookie: cookie, 'Content-Type': 'text/plain' }, '"SHUTTING_DOWN"');
      expectRefused(move, 415, /application\/json/);
      expect((await call('GET', '/v1/info/state')).body).to.equal('ACTIVE');
      const out = await call('POST', '/ui/api/logout', { Cookie: cookie, 'Content-Type': 'application/json' }, '{}');
      expect(out.status).to.equal(204);
      expect(String(out.headers['set-cookie'])).to.include('engine_ui_token=; Path=/ui; HttpOnly; Secure; SameSite=Strict; Max-Age=0');
    });
  });

  describe('bad input', () => {
    const statement = (headers: Record<string, string>) =>
      call('POST', '/v1/statement', { 'X-Trino-Catalog': 'tpch', ...headers }, 'SELECT 1');

    it('no credentials: 401 with a challenge for each type', async () => {
      const answer = await statement({});
      expectRefused(answer, 401, /credentials are required \(PASSWORD or JWT\)/, 'AUTHENTICATION_FAILED');
      expect(answer.headers['www-authenticate']).to.equal('Basic realm="Engine", Bearer realm="Engine"');
    });

    it('wrong password and unknown user: the same 401, not telling which', async () => {
      const wrong = await statement({ Authorization: basic('alice', 'guess') });
      const unknown = await statement({ Authorization: basic('mallory', 'guess') });
      expectRefused(wrong, 401, /^Access Denied: Invalid credentials$/);
      expect(unknown.body).to.deep.equal(wrong.body);
    });

    const malformed: Array<[string, string, RegExp]> = [
      ['Basic credentials that are not base64', 'Basic !!!', /not base64/],
      ['Basic credentials without a colon', `Basic ${Buffer.from('alice').toString('base64')}`, /expected user:password/],
      ['Basic credentials with an empty password', `Basic ${Buffer.from('alice:').toString('base64')}`, /password is empty/],
      ['a scheme alone', 'Basic', /malformed Authorization header/],
      ['an unknown scheme', 'Digest abc', /Digest credentials are not accepted/],
      ['a bearer token that is not a JWT', 'Bearer not-a-jwt', /invalid JWT: it is malformed/],
    ];
    for (const [what, authorization, message] of malformed) {
      it(`${what}: 401`, async () =>
        expectRefused(await statement({ Authorization: authorization }), 401, message, 'AUTHENTICATION_FAILED'));
    }

    it('an expired JWT, one not valid yet, and one without its principal claim: 401', async () => {
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'bob' }, { expiresIn: '-1h' })}` }),
        401,
        /it has expired/,
      );
      expectRefused(await statement({ Authorization: `Bearer ${await token({ sub: 'bob' }, { notBefore: '1h' })}` }), 401, /not valid yet/);
      expectRefused(await statement({ Authorization: `Bearer ${await token({ name: 'bob' })}` }), 401, /no principal in its 'sub' claim/);
    });

    it('a JWT with alg none, or signed with another key, another algorithm or the public key as an HMAC secret: 401', async () => {
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'admin', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url')}.`;
      expectRefused(await statement({ Authorization: `Bearer ${unsigned}` }), 401, /invalid JWT/);
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'admin' }, { key: other })}` }),
        401,
        /signature does not match/,
      );
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'admin' }, { key: ec, alg: 'ES256' })}` }),
        401,
        /algorithm is not accepted/,
      );
      const publicPem = new TextEncoder().encode(createPublicKey(rsaKey).export({ type: 'spki', format: 'pem' }).toString());
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'admin' }, { key: publicPem, alg: 'HS256' })}` }),
        401,
        /algorithm is not accepted/,
      );
    });

    it('a JWT for another audience or from another issuer: 401', async () => {
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'bob' }, { audience: 'another-service' })}` }),
        401,
        /claim 'aud'/,
      );
      expectRefused(
        await statement({ Authorization: `Bearer ${await token({ sub: 'bob' }, { issuer: 'https://elsewhere' })}` }),
        401,
        /claim 'iss'/,
      );
    });

    it('huge headers: 431 with a JSON error', async () => {
      const answer = await statement({ Authorization: `Bearer ${'a'.repeat(20_000)}` });
      expectRefused(answer, 431, /too large/, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    });

    it('a long Authorization header under the header limit: 401', async () => {
      expectRefused(await statement({ Authorization: `Bearer ${'a'.repeat(10_000)}` }), 401, /longer than 8192 characters/);
    });

    it('plain HTTP to the HTTPS port: 400 with a JSON error', async () => {
      const answer = await new Promise<Answer>((resolve, reject) => {
        httpRequest(`http://127.0.0.1:${server.port}/v1/info`, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (c: string) => (text += c));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, text, body: JSON.parse(text) as Answer['body'] }),
          );
        })
          .on('error', reject)
          .end();
      });
      expectRefused(answer, 400, /plain HTTP request was sent/, 'HTTP_TO_HTTPS_PORT');
    });

    it('TLS 1.1 and a garbage handshake (client certificate garbage) are refused; the server keeps serving', async () => {
      const old = tlsConnect({ host: '127.0.0.1', port: server.port, ca: tls.ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1' });
      const [error] = (await once(old, 'error')) as [Error & { code?: string }];
      expect(error.code ?? error.message).to.match(/VERSION|PROTOCOL|ECONNRESET/i);
      const garbage = netConnect({ host: '127.0.0.1', port: server.port });
      await once(garbage, 'connect');
      garbage.write(Buffer.concat([Buffer.from([0x16, 0x03, 0x03, 0x00, 0x40]), Buffer.alloc(64, 0xab)]));
      garbage.on('error', () => undefined);
      // Read the server's alert, so that its close is seen.
      garbage.resume();
      await once(garbage, 'close');
      expect((await call('GET', '/v1/info')).status).to.equal(200);
    });

    it('impersonating another user without a rule: 403', async () => {
      const answer = await statement({ Authorization: basic('alice', PASSWORDS.alice), 'X-Trino-User': 'bob' });
      expectRefused(answer, 403, /^Access Denied: User alice cannot impersonate user bob$/, 'PERMISSION_DENIED');
    });

    it('GET /v1/node and /v1/node/failed: the internal token (the operator) or credentials; 401 with neither or a forged token', async () => {
      const iat = Math.floor(Date.now() / 1000);
      const internal = `Bearer ${signToken(deriveKey(SECRET), { sub: 'engine-operator', iat, exp: iat + 60 })}`;
      const forged = `Bearer ${signToken(deriveKey('another secret'), { sub: 'engine-operator', iat, exp: iat + 60 })}`;
      for (const path of ['/v1/node', '/v1/node/failed']) {
        const asOperator = await call('GET', path, { Authorization: internal });
        expect(asOperator.status, asOperator.text).to.equal(200);
        expect(JSON.parse(asOperator.text)).to.be.an('array');
        expect((await call('GET', path, { Authorization: basic('alice', PASSWORDS.alice) })).status).to.equal(200);
        expectRefused(await call('GET', path), 401, /credentials are required/);
        expect((await call('GET', path, { Authorization: forged })).status).to.equal(401);
      }
    });

    it('PUT /v1/info/state: 401 without credentials, 403 for a user who is not an admin', async () => {
      const put = (headers: Record<string, string>) =>
        call('PUT', '/v1/info/state', { 'Content-Type': 'application/json', ...headers }, '"ISOLATED"');
      expectRefused(await put({}), 401, /credentials are required/);
      expectRefused(
        await put({ Authorization: basic('alice', PASSWORDS.alice) }),
        403,
        /may not change the node state/,
        'PERMISSION_DENIED',
      );
      expect((await call('GET', '/v1/info/state')).body).to.equal('ACTIVE');
    });

    it('many wrong passwords for one user at once: 429 beyond a few in progress, while another user gets in', async () => {
      // Three failures in a row make the next ones wait before they are answered.
      for (let i = 0; i < 3; i++) expect((await statement({ Authorization: basic('dave', `first guess ${i}`) })).status).to.equal(401);
      const guesses = Array.from({ length: 12 }, (_, i) => statement({ Authorization: basic('dave', `guess ${i}`) }));
      const other = await statement({ Authorization: basic('carol', PASSWORDS.carol) });
      expect(other.status, other.text).to.equal(200);
      const answers = await Promise.all(guesses);
      const statuses = answers.map((a) => a.status);
      expect(statuses).to.include(401);
      expect(statuses).to.include(429);
      expectRefused(
        answers.find((a) => a.status === 429)!,
        429,
        /Too many password checks in progress for this user/,
        'TOO_MANY_AUTHENTICATION_ATTEMPTS',
      );
    });

    it('a password file broken on reload keeps the last good one; a revoked user is refused after the refresh period', async () => {
      const alice = () => statement({ Authorization: basic('alice', PASSWORDS.alice) });
      expect((await alice()).status).to.equal(200);
      writeFileSync(passwordFile(), 'this line has no colon\n');
      // The file is read again on the first check after the refresh period.
      await until(
        async () =>
          (await alice()).status === 200 && server.logs.some((l) => l.msg === 'password file not reloaded: keeping the last good one'),
      );
      const { alice: _revoked, ...others } = PASSWORDS;
      writePasswordFile(passwordFile(), others);
      await until(async () => (await alice()).status === 401);
      expectRefused(await alice(), 401, /Invalid credentials/);
      expect((await statement({ Authorization: basic('bob', PASSWORDS.bob) })).status).to.equal(200);
      const log = server.logs.find((l) => l.msg === 'password file not reloaded: keeping the last good one')!;
      expect(log.reason).to.match(/line 1: expected user:hash/);
    });
  });
});

/** Waits for a condition that the server reaches after its refresh period (no time is asserted). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
