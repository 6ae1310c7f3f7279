// Task updates are checked before a task exists: on a real server process with a shared secret,
// requests signed with a valid internal token that carry a malformed fragment (an unknown node,
// expression or type kind, a missing field), an out-of-range partition channel, a malformed or
// foreign split, an unknown catalog, a session of another query, or more splits than one update may
// carry are refused with 400 and a message naming what is wrong, and no task is created. A task
// given a table's splits as many single-unit splits in updates of the largest allowed size reads
// every row of the reference data once, and its version counts changes, not splits.

import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { getScalar } from '../../src/columnar/page.js';
import { readPageStream } from '../../src/exec/exchange/page-codec.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { MAX_SPLITS_PER_TASK_UPDATE, type ScheduledSplit, type TaskUpdateRequest } from '../../src/internode/task-update-request.js';
import { sharedPath } from '../../scripts/shared-dir.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { sourceTask as sourceTaskOf } from '../support/source-task.js';
import { query } from '../support/statement-http.js';

const SECRET = 'task update checks secret 51d0';
/** SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_regionkey = 1: Project, over a Filter, over the TableScan. */
const NATION_SQL = 'SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_regionkey = 1';
const FILTER = '/fragment/source';
const SCAN = '/fragment/source/source';

interface Answer {
  status: number;
  text: string;
}

/** A deep copy of a request (its bigints and byte arrays kept), to break in one place. */
function copy(request: TaskUpdateRequest): any {
  return structuredClone(request);
}

