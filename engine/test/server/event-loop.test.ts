// The HTTP event loop is never held for long: while heavy queries run, /v1/info and /v1/status
// answer and cancels are served; signals shut the node down gracefully, within
// shutdown.gracePeriod, and a second signal stops it at once.

import { expect } from 'chai';
import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { expectGracefulExit, openQuery, waitForNodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, query, runStatement, type StatementRun } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

/** Generous: this asserts that the server answers at all while busy, not how fast. */
const ANSWER_TIMEOUT_MILLIS = 3000;

/**
 * A first run on a fresh server: the workers' partial aggregation does not pay (about one group per
 * order), so the main thread starts over and reads every split itself; that read held the loop for
 * the whole table.
 */
const LONG_GROUP_BY = 'SELECT o_custkey, max(o_totalprice) FROM tpch.sf10.orders GROUP BY 1 ORDER BY 2 DESC LIMIT 4';

async function answer<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** Runs a statement while asking /v1/info every 100 ms, each of which must answer. */
async function runWhileAnswering(base: string, sql: string): Promise<StatementRun> {
  let done = false;
  const running = runStatement(base, sql).finally(() => (done = true));
  while (!done) {
    expect((await answer(`${base}/v1/info`)).status).to.equal(200);
    await sleep(100);
  }
  return running;
}

