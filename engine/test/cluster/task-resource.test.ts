// The task resource (endpoints 4-9) of a real server process, field by field: a task created with
// a fragment and its splits runs, its pages are read and acknowledged by token, it finishes once
// its buffer is released; GET long-polls on the version; DELETE cancels or aborts, after which the
// version is Long.MAX_VALUE written exactly; bad requests get JSON errors.

import { expect } from 'chai';
import { readPageStream } from '../../src/exec/exchange/page-codec.js';
import { getScalar, type Page } from '../../src/columnar/page.js';
import { formatDataSize, parseDataSize } from '../../src/config/data-size.js';
import { parseDuration } from '../../src/config/duration.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { filterAndProject } from '../../src/exec/operators/filter-and-project.js';
import { parallelSource } from '../../src/exec/threads/parallel-source.js';
import { tableScan } from '../../src/exec/table-scan.js';
import { TaskOutput } from '../../src/worker/task-output.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { sourceTask as sourceTaskOf } from '../support/source-task.js';
import { eventually } from './cluster-fixture.js';

const MAX_VERSION = '9223372036854775807';

describe('task resource', function () {
  this.timeout(60_000);
  let server: ServerProcess;
  const harness = new EngineHarness();
  let queryNumber = 0;

  before(async () => {
    server = await ServerProcess.start();
  });

  after(async () => {
    await server?.stop();
  });

  const sourceTask = (sql: string, noMoreSplits = true) =>
    sourceTaskOf(harness, sql, `20261123_000000_${String(++queryNumber).padStart(5, '0')}_tasks`, noMoreSplits);

  async function post(taskId: string, body: string): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
    const response = await fetch(`${server.uri}/v1/task/${taskId}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
  }

  async function taskJson(taskId: string, headers: Record<string, string> = {}): Promise<{ text: string; json: Record<string, any> }> {
    const response = await fetch(`${server.uri}/v1/task/${taskId}`, { headers });
    expect(response.status).to.equal(200);
    const text = await response.text();
    return { text, json: JSON.parse(text) as Record<string, any> };
  }

  /** Reads buffer 0 to the end, token by token; returns the pages and the tokens asked for. */
  /** The pages of buffer 0, the tokens asked for, and the end token of the answer that said complete. */
  async function readAll(taskId: string): Promise<{ pages: Page[]; tokens: number[]; end: number }> {
    const pages: Page[] = [];
    const tokens: number[] = [];
    let token = 0;
    for (;;) {
      tokens.push(token);
      const response = await fetch(`${server.uri}/v1/task/${taskId}/results/0/${token}`, { headers: { 'X-Engine-Max-Wait': '200ms' } });
      expect(Number(response.headers.get('X-Engine-Page-Sequence-Id'))).to.equal(token);
      const next = Number(response.headers.get('X-Engine-Page-End-Sequence-Id'));
      if (response.status === 200) {
        expect(response.headers.get('content-type')).to.equal('application/vnd.apache.arrow.stream');
        for (const page of readPageStream(new Uint8Array(await response.arrayBuffer())).pages) pages.push(page);
      } else {
        expect(response.status).to.equal(204);
      }
      if (response.headers.get('X-Engine-Buffer-Complete') === 'true') return { pages, tokens, end: next };
      token = next;
    }
  }

  it('runs a task, answers its pages by token, and finishes once its buffer is released', async () => {
    const { request, taskId, fragment } = await sourceTask('SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_regionkey = 1');
    const created = await post(taskId, toTaggedJson(request));
    expect(created.status, created.text).to.equal(200);
    expect(created.json.taskId).to.equal(taskId);
    expect(created.json.self).to.equal(`${server.uri}/v1/task/${taskId}`);
    expect(created.json.noMoreSplits).to.deep.equal([String(fragment.partitionedScans[0].id)]);

    const { pages, tokens, end } = await readAll(taskId);
    const rows = pages.flatMap((p) =>
      Array.from({ length: p.rowCount }, (_, r) => [getScalar(p.columns[0], r), getScalar(p.columns[1], r)]),
    );
    expect(rows.map((r) => r[1]).sort()).to.deep.equal(['ARGENTINA', 'BRAZIL', 'CANADA', 'PERU', 'UNITED STATES']);
    expect(tokens[0]).to.equal(0);
    // The answer that said complete ended at the last page (it may have carried the last pages itself).
    expect(end).to.equal(pages.length);

    // Still FLUSHING: the consumer has not released its buffer yet.
    const flushing = await taskJson(taskId);
    expect(flushing.json.state).to.equal('FLUSHING');
    expect(flushing.json.outputBuffers.state).to.equal('FLUSHING');
    expect((await fetch(`${server.uri}/v1/task/${taskId}/results/0`, { method: 'DELETE' })).status).to.equal(204);

    const { text, json: info } = await taskJson(taskId);
    expect(info.state).to.equal('FINISHED');
    expect(text).to.contain(`"version":${MAX_VERSION}`);
    expect(info.lastHeartbeat).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(info.failures).to.deep.equal([]);
    expect(info.outputs).to.deep.equal({});
    expect(info.outputBuffers).to.deep.include({ state: 'FINISHED', pagesAdded: pages.length, masterSequenceId: pages.length });
    expect(info.outputBuffers.buffers).to.deep.equal([{ bufferId: '0', finished: true, bufferedPages: 0, pagesSent: pages.length }]);
    const stats = info.stats;
    for (const field of ['createTime', 'startTime', 'endTime']) expect(stats[field], field).to.match(/^\d{4}-\d\d-\d\dT/);
    for (const field of ['elapsedTime', 'queuedTime', 'totalScheduledTime', 'totalCpuTime', 'totalBlockedTime'])
      expect(stats[field], field).to.match(/^\d+\.\d\d(ns|us|ms|s|m|h|d)$/);
    for (const field of ['memoryReservation', 'rawInputDataSize', 'processedInputDataSize', 'outputDataSize'])
      expect(stats[field], field).to.match(/^\d+(\.\d+)?(B|kB|MB|GB)$/);
    expect(stats).to.deep.include({
      totalDrivers: 1,
      queuedDrivers: 0,
      runningDrivers: 0,
      completedDrivers: 1,
      rawInputPositions: 25,
      outputPositions: 5,
    });
    const pipeline = stats.pipelines[0];
    expect(pipeline).to.deep.include({ inputPipeline: true, outputPipeline: true, outputPositions: 5 });
    for (const field of ['queuedTime', 'elapsedTime'])
      expect(Object.keys(pipeline[field]).sort()).to.deep.equal([
        'count',
        'max',
        'maxError',
        'min',
        'p01',
        'p05',
        'p10',
        'p25',
        'p50',
        'p75',
        'p90',
        'p95',
        'p99',
        'total',
      ]);
    const operators = pipeline.operatorSummaries as { operatorType: string; inputPositions: number; outputPositions: number }[];
    // The scan and its filter run as one operator here (on worker threads), or as two.
    const types = operators.map((o) => o.operatorType);
    expect(types.at(-1)).to.equal(TaskOutput.name);
    expect(types.slice(0, -1).join()).to.be.oneOf([parallelSource.name, [tableScan.name, filterAndProject.name].join()]);
    expect(operators.at(-2)).to.deep.include({ outputPositions: 5 });
    expect(operators.at(-1)).to.deep.include({ inputPositions: 5, outputPositions: 5 });

    const list = (await (await fetch(`${server.uri}/v1/task`)).json()) as { taskId: string }[];
    expect(list.map((t) => t.taskId)).to.include(taskId);
  });

  it('reports what each operator did, counted and timed where it ran, under the name of our operator', async () => {
    harness.session.properties.set('parallel_min_splits', '0');
    const sql = 'SELECT l_orderkey, l_quantity FROM tpch.tiny.lineitem WHERE l_quantity < 10';
    const { request, taskId, splits } = await sourceTask(sql, false);
    harness.session.properties.delete('parallel_min_splits');
    // Counted without the engine's operators: the pages and rows the connector makes of these splits.
    let connectorPages = 0;
    let connectorRows = 0;
    const tpch = harness.catalogs.get('tpch')!;
    for (const { split } of splits) {
      for await (const page of tpch.createPageSource(harness.session, split, ['l_orderkey', 'l_quantity'])) {
        connectorPages++;
        connectorRows += page.rowCount;
      }
    }
    expect((await post(taskId, toTaggedJson(request))).status).to.equal(200);
    // The scan waits for its splits: at least this long, blocked and not on the CPU.
    const waitMillis = 300;
    await new Promise((resolve) => setTimeout(resolve, waitMillis));
    const withSplits = {
      ...request,
      fragment: undefined,
      outputBuffers: undefined,
      sources: [{ planNodeId: request.sources[0].planNodeId, splits, noMoreSplits: true }],
    };
    expect((await post(taskId, toTaggedJson(withSplits))).status).to.equal(200);
    const { pages } = await readAll(taskId);
    const rowsRead = pages.reduce((sum, p) => sum + p.rowCount, 0);
    await fetch(`${server.uri}/v1/task/${taskId}/results/0`, { method: 'DELETE' });

    const { json: info } = await taskJson(taskId);
    expect(info.state).to.equal('FINISHED');
    const operators = info.stats.pipelines[0].operatorSummaries as Record<string, any>[];
    expect(operators.map((o) => o.operatorType)).to.deep.equal([tableScan.name, filterAndProject.name, TaskOutput.name]);
    expect(operators.map((o) => o.operatorId)).to.deep.equal([0, 1, 2]);
    const [scan, filter, output] = operators;
    const millis = (d: string) => parseDuration(d)!;

    // The scan takes no pages from an operator: it reads them from the connector, and hands each on.
    expect(scan).to.deep.include({
      addInputCalls: 0,
      finishCalls: 0,
      inputPositions: connectorRows,
      outputPositions: connectorRows,
      getOutputCalls: connectorPages + 1,
    });
    // The filter receives every page once, and the end of its input once; the task output every page it made.
    expect(filter).to.deep.include({
      addInputCalls: connectorPages,
      finishCalls: 1,
      inputPositions: connectorRows,
      outputPositions: rowsRead,
      getOutputCalls: pages.length + 1,
    });
    expect(output).to.deep.include({
      addInputCalls: pages.length,
      finishCalls: 1,
      getOutputCalls: 0,
      inputPositions: rowsRead,
      outputPositions: rowsRead,
    });

    expect(millis(scan.blockedWall)).to.be.at.least(waitMillis);
    expect(millis(scan.getOutputWall)).to.be.at.least(waitMillis);
    expect(millis(scan.getOutputCpu)).to.be.at.most(millis(scan.getOutputWall) - waitMillis);
    for (const o of operators) {
      for (const phase of ['addInput', 'getOutput', 'finish'])
        expect(millis(o[`${phase}Cpu`]), `${o.operatorType} ${phase}`).to.be.at.most(millis(o[`${phase}Wall`]));
      // Not measured (Node cannot split one thread's CPU time into user and system): zero.
      for (const phase of ['addInput', 'getOutput', 'finish']) expect(o[`${phase}User`]).to.equal('0.00ns');
    }
    // The task's CPU time is its operators', its blocked time theirs too.
    const sum = (field: string) => operators.reduce((total, o) => total + millis(o[field]), 0);
    const cpu = sum('addInputCpu') + sum('getOutputCpu') + sum('finishCpu');
    expect(millis(info.stats.totalCpuTime)).to.be.closeTo(cpu, 0.05 * cpu + 0.1);
    expect(millis(info.stats.totalBlockedTime)).to.be.closeTo(sum('blockedWall'), 0.05 * sum('blockedWall'));
  });

  it('shows in /v1/status what a task holds, under its query, for a query another node coordinates', async () => {
    harness.session.properties.set('parallel_min_splits', '0');
    const { request, taskId, splits } = await sourceTask('SELECT l_orderkey, count(*) FROM tpch.tiny.lineitem GROUP BY l_orderkey', false);
    harness.session.properties.delete('parallel_min_splits');
    const queryId = taskId.split('.')[0];
    // Some splits, and more to come: the partial aggregation holds its groups while it waits.
    const some = { ...request, sources: [{ planNodeId: request.sources[0].planNodeId, splits: splits.slice(0, 1), noMoreSplits: false }] };
    expect((await post(taskId, toTaggedJson(some))).status).to.equal(200);
    const held = await eventually(`${queryId} in /v1/status`, async () => {
      const status = (await (await fetch(`${server.uri}/v1/status`)).json()) as {
        memoryInfo: { pools: { general: { queryMemoryReservations: Record<string, number> } } };
      };
      return status.memoryInfo.pools.general.queryMemoryReservations[queryId];
    });
    const task = await taskJson(taskId);
    expect(held).to.be.greaterThan(0);
    // The peak crosses HTTP as a rounded size ("184.03kB"): compare at that precision (rounding is monotonic).
    expect(parseDataSize(formatDataSize(held))).to.be.at.most(parseDataSize(task.json.stats.peakMemoryReservation)!);
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE' });
  });

  it('long-polls on the version: an update wakes the waiting GET', async () => {
    const { request, taskId } = await sourceTask('SELECT n_name FROM tpch.tiny.nation', false);
    const created = await post(taskId, toTaggedJson(request));
    // Running, its scan waiting for splits.
    expect(created.json.state).to.equal('RUNNING');
    const version = /"version":(\d+)/.exec(created.text)![1];
    const waiting = taskJson(taskId, { 'X-Engine-Current-Version': version, 'X-Engine-Max-Wait': '10s' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const full = await sourceTask('SELECT n_name FROM tpch.tiny.nation');
    const update = { ...request, sources: full.request.sources.map((s) => ({ ...s, planNodeId: request.sources[0].planNodeId })) };
    expect((await post(taskId, toTaggedJson(update))).status).to.equal(200);
    const woken = await waiting;
    expect(woken.json.noMoreSplits).to.deep.equal([String(request.sources[0].planNodeId)]);
    expect(/"version":(\d+)/.exec(woken.text)![1]).to.not.equal(version);
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE' });
  });

  it('answers a long poll after its max wait, with the version unchanged, when nothing changed', async () => {
    const { request, taskId } = await sourceTask('SELECT n_name FROM tpch.tiny.nation', false);
    const created = await post(taskId, toTaggedJson(request));
    // Running, its scan waiting for splits that do not come: nothing changes.
    expect(created.json.state).to.equal('RUNNING');
    const version = /"version":(\d+)/.exec(created.text)![1];
    const answered = await taskJson(taskId, { 'X-Engine-Current-Version': version, 'X-Engine-Max-Wait': '300ms' });
    expect(/"version":(\d+)/.exec(answered.text)![1]).to.equal(version);
    expect(answered.json.state).to.equal('RUNNING');
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE' });
  });

  it("answers ?summarize with a running task's object without its pipelines, and a done task's whole", async () => {
    const { request, taskId, splits } = await sourceTask('SELECT n_name FROM tpch.tiny.nation', false);
    const created = await fetch(`${server.uri}/v1/task/${taskId}?summarize`, {
      method: 'POST',
      body: toTaggedJson(request),
      headers: { 'Content-Type': 'application/json' },
    });
    const createdJson = (await created.json()) as Record<string, any>;
    expect(createdJson.state).to.equal('RUNNING');
    expect(createdJson.stats.pipelines).to.deep.equal([]);
    // The same task unsummarized: its pipeline and the operators in it.
    const whole = await taskJson(taskId);
    expect(whole.json.stats.pipelines).to.have.length(1);
    expect(whole.json.stats.pipelines[0].operatorSummaries.length).to.be.above(0);
    const summarized = await fetch(`${server.uri}/v1/task/${taskId}?summarize`);
    const summarizedJson = (await summarized.json()) as Record<string, any>;
    expect(summarizedJson.stats.pipelines).to.deep.equal([]);
    // The task's totals are there all the same.
    expect(summarizedJson.stats.totalSplits).to.equal(0);
    expect(summarizedJson.state).to.equal('RUNNING');

    const last = {
      ...request,
      fragment: undefined,
      outputBuffers: undefined,
      sources: [{ planNodeId: request.sources[0].planNodeId, splits, noMoreSplits: true }],
    };
    expect((await post(taskId, toTaggedJson(last))).status).to.equal(200);
    const { pages } = await readAll(taskId);
    expect(pages.reduce((sum, p) => sum + p.rowCount, 0)).to.equal(25);
    await fetch(`${server.uri}/v1/task/${taskId}/results/0`, { method: 'DELETE' });
    await eventually('the task to finish', async () => ((await taskJson(taskId)).json.state === 'FINISHED' ? true : undefined));
    const done = (await (await fetch(`${server.uri}/v1/task/${taskId}?summarize`)).json()) as Record<string, any>;
    expect(done.stats.pipelines).to.have.length(1);
    expect(done.stats.pipelines[0].operatorSummaries.map((o: { outputPositions: number }) => o.outputPositions)).to.include(25);
  });

  it('takes each split once when an update is sent again (sequence ids), so the coordinator may retry one', async () => {
    const { request, taskId } = await sourceTask('SELECT o_orderkey FROM tpch.sf1.orders', false);
    expect((await post(taskId, toTaggedJson(request))).status).to.equal(200);
    const planNodeId = request.sources[0].planNodeId;
    const all = (await sourceTask('SELECT o_orderkey FROM tpch.sf1.orders')).splits;
    expect(all.length).to.be.greaterThan(1);
    const first = {
      ...request,
      fragment: undefined,
      outputBuffers: undefined,
      sources: [{ planNodeId, splits: all.slice(0, 1), noMoreSplits: false }],
    };
    // The first update twice, then the rest overlapping it, then the last request again after no-more-splits.
    const rest = { ...first, sources: [{ planNodeId, splits: all, noMoreSplits: true }] };
    for (const update of [first, first, rest, rest]) expect((await post(taskId, toTaggedJson(update))).status).to.equal(200);
    const { pages } = await readAll(taskId);
    expect(pages.reduce((sum, p) => sum + p.rowCount, 0)).to.equal(1_500_000);
    await fetch(`${server.uri}/v1/task/${taskId}/results/0`, { method: 'DELETE' });
    const { json: info } = await taskJson(taskId);
    expect(info.stats.totalSplits).to.equal(all.length);
    expect(info.noMoreSplits).to.deep.equal([String(planNodeId)]);
  });

  it('cancels (abort=false) and aborts with DELETE; a task that is done reports the largest version', async () => {
    for (const [query, expected] of [
      ['?abort=false', 'CANCELED'],
      ['', 'ABORTED'],
    ] as const) {
      const { request, taskId } = await sourceTask('SELECT l_orderkey FROM tpch.tiny.lineitem', false);
      expect((await post(taskId, toTaggedJson(request))).status).to.equal(200);
      const response = await fetch(`${server.uri}/v1/task/${taskId}${query}`, { method: 'DELETE' });
      expect(response.status).to.equal(200);
      const text = await response.text();
      expect((JSON.parse(text) as { state: string }).state).to.equal(expected);
      expect(text).to.contain(`"version":${MAX_VERSION}`);
      expect(text).to.not.contain('9223372036854776000');
      expect((await taskJson(taskId)).json.state).to.equal(expected);
    }
  });

  it('answers the creation before planning the fragment: a fragment that fails to plan reports FAILED with its error through the status', async () => {
    const { request, taskId, fragment } = await sourceTask('SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1');
    const root = fragment.root;
    expect(root.kind === 'TableScan', 'the fragment root has sources').to.equal(false);
    // The request's checks hold (the physical plan names the fragment's root), but the root's sources have no physical node.
    const created = await post(taskId, toTaggedJson({ ...request, physicalPlan: { kind: 'Operator', node: root.id, sources: [] } }));
    expect(created.status, created.text).to.equal(200);
    expect(created.json.failures).to.deep.equal([]);
    const failed = await eventually('the task to fail', async () => {
      const { json } = await taskJson(taskId);
      return json.state === 'FAILED' ? json : undefined;
    });
    expect(failed.failures[0].message).to.contain('has no physical node');
    expect(failed.failures[0].errorCode.name).to.equal('GENERIC_INTERNAL_ERROR');
  });

  it('holds a results request for a task not created yet until the task is created, and answers its pages', async () => {
    const { request, taskId } = await sourceTask('SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1');
    // A consumer created at the same time as its producer may ask before the producer's creation arrived.
    const early = fetch(`${server.uri}/v1/task/${taskId}/results/0/0`, { headers: { 'X-Engine-Max-Wait': '10s' } });
    // The request is on its way before the task is created (the task list answers after the server read it).
    await fetch(`${server.uri}/v1/task`);
    expect((await post(taskId, toTaggedJson(request))).status).to.equal(200);
    const response = await early;
    expect(response.status).to.equal(200);
    const pages = [...readPageStream(new Uint8Array(await response.arrayBuffer())).pages];
    expect(pages.flatMap((p) => Array.from({ length: p.rowCount }, (_, r) => getScalar(p.columns[0], r)))).to.have.members([
      'ARGENTINA',
      'BRAZIL',
      'CANADA',
      'PERU',
      'UNITED STATES',
    ]);
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE' });
    // A task that is never created is still not found, once the wait is over.
    expect(
      (await fetch(`${server.uri}/v1/task/20261123_000000_99999_zzzzz.1.0/results/0/0`, { headers: { 'X-Engine-Max-Wait': '50ms' } }))
        .status,
    ).to.equal(404);
  });

  it('answers bad requests with JSON errors', async () => {
    const { request, taskId } = await sourceTask('SELECT n_name FROM tpch.tiny.nation');
    const bad = [
      { id: taskId, body: '{not json', status: 400 },
      { id: taskId, body: JSON.stringify({ session: request.session }), status: 400 },
      { id: 'not-a-task-id', body: toTaggedJson(request), status: 400 },
      { id: taskId, body: toTaggedJson({ ...request, fragment: undefined }), status: 400 },
    ];
    for (const { id, body, status } of bad) {
      const answer = await post(id, body);
      expect(answer.status, answer.text).to.equal(status);
      expect((answer.json.error as { message: string }).message).to.be.a('string');
    }
    const unknown = await fetch(`${server.uri}/v1/task/20261123_000000_99999_zzzzz.1.0`);
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as { error: { errorName: string } }).error.errorName).to.equal('NOT_FOUND');
    expect((await post(taskId, toTaggedJson(request))).status).to.equal(200);
    expect((await fetch(`${server.uri}/v1/task/${taskId}`, { headers: { 'X-Engine-Current-Version': 'abc' } })).status).to.equal(400);
    expect((await fetch(`${server.uri}/v1/task/${taskId}?abort=maybe`, { method: 'DELETE' })).status).to.equal(400);
    expect((await fetch(`${server.uri}/v1/task/${taskId}/results/7/0`)).status).to.equal(404);
    await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE' });
  });
});
