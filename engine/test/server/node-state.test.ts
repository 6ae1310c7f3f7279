import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

async function putState(base: string, body: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/v1/info/state`, { method: 'PUT', body, headers: { 'Content-Type': 'application/json' } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function state(base: string): Promise<string> {
  return (await getJson<string>(`${base}/v1/info/state`)).body;
}

/** A query that stays active until its client reads its million rows. */
async function openQuery(base: string): Promise<Exchange> {
  const first = await postStatement(base, MILLION_ROWS_SQL);
  expect(first.status).to.equal(200);
  return first;
}

async function waitForState(base: string, expected: string): Promise<void> {
  while ((await state(base)) !== expected) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('node state over HTTP', function () {
  it('isolates gracefully: ISOLATING refuses new queries, finishes running ones, then becomes ISOLATED; ACTIVE restores', async () => {
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      const open = await openQuery(base);
      expect(await putState(base, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATING' });
      expect(await state(base)).to.equal('ISOLATING');
      const refused = await postStatement(base, 'SELECT 1');
      expect(refused.status).to.equal(503);
      expect((refused.body as unknown as { error: { message: string } }).error.message).to.equal('Server is ISOLATING and does not accept new queries');
      const run = await follow(open);
      expect(run.rows).to.have.length(1_000_000);
      await waitForState(base, 'ISOLATED');
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
      expect(await state(server.uri)).to.equal('ACTIVE');
      expect(await putState(server.uri, '"ACTIVE"')).to.deep.equal({ status: 200, body: 'ACTIVE' });
    } finally {
      await server.stop();
    }
  });

  it('shuts down gracefully: SHUTTING_DOWN is final, running queries finish, then the process exits', async () => {
    const server = await ServerProcess.start();
    const base = server.uri;
    const open = await openQuery(base);
    expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
    for (const target of ['"ACTIVE"', '"ISOLATING"', '"ISOLATED"']) expect((await putState(base, target)).status).to.equal(400);
    expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
    expect((await postStatement(base, 'SELECT 1')).status).to.equal(503);
    const run = await follow(open);
    expect(run.final.stats.state).to.equal('FINISHED');
    expect(run.rows).to.have.length(1_000_000);
    expect(await server.waitForExit()).to.equal(0);
    expect(server.logs.some((l) => l.msg === 'server stopped')).to.equal(true);
  });

  it('isolates immediately when no query runs', async () => {
    const server = await ServerProcess.start();
    try {
      expect(await putState(server.uri, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATED' });
      expect(await state(server.uri)).to.equal('ISOLATED');
    } finally {
      await server.stop();
    }
  });
});
