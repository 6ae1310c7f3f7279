import { expect } from 'chai';
import { expectGracefulExit, nodeState, openQuery, waitForNodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, postStatement, query, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

async function putState(base: string, body: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/v1/info/state`, { method: 'PUT', body, headers: { 'Content-Type': 'application/json' } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** A query that stays active until its client reads its million rows. */
function openMillionRows(base: string): Promise<Exchange> {
  return openQuery(base, MILLION_ROWS_SQL);
}

describe('node state over HTTP', function () {
  it('isolates gracefully: ISOLATING refuses new queries, finishes running ones, then becomes ISOLATED; ACTIVE restores', async () => {
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      const open = await openMillionRows(base);
      expect(await putState(base, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATING' });
      expect(await nodeState(base)).to.equal('ISOLATING');
      const refused = await postStatement(base, 'SELECT 1');
      expect(refused.status).to.equal(503);
      expect((refused.body as unknown as { error: { message: string } }).error.message).to.equal('Server is ISOLATING and does not accept new queries');
      const run = await follow(open);
      expect(run.rows).to.have.length(1_000_000);
      await waitForNodeState(base, 'ISOLATED');
      expect(await putState(base, '"ISOLATED"')).to.deep.equal({ status: 200, body: 'ISOLATED' });
      expect(await putState(base, '"ACTIVE"')).to.deep.equal({ status: 200, body: 'ACTIVE' });
      expect(await query(base, 'SELECT 1')).to.deep.equal([[1]]);
    } finally {
      await server.stop();
    }
  });

  it('refuses INACTIVE, unknown names and bodies that are not JSON strings with 400, changing nothing', async () => {
    const server = await ServerProcess.start();
    try {
      for (const body of ['"INACTIVE"', '"RUNNING"', '"active"', 'ACTIVE', '{"state":"ACTIVE"}', '']) {
        const response = await putState(server.uri, body);
        expect(response.status, body).to.equal(400);
        expect(response.body).to.have.nested.property('error.message').that.is.a('string');
      }
      expect(await nodeState(server.uri)).to.equal('ACTIVE');
      expect(await putState(server.uri, '"ACTIVE"')).to.deep.equal({ status: 200, body: 'ACTIVE' });
    } finally {
      await server.stop();
    }
  });

  it('shuts down gracefully: SHUTTING_DOWN is final, running queries finish, then the process exits', async () => {
    const server = await ServerProcess.start();
    const base = server.uri;
    const open = await openMillionRows(base);
    expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
    for (const target of ['"ACTIVE"', '"ISOLATING"', '"ISOLATED"']) expect((await putState(base, target)).status).to.equal(400);
    expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
    await expectGracefulExit(server, open, 1_000_000);
  });

  it('isolates immediately when no query runs', async () => {
    const server = await ServerProcess.start();
    try {
      expect(await putState(server.uri, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATED' });
      expect(await nodeState(server.uri)).to.equal('ISOLATED');
    } finally {
      await server.stop();
    }
  });
});