describe('event loop and shutdown', function () {
  it('answers /v1/info and /v1/status while a long GROUP BY runs, and cancels it', async () => {
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      const first = await openQuery(base, LONG_GROUP_BY);
      let delay: EventLoopDelay | undefined;
      for (let i = 0; i < 20; i++) {
        expect((await answer(`${base}/v1/info`)).status).to.equal(200);
        const status = await answer<{ eventLoopDelay: EventLoopDelay }>(`${base}/v1/status`);
        expect(status.status).to.equal(200);
        delay = status.body.eventLoopDelay;
        await sleep(250);
      }
      const fields = [
        'meanMillis',
        'p50Millis',
        'p99Millis',
        'maxMillis',
        'windowSeconds',
        'maxSinceStartMillis',
        'gcPauses',
        'gcPauseMillis',
        'gcPauseMaxMillis',
      ] as const;
      for (const field of fields) expect(delay?.[field], field).to.be.a('number').and.to.be.at.least(0);
      expect(delay!.maxSinceStartMillis).to.be.at.least(delay!.maxMillis);

      expect((await answer(`${base}/v1/query/${first.body.id}`, { method: 'DELETE' })).status).to.equal(204);
      const run = await follow(first);
      expect(run.final.stats.state).to.equal('FAILED');
      expect(run.final.error?.errorName).to.equal('USER_CANCELED');
    } finally {
      await server.stop();
    }
  });

  it('keeps answering while a constant too long to fold is planned, with the right answer', async () => {
    const server = await ServerProcess.start();
    try {
      const run = await runWhileAnswering(server.uri, "SELECT length(rpad('a', 20000000, 'a'))");
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal([[20_000_000]]);
    } finally {
      await server.stop();
    }
  });

  it('keeps answering while a query with an IN list of 60000 constants is planned and run', async () => {
    const server = await ServerProcess.start();
    try {
      const list = Array.from({ length: 60_000 }, (_, i) => i).join(', ');
      const run = await runWhileAnswering(server.uri, `SELECT count(*) FROM tpch.tiny.orders WHERE o_orderkey IN (${list})`);
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal(await query(server.uri, 'SELECT count(*) FROM tpch.tiny.orders WHERE o_orderkey BETWEEN 0 AND 59999'));
    } finally {
      await server.stop();
    }
  });

  it('keeps answering while the TPC-H text pool is built for the first comment column read', async () => {
    const server = await ServerProcess.start();
    try {
      const sql = "SELECT count(*) FROM tpch.tiny.orders WHERE o_comment LIKE '%special%requests%'";
      const run = await runWhileAnswering(server.uri, sql);
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal(await query(server.uri, sql));
      expect(run.rows[0][0]).to.be.greaterThan(0);
    } finally {
      await server.stop();
    }
  });

  it('keeps answering while a CTAS loads a sizeable table into memory and a big join and sort run on it', async function () {
    this.timeout(240_000);
    const server = await ServerProcess.start(['--query-max-memory-per-node', '4GB']);
    try {
      // About 3 million rows: encoding them for the memory connector held the loop for seconds at once.
      const load = await runWhileAnswering(server.uri, 'CREATE TABLE memory.default.lineitem AS SELECT * FROM tpch."sf0.5".lineitem');
      expect(load.final.error).to.equal(undefined);
      expect(load.rows).to.deep.equal(await query(server.uri, 'SELECT count(*) FROM tpch."sf0.5".lineitem'));
      // A build side of every row (hashed in one go before), then a sort of the matches.
      const sql = `SELECT l1.l_orderkey, l1.l_linenumber FROM memory.default.lineitem l1
        WHERE EXISTS (SELECT 1 FROM memory.default.lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
        ORDER BY l1.l_extendedprice DESC, l1.l_orderkey, l1.l_linenumber LIMIT 3`;
      const join = await runWhileAnswering(server.uri, sql);
      expect(join.final.error).to.equal(undefined);
      expect(join.rows).to.deep.equal(await query(server.uri, sql.replaceAll('memory.default.lineitem', 'tpch."sf0.5".lineitem')));
    } finally {
      await server.stop();
    }
  });

  it('shuts down gracefully on SIGTERM: no new queries, the running one finishes, then exit 0', async () => {
    const server = await ServerProcess.start();
    const base = server.uri;
    const open = await openQuery(base, MILLION_ROWS_SQL);
    server.signal('SIGTERM');
    await waitForNodeState(base, 'SHUTTING_DOWN');
    await expectGracefulExit(server, open, 1_000_000);
  });

  it('stops at once on a second signal, failing the running query', async () => {
    const server = await ServerProcess.start();
    const open = await openQuery(server.uri, MILLION_ROWS_SQL);
    server.signal('SIGTERM');
    await waitForNodeState(server.uri, 'SHUTTING_DOWN');
    server.signal('SIGINT');
    expect(await server.waitForExit()).to.equal(0);
    const completion = server.logs.find((l) => l.msg === 'query completed' && l.queryId === open.body.id);
    expect(completion?.errorName).to.equal('SERVER_SHUTTING_DOWN');
  });

  it('ends the graceful shutdown after shutdown.gracePeriod, naming the queries it fails', async () => {
    const server = await ServerProcess.start(['--shutdown-grace-period', '1s']);
    const open = await openQuery(server.uri, MILLION_ROWS_SQL);
    server.signal('SIGTERM');
    expect(await server.waitForExit()).to.equal(0);
    const expiry = server.logs.find((l) => l.msg === 'shutting down: grace period over, failing the queries still running');
    expect(expiry?.queryIds).to.deep.equal([open.body.id]);
    const completion = server.logs.find((l) => l.msg === 'query completed' && l.queryId === open.body.id);
    expect(completion?.errorName).to.equal('SERVER_SHUTTING_DOWN');
  });

  it('reads shutdown.gracePeriod from ENGINE_SHUTDOWN_GRACE_PERIOD and --shutdown-grace-period (default 2m)', () => {
    expect(loadConfig().shutdown.gracePeriod).to.equal(120_000);
    expect(loadConfig({ env: { ENGINE_SHUTDOWN_GRACE_PERIOD: '30s' } }).shutdown.gracePeriod).to.equal(30_000);
    expect(
      loadConfig({ env: { ENGINE_SHUTDOWN_GRACE_PERIOD: '30s' }, flags: { 'shutdown-grace-period': '5s' } }).shutdown.gracePeriod,
    ).to.equal(5000);
  });
});
