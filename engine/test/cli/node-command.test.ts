// `engine node state` and `engine node drain` against real server processes.

import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { processExists } from '../../src/cli/node-drain.js';
import { runEngine, startEngine } from '../support/engine-cli.js';
import { nodeState, openQuery, putState, waitForNodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from '../server/sql-fixtures.js';

/** A scan and aggregation of TPC-H sf1's 6 million lineitem rows, and its answer. */
const LONG_AGGREGATION = 'SELECT count(*), sum(l_quantity) FROM tpch.sf1.lineitem';
const LONG_AGGREGATION_ROWS = [[6001215, '153078795.00']];

/** A port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const listener = createServer().listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const port = (listener.address() as AddressInfo).port;
  listener.close();
  await once(listener, 'close');
  return port;
}

describe('engine node state', function () {
  this.timeout(30_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  it('prints the state, and sets it', async () => {
    expect(await runEngine(['node', 'state', '--server', server.uri])).to.deep.equal({ code: 0, stdout: 'ACTIVE\n', stderr: '' });
    expect(await runEngine(['node', 'state', '--server', server.uri, 'ISOLATED'])).to.deep.equal({
      code: 0,
      stdout: 'ISOLATED\n',
      stderr: '',
    });
    expect(await nodeState(server.uri)).to.equal('ISOLATED');
    expect(await runEngine(['node', 'state', '--local', '--port', String(server.port), 'ACTIVE'])).to.deep.equal({
      code: 0,
      stdout: 'ACTIVE\n',
      stderr: '',
    });
    expect(await nodeState(server.uri)).to.equal('ACTIVE');
  });

  it('finds the local node on $ENGINE_HTTP_HOST and $ENGINE_HTTP_PORT', async () => {
    const port = String(server.port);
    expect(await runEngine(['node', 'state', '--local'], { ENGINE_HTTP_PORT: port })).to.deep.equal({
      code: 0,
      stdout: 'ACTIVE\n',
      stderr: '',
    });
    expect(await runEngine(['node', 'state', '--local'], { ENGINE_HTTP_PORT: port, ENGINE_HTTP_HOST: '0.0.0.0' })).to.deep.equal({
      code: 0,
      stdout: 'ACTIVE\n',
      stderr: '',
    });
    const elsewhere = await runEngine(['node', 'state', '--local'], { ENGINE_HTTP_PORT: port, ENGINE_HTTP_HOST: '127.0.0.2' });
    expect(elsewhere.code).to.equal(1);
    expect(elsewhere.stderr).to.match(new RegExp(`^Cannot reach http://127\\.0\\.0\\.2:${port}: `));
  });

  it("exits 1 with the server's reason when it refuses the move, which changes nothing", async () => {
    const run = await runEngine(['node', 'state', '--server', server.uri, 'INACTIVE']);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.equal(
      `PUT ${server.uri}/v1/info/state: 400 Bad Request: Cannot move a node to INACTIVE; allowed from ACTIVE: ISOLATING, ISOLATED, SHUTTING_DOWN\n`,
    );
    const unknown = await runEngine(['node', 'state', '--server', server.uri, 'active']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.have.string('Invalid node state: "active"; expected one of ACTIVE, ISOLATING, ISOLATED, SHUTTING_DOWN');
    expect(await nodeState(server.uri)).to.equal('ACTIVE');
  });

  it('exits 1 when nothing listens, and 2 on bad usage', async () => {
    const port = await freePort();
    const unreachable = await runEngine(['node', 'state', '--local', '--port', String(port)]);
    expect(unreachable.code).to.equal(1);
    expect(unreachable.stderr).to.match(new RegExp(`^Cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    for (const args of [
      [],
      ['--server', server.uri, '--local'],
      ['--server', 'not a url'],
      ['--local', '--port', 'eighty'],
      ['--server', server.uri, 'ACTIVE', 'ISOLATED'],
    ]) {
      const run = await runEngine(['node', 'state', ...args]);
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(/^engine node state: /);
    }
  });
});

describe('engine node drain', function () {
  this.timeout(60_000);

  it('isolates the node, waits for its running query, shuts it down, and returns only once the process is gone', async () => {
    const server = await ServerProcess.start();
    const pid = server.child.pid!;
    const long = await openQuery(server.uri, LONG_AGGREGATION);
    const drain = startEngine(['node', 'drain', '--local', '--port', String(server.port), '--poll', '100ms']);
    await waitForNodeState(server.uri, 'ISOLATING');
    // The drain waits for the query, whose client has not read it yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(drain.child.exitCode).to.equal(null);
    expect(await nodeState(server.uri)).to.equal('ISOLATING');
    const run = await follow(long);
    expect(run.rows).to.deep.equal(LONG_AGGREGATION_ROWS);
    const result = await drain.done;
    expect(processExists(pid), 'the server process is gone when the drain returns').to.equal(false);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.equal('');
    // Without the elapsed time, the split counts that change while the query runs, and the wait for the
    // exit (said only when the process is still there when the drain looks after the move: a race).
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/^\[[\d.]+\w+\] /, '').replace(/, \d+ (queued|running) (splits?|tasks?)/g, ''))
      .filter((line, i, all) => line !== all[i - 1] && !line.endsWith(' is SHUTTING_DOWN: waiting for the process to exit'));
    const nodeId = lines[0]!.split(' ')[0]!;
    expect(lines).to.deep.equal([
      `${nodeId} is ACTIVE: 1 running query`,
      `moving ${nodeId} to ISOLATING: it takes no new work, and what runs finishes`,
      `${nodeId} is ISOLATING: 1 running query`,
      `${nodeId} is ISOLATED: no work`,
      `moving ${nodeId} to SHUTTING_DOWN`,
      `the node is gone (process ${pid} exited)`,
    ]);
    expect(await server.waitForExit()).to.equal(0);
  });

  it('with --server, returns once the port refuses connections', async () => {
    const server = await ServerProcess.start();
    const result = await runEngine(['node', 'drain', '--server', server.uri]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).to.match(/the node is gone \(its port refuses connections\)$/);
    expect(await server.waitForExit()).to.equal(0);
    const again = await runEngine(['node', 'drain', '--server', server.uri]);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.equal(`engine node drain: nothing listens at ${server.uri}: no node to drain\n`);
  });

  it('times out with exit 1 naming what still runs, leaving the node ISOLATING', async () => {
    const server = await ServerProcess.start();
    try {
      const open = await openQuery(server.uri, MILLION_ROWS_SQL);
      const result = await runEngine(['node', 'drain', '--server', server.uri, '--timeout', '1s', '--poll', '100ms']);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/^engine node drain: timed out after 1\.00s: \S+ is still ISOLATING with 1 running query\b/);
      expect(server.running).to.equal(true);
      expect(await nodeState(server.uri)).to.equal('ISOLATING');
      expect((await follow(open)).rows).to.have.length(1_000_000);
      await waitForNodeState(server.uri, 'ISOLATED');
    } finally {
      await server.stop();
    }
  });

  it('gives up with exit 1 when someone moves the node back to ACTIVE', async () => {
    const server = await ServerProcess.start();
    try {
      const open = await openQuery(server.uri, 'SELECT 1');
      const drain = startEngine(['node', 'drain', '--server', server.uri, '--poll', '100ms']);
      await waitForNodeState(server.uri, 'ISOLATING');
      expect(await putState(server.uri, '"ACTIVE"')).to.deep.equal({ status: 200, body: 'ACTIVE' });
      const result = await drain.done;
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/^engine node drain: \S+ was moved to ACTIVE by someone else: drain abandoned\n$/);
      expect((await follow(open)).rows).to.deep.equal([[1]]);
      expect(await nodeState(server.uri)).to.equal('ACTIVE');
    } finally {
      await server.stop();
    }
  });

  it('signs its moves with $ENGINE_SHARED_SECRET, as a node with a shared secret requires', async () => {
    const secret = { ENGINE_SHARED_SECRET: 'drain-test-secret' };
    const server = await ServerProcess.start([], secret);
    const unsigned = await runEngine(['node', 'state', '--server', server.uri, 'ISOLATED'], { ENGINE_SHARED_SECRET: '' });
    expect(unsigned.code).to.equal(1);
    expect(unsigned.stderr).to.have.string('401');
    const wrong = await runEngine(['node', 'state', '--server', server.uri, 'ISOLATED'], { ENGINE_SHARED_SECRET: 'another-secret' });
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.have.string("its signature does not match this node's shared secret");
    expect(await nodeState(server.uri)).to.equal('ACTIVE');
    const result = await runEngine(['node', 'drain', '--local', '--port', String(server.port), '--poll', '100ms'], secret);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).to.match(/the node is gone \(process \d+ exited\)$/);
    expect(await server.waitForExit()).to.equal(0);
  });

  it('with --until-isolated, returns once the node is drained and leaves it running, for the SIGTERM that follows a preStop hook', async () => {
    const server = await ServerProcess.start();
    const result = await runEngine(['node', 'drain', '--local', '--port', String(server.port), '--poll', '100ms', '--until-isolated']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).to.match(/\S+ is drained: SIGTERM shuts it down$/);
    expect(server.running, 'the node still runs after the hook').to.equal(true);
    expect(await nodeState(server.uri)).to.equal('ISOLATED');
    server.signal('SIGTERM');
    expect(await server.waitForExit()).to.equal(0);
  });

  it('refuses bad durations', async () => {
    for (const args of [
      ['--timeout', 'soon'],
      ['--poll', '0s'],
      ['--timeout', '10'],
    ]) {
      const run = await runEngine(['node', 'drain', '--server', 'http://127.0.0.1:1', ...args]);
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(/^engine node drain: --(timeout|poll) must be a duration such as 30s or 10m/);
    }
  });
});
