// The web interface's JSON endpoints are no back door (issue 18): without signing in they answer 401;
// a user sees and kills only their own queries (another user's is the 404 of an unknown query, as on
// /v1/query); only admin users move nodes, anyone else gets a 403 with a JSON error; requests that
// change something must be JSON. And the page and its files are served by the coordinator itself.

import { expect } from 'chai';
import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { ServerProcess } from '../support/server-process.js';
import { postStatement, runStatement } from '../support/statement-http.js';
import { UiClient, uiRequest } from '../support/ui-client.js';

interface ListPage {
  total: number;
  queries: Array<{ queryId: string; user: string; state: string }>;
}

describe('the web interface: access and files', function () {
  this.timeout(60_000);
  let server: ServerProcess;
  let alice: UiClient;
  let bob: UiClient;
  let admin: UiClient;
  let aliceQuery: string;
  let bobQuery: string;

  before(async () => {
    server = await ServerProcess.start(['--admin-users', 'admin']);
    aliceQuery = (await runStatement(server.uri, 'SELECT 1', { 'X-Engine-User': 'alice' })).final.id;
    bobQuery = (await runStatement(server.uri, 'SELECT 2', { 'X-Engine-User': 'bob' })).final.id;
    [alice, bob, admin] = await Promise.all(['alice', 'bob', 'admin'].map((u) => UiClient.signIn(server.uri, u)));
  });

  after(async () => {
    await server?.stop();
  });

  it('answers 401 LOGIN_REQUIRED without a signed-in user, and a bad user name 400', async () => {
    for (const path of ['/ui/api/queries', `/ui/api/queries/${aliceQuery}`, '/ui/api/cluster', '/ui/api/nodes', '/ui/api/session']) {
      const answer = await uiRequest<{ error: { errorName: string } }>(`${server.uri}${path}`, 'GET', {});
      expect(answer.status, path).to.equal(401);
      expect(answer.body.error.errorName).to.equal('LOGIN_REQUIRED');
    }
    // The X-Engine-User header is not a way in.
    expect((await uiRequest(`${server.uri}/ui/api/queries`, 'GET', { 'X-Engine-User': 'admin' })).status).to.equal(401);
    expect(
      (await uiRequest(`${server.uri}/ui/api/login`, 'POST', { 'Content-Type': 'application/json' }, JSON.stringify({ user: '' }))).status,
    ).to.equal(400);
  });

  it('sets an HttpOnly, SameSite=Strict cookie and knows who is an admin', async () => {
    const response = await fetch(`${server.uri}/ui/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'carol' }),
    });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie)
      .to.match(/^engine_ui_user=carol;/)
      .and.to.include('HttpOnly')
      .and.to.include('SameSite=Strict');
    expect((await admin.get('/ui/api/session')).body).to.deep.equal({ user: 'admin', admin: true });
    expect((await alice.get('/ui/api/session')).body).to.deep.equal({ user: 'alice', admin: false });
  });

  it("lists a user's own queries only, and every query for an admin", async () => {
    const own = (await alice.get<ListPage>('/ui/api/queries')).body;
    expect(own.queries.map((q) => q.queryId)).to.deep.equal([aliceQuery]);
    const all = (await admin.get<ListPage>('/ui/api/queries')).body;
    expect(all.queries.map((q) => q.queryId)).to.have.members([aliceQuery, bobQuery]);
  });

  it("answers another user's query detail with the 404 of an unknown query", async () => {
    expect((await alice.get(`/ui/api/queries/${aliceQuery}`)).status).to.equal(200);
    const other = await alice.get<{ error: { message: string } }>(`/ui/api/queries/${bobQuery}`);
    expect(other.status).to.equal(404);
    expect(other.body.error.message).to.equal(`Query not found: ${bobQuery}`);
    expect((await admin.get(`/ui/api/queries/${bobQuery}`)).status).to.equal(200);
  });

  it("kills a user's own running query, never another user's", async () => {
    const running = await postStatement(server.uri, 'SELECT count(*) FROM tpch.sf1000.lineitem', { 'X-Engine-User': 'bob' });
    const queryId = running.body.id;
    expect((await alice.request('DELETE', `/ui/api/queries/${queryId}`)).status).to.equal(404);
    expect((await bob.request('DELETE', `/ui/api/queries/${queryId}`)).status).to.equal(204);
    const detail = (await bob.get<{ state: string; errorCode: { name: string } }>(`/ui/api/queries/${queryId}`)).body;
    expect(detail.state).to.equal('FAILED');
    expect(detail.errorCode.name).to.equal('USER_CANCELED');
  });

  it('moves nodes for admin users only: anyone else gets a 403 with a JSON error', async () => {
    const nodeId = (await admin.get<Array<{ nodeId: string }>>('/ui/api/nodes')).body[0]!.nodeId;
    const refused = await alice.request<{ error: { errorName: string; message: string } }>(
      'PUT',
      `/ui/api/nodes/${nodeId}/state`,
      'ISOLATED',
    );
    expect(refused.status).to.equal(403);
    expect(refused.body.error.errorName).to.equal('PERMISSION_DENIED');
    expect((await fetch(`${server.uri}/v1/info/state`).then((r) => r.json())) as string).to.equal('ACTIVE');
    // A body that is not JSON is refused before anything happens: a form from another site cannot send JSON.
    expect((await admin.request('PUT', `/ui/api/nodes/${nodeId}/state`, 'ISOLATED', 'text/plain')).status).to.equal(415);
    expect((await admin.request('PUT', `/ui/api/nodes/${nodeId}/state`, 'NAPPING')).status).to.equal(400);
    expect((await admin.request('PUT', '/ui/api/nodes/no-such-node/state', 'ISOLATED')).status).to.equal(404);
    const moved = await admin.request<string>('PUT', `/ui/api/nodes/${nodeId}/state`, 'ISOLATED');
    expect(moved.status).to.equal(200);
    expect(moved.body).to.equal('ISOLATED');
    expect((await fetch(`${server.uri}/v1/info/state`).then((r) => r.json())) as string).to.equal('ISOLATED');
    expect((await admin.request<string>('PUT', `/ui/api/nodes/${nodeId}/state`, 'ACTIVE')).body).to.equal('ACTIVE');
  });

  it('serves the page under /ui/ for every path of the interface, with its import map; / leads there', async () => {
    const root = await fetch(`${server.uri}/`, { redirect: 'manual' });
    expect(root.status).to.equal(302);
    expect(root.headers.get('location')).to.equal('/ui/');
    for (const path of ['/ui/', '/ui/queries', `/ui/query/${aliceQuery}/plan`, '/ui/workers']) {
      const page = await fetch(`${server.uri}${path}`);
      expect(page.status, path).to.equal(200);
      const html = await page.text();
      expect(html).to.include('<script type="importmap">').and.to.include('/ui/assets/main.js');
      expect(page.headers.get('content-security-policy')).to.include("default-src 'self'");
    }
  });

  it('serves the browser code and the libraries from the installed packages, gzipped, and nothing else', async () => {
    for (const path of [
      '/ui/assets/main.js',
      '/ui/vendor/preact.mjs',
      '/ui/vendor/uplot.js',
      '/ui/vendor/dagre.mjs',
      '/ui/static/app.css',
    ]) {
      const response = await fetch(`${server.uri}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('etag'), path).to.be.a('string');
    }
    const raw = await rawGet(`${server.uri}/ui/vendor/preact.mjs`, { 'Accept-Encoding': 'gzip' });
    expect(raw.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(raw.body).toString('utf8')).to.include('export');
    for (const path of [
      '/ui/vendor/left-pad.js',
      '/ui/assets/../../package.json',
      '/ui/assets/%2e%2e/%2e%2e/package.json',
      '/ui/static/..%2f..%2fpackage.json',
    ]) {
      expect((await fetch(`${server.uri}${path}`)).status, path).to.equal(404);
    }
  });
});

/** A GET whose body is not decoded (fetch would gunzip it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
