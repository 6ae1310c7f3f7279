// Impersonation on an in-process server whose plain HTTP port stays open
// (authentication.allowInsecureOverHttp) and still asks for credentials: the principal is the user
// unless the user header names another, which the rules file's impersonation rules must allow.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config-loader.js';
import { createLogger } from '../../src/log/logger.js';
import { startServer, type RunningServer } from '../../src/server/engine-server.js';
import { getJson, query } from '../support/statement-http.js';
import { basic, writePasswordFile } from '../support/tls-fixtures.js';

describe('impersonation', function () {
  this.timeout(30_000);
  let dir: string;
  let server: RunningServer;
  let base: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-impersonation-'));
    writePasswordFile(join(dir, 'password.db'), { admin: 'admin pw', alice: 'alice pw' });
    writeFileSync(join(dir, 'rules.json'), JSON.stringify({ catalogs: [{ allow: 'all' }] }));
    const config = loadConfig({
      env: { ENGINE_SHARED_SECRET: 'impersonation test secret' },
      flags: {
        host: '127.0.0.1',
        port: '0',
        'authentication-types': 'PASSWORD',
        'password-file': join(dir, 'password.db'),
        'authentication-allow-insecure-over-http': 'true',
        catalogs: 'tpch=tpch',
        // Read again at every check, so that the rule added below counts at once.
        'security-rules-file': join(dir, 'rules.json'),
        'security-rules-refresh-period': '0s',
      },
    });
    server = await startServer(config, createLogger('silent'));
    base = server.uri;
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks for credentials on the open plain HTTP port', async () => {
    expect(base).to.match(/^http:\/\//);
    const answer = await getJson<{ error: { errorName: string } }>(`${base}/v1/query`);
    expect(answer.status).to.equal(401);
    expect(answer.body.error.errorName).to.equal('AUTHENTICATION_FAILED');
  });

  it('runs as the principal without a user header, refuses another user by default, and runs as them once a rule allows it', async () => {
    const asAdmin = { Authorization: basic('admin', 'admin pw') };
    expect(await query(base, 'SELECT current_user', asAdmin)).to.deep.equal([['admin']]);
    const refused = await getJson<{ error: { message: string } }>(`${base}/v1/statement`, {
      method: 'POST',
      body: 'SELECT current_user',
      headers: { ...asAdmin, 'X-Presto-User': 'alice' },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.message).to.equal('Access Denied: User admin cannot impersonate user alice');
    writeFileSync(
      join(dir, 'rules.json'),
      JSON.stringify({ catalogs: [{ allow: 'all' }], impersonation: [{ original_user: 'admin', new_user: '.*' }] }),
    );
    expect(await query(base, 'SELECT current_user', { ...asAdmin, 'X-Presto-User': 'alice' })).to.deep.equal([['alice']]);
    expect(
      (
        await getJson(`${base}/v1/statement`, {
          method: 'POST',
          body: 'SELECT 1',
          headers: { Authorization: basic('alice', 'alice pw'), 'X-Engine-User': 'admin' },
        })
      ).status,
    ).to.equal(403);
  });
});
