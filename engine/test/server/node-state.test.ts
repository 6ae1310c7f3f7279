import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { NodeWorkload } from '../../src/internode/node-workload.js';
import { expectGracefulExit, nodeState, openQuery, putState, waitForNodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

/** A scan and aggregation of TPC-H sf1's 6 million lineitem rows (about a second of work), and its answer. */
const LONG_AGGREGATION = 'SELECT count(*), sum(l_quantity) FROM tpch.sf1.lineitem';
const LONG_AGGREGATION_ROWS = [[6001215, '153078795.00']];

interface StatusJson {
  state: string;
  workload: NodeWorkload;
}

async function status(base: string): Promise<StatusJson> {
  return (await getJson<StatusJson>(`${base}/v1/status`)).body;
}

/** The errorName of a refused POST /v1/statement. */
async function refusedStatement(base: string): Promise<{ status: number; errorName: string; message: string }> {
  const answer = await postStatement(base, 'SELECT 1');
  const error = (answer.body as unknown as { error: { errorName: string; message: string } }).error;
  return { status: answer.status, errorName: error.errorName, message: error.message };
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
      expect(await refusedStatement(base)).to.deep.equal({
        status: 503,
        errorName: 'NODE_ISOLATED',
        message: 'Node is ISOLATING and accepts no new queries',
      });
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

  it('runs a query it queued before ISOLATING: its tasks on this node are its own, not new work to refuse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-isolate-'));
    const groups = join(dir, 'groups.json');
    writeFileSync(
      groups,
      JSON.stringify({ rootGroups: [{ name: 'global', hardConcurrencyLimit: 1, maxQueued: 10 }], selectors: [{ group: 'global' }] }),
    );
    const server = await ServerProcess.start(['--resource-groups-config-file', groups]);
    try {
      const base = server.uri;
      const open = await openMillionRows(base);
      const queued = await postStatement(base, LONG_AGGREGATION);
      expect(queued.body.stats.state).to.equal('QUEUED');
      expect(await putState(base, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATING' });
      expect((await follow(open)).rows).to.have.length(1_000_000);
      // The queued query starts now, while the node is ISOLATING, and runs its stages as tasks here.
      const run = await follow(queued);
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal(LONG_AGGREGATION_ROWS);
      const tasks = (await getJson<{ taskId: string; state: string }[]>(`${base}/v1/task`)).body.filter((t) =>
        t.taskId.startsWith(`${queued.body.id}.`),
      );
      expect(tasks.length, 'its stages ran as tasks of this node').to.be.greaterThan(0);
      expect(tasks.every((t) => t.state === 'FINISHED' || t.state === 'CANCELED')).to.equal(true);
      await waitForNodeState(base, 'ISOLATED');
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
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

  it('becomes ISOLATED by itself once a long aggregation ends, refusing statements meanwhile; ACTIVE takes queries again', async function () {
    this.timeout(60_000);
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      const long = await openQuery(base, LONG_AGGREGATION);
      expect(await putState(base, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATING' });
      const during = await status(base);
      expect(during.state).to.equal('ISOLATING');
      expect(during.workload.runningQueries).to.equal(1);
      expect(await refusedStatement(base)).to.deep.include({ status: 503, errorName: 'NODE_ISOLATED' });
      const run = await follow(long);
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal(LONG_AGGREGATION_ROWS);
      await waitForNodeState(base, 'ISOLATED');
      expect((await status(base)).workload).to.include({ runningQueries: 0, queuedQueries: 0, queriesAwaitingClient: 0 });
      expect(await refusedStatement(base)).to.deep.equal({
        status: 503,
        errorName: 'NODE_ISOLATED',
        message: 'Node is ISOLATED and accepts no new queries',
      });
      expect(await putState(base, '"ACTIVE"')).to.deep.equal({ status: 200, body: 'ACTIVE' });
      expect(await query(base, LONG_AGGREGATION)).to.deep.equal(LONG_AGGREGATION_ROWS);
    } finally {
      await server.stop();
    }
  });

  it('drains on SIGTERM: a running aggregation finishes with its answer, new statements get SERVER_SHUTTING_DOWN, then exit 0', async function () {
    this.timeout(60_000);
    const server = await ServerProcess.start();
    const base = server.uri;
    const long = await openQuery(base, LONG_AGGREGATION);
    server.signal('SIGTERM');
    await waitForNodeState(base, 'SHUTTING_DOWN');
    expect(await refusedStatement(base)).to.deep.equal({
      status: 503,
      errorName: 'SERVER_SHUTTING_DOWN',
      message: 'Server is shutting down and accepts no new queries; the running ones finish',
    });
    const run = await follow(long);
    expect(run.rows).to.deep.equal(LONG_AGGREGATION_ROWS);
    expect(await server.waitForExit()).to.equal(0);
    expect(server.logs.filter((l) => l.msg === 'query completed').map((l) => [l.queryId, l.state])).to.deep.equal([
      [long.body.id, 'FINISHED'],
    ]);
  });

  it('names what still runs when shutdown.gracePeriod ends a PUT SHUTTING_DOWN', async () => {
    const server = await ServerProcess.start(['--shutdown-grace-period', '1s']);
    const open = await openMillionRows(server.uri);
    expect(await putState(server.uri, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
    expect(await server.waitForExit()).to.equal(0);
    const expiry = server.logs.find((l) => l.msg === 'shutting down: grace period over, failing the queries still running');
    expect(expiry?.queryIds).to.deep.equal([open.body.id]);
    expect(expiry?.workload).to.match(/^1 running query\b/);
  });

  it('stops at once on a second SIGTERM, failing the running query', async () => {
    const server = await ServerProcess.start();
    const open = await openMillionRows(server.uri);
    server.signal('SIGTERM');
    await waitForNodeState(server.uri, 'SHUTTING_DOWN');
    server.signal('SIGTERM');
    expect(await server.waitForExit()).to.equal(0);
    const completion = server.logs.find((l) => l.msg === 'query completed' && l.queryId === open.body.id);
    expect(completion?.errorName).to.equal('SERVER_SHUTTING_DOWN');
    expect(server.logs.some((l) => l.msg === 'stopping at once on a second signal')).to.equal(true);
  });
});