describe('task update checks', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const harness = new EngineHarness();
  const peer = new InternalAuthenticator(SECRET, 'peer');
  let queryNumber = 0;

  before(async () => {
    server = await ServerProcess.start([], { ENGINE_SHARED_SECRET: SECRET });
  });

  after(async () => {
    await server?.stop();
  });

  const sourceTask = (sql: string, noMoreSplits = true) =>
    sourceTaskOf(harness, sql, `20261201_000000_${String(++queryNumber).padStart(5, '0')}_check`, noMoreSplits);

  async function post(taskId: string, body: unknown): Promise<Answer> {
    const response = await fetch(`${server.uri}/v1/task/${taskId}`, {
      method: 'POST',
      body: toTaggedJson(body),
      headers: { 'Content-Type': 'application/json', ...peer.authorizationHeader() },
    });
    return { status: response.status, text: await response.text() };
  }

  async function taskStatus(taskId: string): Promise<number> {
    return (await fetch(`${server.uri}/v1/task/${taskId}`, { headers: peer.authorizationHeader() })).status;
  }

  /** POSTs `body` as the first request of a new task: it must be refused with 400 and `message`, and no task exist. */
  async function refused(taskId: string, body: unknown, message: string): Promise<void> {
    const answer = await post(taskId, body);
    expect(answer.status, answer.text).to.equal(400);
    const error = (JSON.parse(answer.text) as { error: { message: string; errorName: string } }).error;
    expect(error.errorName).to.equal('BAD_REQUEST');
    expect(error.message).to.equal(message);
    expect(await taskStatus(taskId), `task ${taskId} exists`).to.equal(404);
  }

  it('refuses a fragment with an unknown node, expression or type kind, naming where', async () => {
    const { request, taskId } = await sourceTask(NATION_SQL);
    const unknownNode = copy(request);
    unknownNode.fragment.source.kind = 'Bogus';
    await refused(taskId, unknownNode, `Invalid task request: ${FILTER}: unknown plan node kind 'Bogus'`);
    const unknownExpression = copy(request);
    unknownExpression.fragment.source.predicate.kind = 'method_call';
    await refused(taskId, unknownExpression, `Invalid task request: ${FILTER}/predicate: unknown expression kind 'method_call'`);
    const unknownType = copy(request);
    const columns = unknownType.fragment.source.source.columns;
    columns[0] = { ...columns[0], type: { kind: 'hyperloglog' } };
    await refused(taskId, unknownType, `Invalid task request: ${SCAN}/columns/0/type: unknown type kind 'hyperloglog'`);
    const missing = copy(request);
    delete missing.fragment.source.predicate;
    await refused(taskId, missing, `Invalid task request: ${FILTER} must have required property 'predicate'`);
    const wrongType = copy(request);
    wrongType.fragment.source.source.id = 'seven';
    await refused(taskId, wrongType, `Invalid task request: ${SCAN}/id must be integer`);
    // The same request unbroken runs.
    expect((await post(taskId, request)).status).to.equal(200);
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE', headers: peer.authorizationHeader() });
  });

  it('refuses an out-of-range partition channel, an unknown catalog, and a session of another query', async () => {
    const { request, taskId } = await sourceTask(NATION_SQL);
    const channels = request.fragment!.outputs.length;
    const partitioned = { ...copy(request), outputBuffers: { type: 'PARTITIONED', partitions: 2, partitionChannels: [0, channels] } };
    await refused(
      taskId,
      partitioned,
      `Invalid task request: /outputBuffers/partitionChannels/1: channel ${channels} is out of range: the fragment outputs ${channels} channels`,
    );
    const noChannels = { ...copy(request), outputBuffers: { type: 'PARTITIONED', partitions: 2 } };
    await refused(taskId, noChannels, "Invalid task request: /outputBuffers must have required property 'partitionChannels'");

    const unknownCatalog = copy(request);
    unknownCatalog.fragment.source.source.table.catalog = 'nowhere';
    unknownCatalog.sources = [];
    await refused(taskId, unknownCatalog, "Invalid task request: /fragment: scan 0 reads catalog 'nowhere', which this node does not have");

    const otherQuery = copy(request);
    otherQuery.session.queryId = '20261201_000000_99999_other';
    await refused(
      taskId,
      otherQuery,
      `Invalid task request: task ${taskId} is of query ${taskId.split('.')[0]}, but the session is of query 20261201_000000_99999_other`,
    );

    const withoutFragment = { ...copy(request), fragment: undefined };
    await refused(
      taskId,
      withoutFragment,
      `Invalid task request: task ${taskId} does not exist yet: its first request needs a fragment and output buffers`,
    );
  });

  it('refuses malformed splits, splits of another table or scan, and splits out of order', async () => {
    const { request, taskId, splits } = await sourceTask(NATION_SQL);
    const planNodeId = request.sources[0].planNodeId;
    const withSplits = (list: unknown[], id = planNodeId) => ({
      ...copy(request),
      sources: [{ planNodeId: id, splits: list, noMoreSplits: true }],
    });
    const split = splits[0].split;
    const at = '/sources/0/splits/0/split';
    await refused(
      taskId,
      withSplits([{ sequenceId: 0, split: { ...split, info: { start: 'zero', end: 25 } } }]),
      `Invalid task request: ${at}: info/start must be integer`,
    );
    await refused(
      taskId,
      withSplits([{ sequenceId: 0, split: { ...split, info: { start: 0 } } }]),
      `Invalid task request: ${at}: info must have required property 'end'`,
    );
    await refused(
      taskId,
      withSplits([{ sequenceId: 0, split: { ...split, info: undefined } }]),
      `Invalid task request: /sources/0/splits/0/split must have required property 'info'`,
    );
    await refused(
      taskId,
      withSplits([{ sequenceId: 0, split: { ...split, info: { start: 0, end: 26 } } }]),
      `Invalid task request: ${at}: info: units [0, 26) are not within the 25 of 'tiny.nation'`,
    );
    await refused(
      taskId,
      withSplits([{ sequenceId: 0, split: { ...split, table: 'region' } }]),
      `Invalid task request: ${at}: a split of 'tpch.tiny.region' for scan ${planNodeId} of 'tpch.tiny.nation'`,
    );
    await refused(
      taskId,
      withSplits(splits, planNodeId + 1000),
      `Invalid task request: /sources/0/planNodeId: ${planNodeId + 1000} is not a table scan of the fragment`,
    );
    const twice: ScheduledSplit[] = [
      { sequenceId: 1, split: { ...split, info: { start: 0, end: 10 } } },
      { sequenceId: 0, split: { ...split, info: { start: 10, end: 25 } } },
    ];
    await refused(
      taskId,
      withSplits(twice),
      "Invalid task request: /sources/0/splits/1/sequenceId: 0 does not follow 1: a scan's splits come in increasing sequence order",
    );
    const remote = { ...copy(request), remoteSources: [{ planNodeId: 2, locations: [], noMoreLocations: true }] };
    await refused(taskId, remote, 'Invalid task request: /remoteSources/0/planNodeId: 2 is not a remote source of the fragment');
  });

  it('refuses a split of a memory table version that is not there, checked by the memory connector', async () => {
    // The first table of the server's memory catalog: its id is 1.
    await query(server.uri, 'CREATE TABLE memory.default.checked AS SELECT * FROM tpch.tiny.region');
    const { request, taskId } = await sourceTask('SELECT r_name FROM tpch.tiny.region');
    const scan = copy(request);
    scan.fragment.source.table = { ...scan.fragment.source.table, catalog: 'memory', schema: 'default', name: 'checked' };
    const split = (info: object) => ({ catalog: 'memory', schema: 'default', table: 'checked', info });
    scan.sources[0].splits = [{ sequenceId: 0, split: split({ tableId: 1, version: 999, pin: 0, firstBatch: 0, endBatch: 1 }) }];
    await refused(
      taskId,
      scan,
      "Invalid task request: /sources/0/splits/0/split: info: Version 999 of table 'memory.default.checked' is no longer available",
    );
    scan.sources[0].splits = [{ sequenceId: 0, split: split({ tableId: 2, version: 1, pin: 0, firstBatch: 0, endBatch: 1 }) }];
    await refused(taskId, scan, "Invalid task request: /sources/0/splits/0/split: info: table 2 is not 'memory.default.checked'");
  });

  it(`takes at most ${MAX_SPLITS_PER_TASK_UPDATE} splits per update; split into updates of that size, every row of the reference data comes once`, async () => {
    const { request, taskId } = await sourceTask('SELECT l_orderkey, l_linenumber FROM tpch.tiny.lineitem', false);
    const planNodeId = request.sources[0].planNodeId;
    const template = (await sourceTask('SELECT l_orderkey FROM tpch.tiny.lineitem')).splits[0].split;
    const orders = (template.info as { end: number }).end;
    // One split per order: more splits than one update may carry.
    const splits: ScheduledSplit[] = Array.from({ length: orders }, (_, i) => ({
      sequenceId: i,
      split: { ...template, info: { start: i, end: i + 1 } },
    }));
    expect(splits.length).to.be.greaterThan(MAX_SPLITS_PER_TASK_UPDATE);
    const update = (from: number, to: number) => ({
      session: request.session,
      sources: [{ planNodeId, splits: splits.slice(from, to), noMoreSplits: to >= splits.length }],
      remoteSources: [],
    });

    await refused(
      taskId,
      { ...update(0, MAX_SPLITS_PER_TASK_UPDATE + 1), fragment: request.fragment, outputBuffers: request.outputBuffers },
      `Invalid task request: /sources/0/splits must not have more than ${MAX_SPLITS_PER_TASK_UPDATE} items`,
    );
    expect(
      (await post(taskId, { ...update(0, MAX_SPLITS_PER_TASK_UPDATE), fragment: request.fragment, outputBuffers: request.outputBuffers }))
        .status,
    ).to.equal(200);
    for (let from = MAX_SPLITS_PER_TASK_UPDATE; from < splits.length; from += MAX_SPLITS_PER_TASK_UPDATE) {
      const answer = await post(taskId, update(from, from + MAX_SPLITS_PER_TASK_UPDATE));
      expect(answer.status, answer.text).to.equal(200);
    }

    const rows: string[] = [];
    let token = 0;
    for (;;) {
      const response = await fetch(`${server.uri}/v1/task/${taskId}/results/0/${token}`, {
        headers: { 'X-Engine-Max-Wait': '1s', ...peer.authorizationHeader() },
      });
      if (response.status === 200) {
        for (const page of readPageStream(new Uint8Array(await response.arrayBuffer())).pages) {
          for (let r = 0; r < page.rowCount; r++) rows.push(`${getScalar(page.columns[0], r)}|${getScalar(page.columns[1], r)}`);
        }
      }
      if (response.headers.get('X-Engine-Buffer-Complete') === 'true') break;
      token = Number(response.headers.get('X-Engine-Page-End-Sequence-Id'));
    }
    const reference = readFileSync(sharedPath('tpch', 'dbgen-sf0.01', 'lineitem.tbl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('|').slice(0, 4))
      .map(([orderkey, , , linenumber]) => `${orderkey}|${linenumber}`);
    expect(rows.sort()).to.deep.equal(reference.sort());

    // Every split was taken and started, yet the version moved with the task's changes, not with each split.
    const info = await fetch(`${server.uri}/v1/task/${taskId}`, { headers: peer.authorizationHeader() });
    const text = await info.text();
    expect((JSON.parse(text) as { state: string }).state).to.equal('FLUSHING');
    expect(Number(/"version":(\d+)/.exec(text)![1])).to.be.lessThan(splits.length / 10);
    await fetch(`${server.uri}/v1/task/${taskId}/results/0`, { method: 'DELETE', headers: peer.authorizationHeader() });
  });
});
