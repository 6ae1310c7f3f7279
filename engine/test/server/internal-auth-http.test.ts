// Internal authentication over HTTP, on a real server process: with a shared secret the internal
// endpoints answer 401 in JSON without a valid bearer token, and work with one; client endpoints stay open.

import { expect } from 'chai';
import { buildAnnouncement } from '../../src/internode/announcement.js';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { nodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { getJson, query } from '../support/statement-http.js';

const SECRET = 'a secret the test shares with the server 7c1e';
const ENVIRONMENT = 'auth_test';

interface ErrorAnswer {
  error: { message: string; errorName: string };
}

describe('internal authentication over HTTP', function () {
  this.timeout(30_000);
  let server: ServerProcess;
  /** Stands for another node of the cluster: same secret. */
  const peer = new InternalAuthenticator(SECRET, 'peer');

  before(async () => {
    server = await ServerProcess.start(['--role', 'coordinator', '--environment', ENVIRONMENT, '--log-level', 'debug'], {
      ENGINE_SHARED_SECRET: SECRET,
    });
  });

  after(async () => {
    await server?.stop();
  });

  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    getJson<ErrorAnswer>(`${server.uri}${path}`, { method, body, headers: { 'Content-Type': 'application/json', ...headers } });

  it('answers 401 with a JSON error and WWW-Authenticate: Bearer on every internal endpoint without a token', async () => {
    const announcement = JSON.stringify(
      buildAnnouncement({ nodeId: 'intruder', environment: ENVIRONMENT, uri: 'http://127.0.0.1:1', version: '1', coordinator: false }),
    );
    const requests: [string, string, string?][] = [
      ['GET', '/v1/task'],
      ['GET', '/v1/task/x'],
      ['POST', '/v1/task/q.1.0', '{}'],
      ['DELETE', '/v1/task/q.1.0'],
      ['GET', '/v1/task/q.1.0/results/0/0'],
      ['DELETE', '/v1/task/q.1.0/results/0'],
      ['PUT', '/v1/announcement/intruder', announcement],
      ['DELETE', '/v1/announcement/intruder'],
      ['PUT', '/v1/info/state', '"SHUTTING_DOWN"'],
      // The router matches paths case-insensitively and ignores a trailing slash: so does the check.
      ['PUT', '/V1/INFO/STATE/', '"SHUTTING_DOWN"'],
      ['GET', '/V1/Task/x'],
    ];
    for (const [method, path, body] of requests) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path}`).to.equal(401);
      expect(answer.headers.get('www-authenticate'), `${method} ${path}`).to.equal('Bearer realm="engine-internal"');
      expect(answer.headers.get('content-type')).to.match(/^application\/json/);
      expect(answer.body, `${method} ${path}`).to.deep.equal({
        error: {
          errorName: 'UNAUTHORIZED',
          message:
            "This endpoint is internal: a request needs a bearer token signed with the cluster's shared secret (internal-communication.shared-secret)",
        },
      });
    }
    // Nothing happened: the node did not shut down, the intruder did not join.
    expect(await nodeState(server.uri)).to.equal('ACTIVE');
    expect((await getJson<NodeEntry[]>(`${server.uri}/v1/node`)).body).to.deep.equal([]);
  });

  it('refuses a token signed with another secret, or expired, saying why', async () => {
    const stranger = new InternalAuthenticator('guessed secret', 'stranger');
    const forged = await call('PUT', '/v1/info/state', '"ISOLATING"', { ...stranger.authorizationHeader() });
    expect(forged.status).to.equal(401);
    expect(forged.body.error.message).to.equal("Invalid internal bearer token: its signature does not match this node's shared secret");
    const stale = new InternalAuthenticator(SECRET, 'peer', () => Date.now() - 10 * 60_000);
    const expired = await call('PUT', '/v1/info/state', '"ISOLATING"', { ...stale.authorizationHeader() });
    expect(expired.status).to.equal(401);
    expect(expired.body.error.message).to.match(/^Invalid internal bearer token: it expired \d+ s ago/);
    expect(await nodeState(server.uri)).to.equal('ACTIVE');
  });

  it('serves the internal endpoints to a request with a valid token', async () => {
    const isolating = await call('PUT', '/v1/info/state', '"ISOLATING"', { ...peer.authorizationHeader() });
    expect(isolating.status).to.equal(200);
    // No query runs: isolating is over at once.
    expect(isolating.body).to.equal('ISOLATED');
    const active = await call('PUT', '/v1/info/state', '"ACTIVE"', { ...peer.authorizationHeader() });
    expect(active.body).to.equal('ACTIVE');

    const announcement = JSON.stringify(
      buildAnnouncement({ nodeId: 'peer', environment: ENVIRONMENT, uri: 'http://127.0.0.1:1', version: '1', coordinator: false }),
    );
    expect((await call('PUT', '/v1/announcement/peer', announcement, { ...peer.authorizationHeader() })).status).to.equal(202);
    expect((await getJson<NodeEntry[]>(`${server.uri}/v1/node`)).body.map((e) => e.uri)).to.deep.equal(['http://127.0.0.1:1']);
    expect((await call('DELETE', '/v1/announcement/peer', undefined, { ...peer.authorizationHeader() })).status).to.equal(204);

    // The task resource is past the check: whatever it answers, it is not a refusal of the token.
    const task = await call('GET', '/v1/task/x', undefined, { ...peer.authorizationHeader() });
    expect(task.status).to.not.equal(401);
  });

  it('keeps the client endpoints open', async () => {
    expect(await query(server.uri, 'SELECT 1 + 1')).to.deep.equal([[2]]);
    for (const path of ['/v1/info', '/v1/info/state', '/v1/status', '/v1/node', '/v1/node/failed', '/v1/query']) {
      expect((await call('GET', path)).status, path).to.equal(200);
    }
  });

  it('writes neither the secret nor a token to its log', () => {
    // The server logs at debug level, so every refused request above left a line.
    const output = JSON.stringify(server.logs) + server.stderr.join('');
    expect(server.logs.filter((l) => l.msg === 'request refused' && l.status === 401)).to.have.length.above(10);
    expect(output).to.not.contain(SECRET);
    expect(output).to.not.contain(peer.authorizationHeader().Authorization!.slice('Bearer '.length));
  });

  it('without a secret refuses a token it cannot check, and serves requests without one', async () => {
    const open = await ServerProcess.start();
    try {
      const put = (headers: Record<string, string>) =>
        getJson<ErrorAnswer | string>(`${open.uri}/v1/info/state`, {
          method: 'PUT',
          body: '"ACTIVE"',
          headers: { 'Content-Type': 'application/json', ...headers },
        });
      const refused = await put({ ...peer.authorizationHeader() });
      expect(refused.status).to.equal(401);
      expect(refused.body).to.deep.equal({
        error: {
          errorName: 'UNAUTHORIZED',
          message:
            'This node has no shared secret (internal-communication.shared-secret) but the request carries an internal bearer token: give every node of the cluster the same secret, or none',
        },
      });
      expect(await put({})).to.deep.include({ status: 200, body: 'ACTIVE' });
    } finally {
      await open.stop();
    }
  });
});
