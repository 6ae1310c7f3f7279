// The messages between nodes (src/internode/), written and read back: a task's info keeps its figures
// as numbers in process and writes them as airlift's strings, the version with all 64 bits; a real
// worker's answer reads into the same figures it wrote; malformed infos, headers and requests from a
// peer are ProtocolErrors naming what is wrong, and the coordinator fails the task with one instead of
// crashing or counting NaN.

import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDataSize } from '../../src/config/data-size.js';
import { parseDuration } from '../../src/config/duration.js';
import { ClientError } from '../../src/internode/client-error.js';
import { NodeClient } from '../../src/internode/node-client.js';
import { RemoteTask } from '../../src/coordinator/scheduler/remote-task.js';
import { httpTaskChannel } from '../../src/coordinator/scheduler/task-channel.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { readNodeStatus } from '../../src/internode/node-status.js';
import { ProtocolError } from '../../src/internode/protocol-error.js';
import {
  RESULTS_HEADERS,
  TASK_HEADERS,
  readResultsPage,
  readResultsRequest,
  readTaskPoll,
  resultsPageHeaders,
  resultsRequestHeaders,
  taskPollHeaders,
} from '../../src/internode/task-headers.js';
import type { TaskInfo } from '../../src/internode/task-info.js';
import {
  decodeVersionedDomains,
  encodeVersionedDomains,
  type DynamicFilterDomain,
  type VersionedDynamicFilterDomains,
} from '../../src/internode/dynamic-filter-domains.js';
import { decodeTaskInfo, encodeTaskInfo } from '../../src/internode/task-info-codec.js';
import { decodeTaskUpdateRequest, encodeTaskUpdateRequest } from '../../src/internode/task-update-request.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { sourceTask } from '../support/source-task.js';

const MAX_VERSION = 9223372036854775807n;

/** A task's info with figures that airlift's formats write exactly (two decimals of their unit). */
function sampleInfo(): TaskInfo {
  const figures = {
    totalDrivers: 1,
    queuedDrivers: 0,
    runningDrivers: 0,
    completedDrivers: 1,
    memoryReservation: 1536,
    totalScheduledTime: 1500,
    totalCpuTime: 1500,
    totalBlockedTime: 0.25,
    rawInputDataSize: 3 * 1024 * 1024,
    processedInputDataSize: 3 * 1024 * 1024,
    outputDataSize: 0,
    rawInputPositions: 25,
    processedInputPositions: 25,
    outputPositions: 5,
  };
  const distribution = {
    maxError: 0,
    count: 1,
    total: 7,
    p01: 7,
    p05: 7,
    p10: 7,
    p25: 7,
    p50: 7,
    p75: 7,
    p90: 7,
    p95: 7,
    p99: 7,
    min: 7,
    max: 7,
  };
  return {
    taskId: '20261126_000000_00001_abcde.1.0',
    version: MAX_VERSION,
    state: 'FAILED',
    self: 'http://127.0.0.1:1/v1/task/20261126_000000_00001_abcde.1.0',
    nodeId: 'worker-1',
    lastHeartbeat: '2026-11-26T08:00:00.000Z',
    outputBuffers: {
      state: 'ABORTED',
      masterSequenceId: 0,
      pagesAdded: 2,
      buffers: [{ bufferId: '0', finished: true, bufferedPages: 0, pagesSent: 0 }],
    },
    noMoreSplits: ['3'],
    stats: {
      createTime: '2026-11-26T08:00:00.000Z',
      startTime: '2026-11-26T08:00:00.010Z',
      endTime: '2026-11-26T08:00:01.510Z',
      elapsedTime: 1510,
      queuedTime: 10,
      ...figures,
      peakMemoryReservation: 2 * 1024 * 1024 * 1024,
      totalSplits: 4,
      queuedSplits: 0,
      runningSplits: 0,
      completedSplits: 4,
      pipelines: [
        {
          inputPipeline: true,
          outputPipeline: true,
          ...figures,
          queuedTime: distribution,
          elapsedTime: distribution,
          operatorSummaries: [
            {
              operatorId: 0,
              planNodeId: '3',
              operatorType: 'tableScan',
              addInputCalls: 0,
              getOutputCalls: 4,
              finishCalls: 1,
              addInputWall: 0,
              addInputCpu: 0,
              addInputUser: 0,
              getOutputWall: 120_000,
              getOutputCpu: 0.0015,
              getOutputUser: 0,
              blockedWall: 2,
              finishWall: 0,
              finishCpu: 0,
              finishUser: 0,
              inputDataSize: 0,
              outputDataSize: 1536,
              memoryReservation: 0,
              peakUserMemoryReservation: 512,
              inputPositions: 0,
              outputPositions: 25,
              connectorMetrics: { filesRead: 2 },
            },
          ],
          drivers: [],
        },
      ],
    },
    failures: [
      {
        type: 'EngineError',
        message: 'Division by zero',
        suppressed: [],
        stack: [],
        errorCode: { code: 8, name: 'DIVISION_BY_ZERO', type: 'USER_ERROR' },
      },
    ],
    outputs: {},
  };
}

function sampleSession() {
  return {
    queryId: '20261126_000000_00001_abcde',
    user: 'u',
    timeZone: 'UTC',
    properties: {},
    preparedStatements: {},
    clientTags: [],
    startTime: 0,
  };
}

/** `info` written, changed by `edit` as JSON, for a malformed answer. */
function edited(edit: (json: Record<string, any>) => void): string {
  const json = JSON.parse(encodeTaskInfo({ ...sampleInfo(), version: 7n })) as Record<string, any>;
  edit(json);
  return JSON.stringify(json);
}

/** A node on loopback whose every request `handle` answers; `run` gets its address. */
async function withPeer(handle: RequestListener, run: (uri: string) => Promise<void>): Promise<void> {
  const peer: Server = createServer((request, response) => {
    request.resume();
    handle(request, response);
  });
  peer.listen(0, '127.0.0.1');
  await once(peer, 'listening');
  try {
    await run(`http://127.0.0.1:${(peer.address() as AddressInfo).port}`);
  } finally {
    peer.close();
  }
}

/** A node that answers every request with `body` (200, JSON): what a peer that does not follow the protocol sends. */
function oddPeer(body: string, run: (uri: string) => Promise<void>): Promise<void> {
  return withPeer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(body);
  }, run);
}

/** The coordinator's handle on a task of the peer at `uri`. */
function remoteTaskAt(uri: string, nodeId: string, maxErrorDurationMillis: number): RemoteTask {
  return new RemoteTask(
    '20261126_000000_00001_abcde.1.0',
    { nodeId, uri },
    httpTaskChannel(uri, () => ({})),
    { maxErrorDurationMillis },
  );
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(ProtocolError);
    return (e as Error).message;
  }
  throw new Error('expected a ProtocolError');
}

describe('inter-node messages (internode/)', function () {
  this.timeout(60_000);

  describe('task info', () => {
    it('keeps figures as numbers in process and writes durations, sizes and the 64-bit version as the wire has them', () => {
      const text = encodeTaskInfo(sampleInfo());
      expect(text).to.match(/^\{"taskId":"20261126_000000_00001_abcde\.1\.0","version":9223372036854775807,/);
      const json = JSON.parse(text) as Record<string, any>;
      expect(json.stats).to.deep.include({
        elapsedTime: '1.51s',
        queuedTime: '10.00ms',
        totalCpuTime: '1.50s',
        totalBlockedTime: '250.00us',
        memoryReservation: '1.50kB',
        rawInputDataSize: '3MB',
        peakMemoryReservation: '2GB',
        outputDataSize: '0B',
      });
      expect(json.stats.pipelines[0]).to.deep.include({ totalCpuTime: '1.50s', memoryReservation: '1.50kB' });
      expect(json.stats.pipelines[0].operatorSummaries[0]).to.deep.include({
        getOutputWall: '2.00m',
        getOutputCpu: '1.50us',
        blockedWall: '2.00ms',
        outputDataSize: '1.50kB',
        peakUserMemoryReservation: '512B',
        addInputUser: '0.00ns',
      });
      // Counts and distributions stay numbers on the wire too.
      expect(json.stats.pipelines[0].queuedTime.total).to.equal(7);
      expect(json.stats.rawInputPositions).to.equal(25);
    });

    it('reads back exactly what it wrote: every figure, the version above 2^53, the failure', () => {
      const info = sampleInfo();
      expect(decodeTaskInfo(encodeTaskInfo(info))).to.deep.equal(info);
      const small = { ...info, version: 42n };
      expect(decodeTaskInfo(encodeTaskInfo(small))).to.deep.equal(small);
    });

    it("reads a real worker's answer into the figures it wrote (the coordinator never parses its own strings)", async () => {
      const harness = new EngineHarness();
      const server = await ServerProcess.start();
      try {
        const { request, taskId } = await sourceTask(
          harness,
          'SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1',
          '20261126_000000_00001_codec',
        );
        const created = await fetch(`${server.uri}/v1/task/${taskId}`, {
          method: 'POST',
          body: encodeTaskUpdateRequest(request),
          headers: { 'Content-Type': 'application/json' },
        });
        expect(created.status).to.equal(200);
        await created.text();
        const aborted = await fetch(`${server.uri}/v1/task/${taskId}?abort=true`, { method: 'DELETE' });
        const text = await aborted.text();
        const wire = JSON.parse(text) as Record<string, any>;
        const info = decodeTaskInfo(text);
        expect(info.version).to.equal(MAX_VERSION);
        expect(info.state).to.equal('ABORTED');
        expect(info.taskId).to.equal(taskId);
        for (const field of ['elapsedTime', 'queuedTime', 'totalCpuTime', 'totalBlockedTime'] as const)
          expect(info.stats[field], field).to.equal(parseDuration(wire.stats[field] as string));
        for (const field of ['memoryReservation', 'peakMemoryReservation', 'rawInputDataSize', 'outputDataSize'] as const)
          expect(info.stats[field], field).to.equal(parseDataSize(wire.stats[field] as string));
        const operators = info.stats.pipelines[0].operatorSummaries;
        expect(operators.length).to.be.greaterThan(0);
        operators.forEach((operator, i) => {
          const written = wire.stats.pipelines[0].operatorSummaries[i] as Record<string, string>;
          expect(operator.getOutputWall).to.equal(parseDuration(written.getOutputWall));
          expect(operator.outputDataSize).to.equal(parseDataSize(written.outputDataSize));
        });
        // Written again (the query detail shows the tasks), every figure is the value the worker wrote.
        const again = JSON.parse(encodeTaskInfo(info)) as Record<string, any>;
        expect(parseDuration(again.stats.totalCpuTime as string)).to.equal(parseDuration(wire.stats.totalCpuTime as string));
        expect(again.stats.rawInputPositions).to.equal(wire.stats.rawInputPositions);
        expect(encodeTaskInfo(info)).to.contain('"version":9223372036854775807');
      } finally {
        await server.stop();
      }
    });

    it('refuses a malformed task info with a ProtocolError naming what is wrong', () => {
      expect(refusal(() => decodeTaskInfo('<html>busy</html>'))).to.match(/^Invalid task info: not JSON/);
      expect(refusal(() => decodeTaskInfo('{}'))).to.equal("Invalid task info: (root) must have required property 'taskId'");
      expect(refusal(() => decodeTaskInfo('[]'))).to.equal('Invalid task info: (root) must be object');
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.stats.totalCpuTime = 'a while'))))).to.match(
        /^Invalid task info: \/stats\/totalCpuTime must match pattern/,
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.stats.rawInputDataSize = 1024))))).to.equal(
        'Invalid task info: /stats/rawInputDataSize must be string',
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.stats.pipelines[0].operatorSummaries[0].blockedWall = '-2ms'))))).to.match(
        /^Invalid task info: \/stats\/pipelines\/0\/operatorSummaries\/0\/blockedWall must match pattern/,
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => delete j.stats.pipelines[0].operatorSummaries[0].outputPositions)))).to.equal(
        "Invalid task info: /stats/pipelines/0/operatorSummaries/0 must have required property 'outputPositions'",
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.state = 'EXPLODED'))))).to.equal(
        'Invalid task info: /state must be equal to one of the allowed values',
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.version = -1))))).to.equal('Invalid task info: /version must be >= 0');
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.version = '7'))))).to.equal('Invalid task info: /version must be integer');
      expect(refusal(() => decodeTaskInfo(edited((j) => delete j.failures[0].errorCode)))).to.equal(
        "Invalid task info: /failures/0 must have required property 'errorCode'",
      );
      // A version above 2^63 - 1 is no Java long.
      const tooLarge = encodeTaskInfo({ ...sampleInfo(), version: MAX_VERSION }).replace('9223372036854775807', '9923372036854775807');
      expect(refusal(() => decodeTaskInfo(tooLarge))).to.match(/^Invalid task info: \/version .* is not a 64-bit integer/);
    });

    it("fails the coordinator's task with REMOTE_TASK_ERROR naming the problem when a node answers a malformed info", async () => {
      await oddPeer(
        edited((j) => (j.stats.totalCpuTime = 'NaN')),
        async (uri) => {
          const task = remoteTaskAt(uri, 'odd-node', 1000);
          const request = { session: sampleSession(), sources: [], remoteSources: [] };
          const error = await task.update(request).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).to.be.instanceOf(EngineError);
          expect((error as EngineError).errorName).to.equal('REMOTE_TASK_ERROR');
          expect((error as EngineError).message).to.contain(
            `POST ${uri}/v1/task/20261126_000000_00001_abcde.1.0?summarize: Invalid task info: /stats/totalCpuTime must match pattern`,
          );
          expect(task.info).to.equal(undefined);
        },
      );
    });
  });

  describe('dynamic filter domains', () => {
    const domain = (id: string, ...values: bigint[]): DynamicFilterDomain => ({
      id,
      domain: { low: { value: values[0], inclusive: true }, high: { value: values.at(-1)!, inclusive: true }, values },
    });

    it('a task info carries the dynamic filters version, and the domains a poll asked for; both read back their bigints exactly', () => {
      const info = { ...sampleInfo(), version: 7n, dynamicFiltersVersion: 2 };
      expect(decodeTaskInfo(encodeTaskInfo(info))).to.deep.equal(info);
      const answer: VersionedDynamicFilterDomains = { version: 2, domains: [domain('df_3', 1n, 9007199254740993n)] };
      expect(decodeVersionedDomains(encodeVersionedDomains(answer))).to.deep.equal(answer);
      const carrying: TaskInfo = { ...info, dynamicFilterDomains: answer };
      expect(decodeTaskInfo(encodeTaskInfo(carrying))).to.deep.equal(carrying);
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.dynamicFilterDomains = { version: 1 }))))).to.equal(
        "Invalid task info: /dynamicFilterDomains must have required property 'domains'",
      );
      expect(refusal(() => decodeTaskInfo(edited((j) => (j.dynamicFiltersVersion = -1))))).to.equal(
        'Invalid task info: /dynamicFiltersVersion must be >= 0',
      );
      expect(refusal(() => decodeVersionedDomains('{"version":1}'))).to.equal(
        "Invalid dynamic filter domains: (root) must have required property 'domains'",
      );
      expect(refusal(() => decodeVersionedDomains('{"version":1,"domains":[{"domain":{}}]}'))).to.equal(
        "Invalid dynamic filter domains: /domains/0 must have required property 'id'",
      );
    });

    it('a long list of keys (packed) reads back exactly, in a fetch answer, a task info and a task update; a malformed one is refused', async () => {
      const keys = Array.from({ length: 50_000 }, (_, i) => BigInt((i - 25_000) * 7919));
      keys.push(BigInt(Number.MAX_SAFE_INTEGER), -BigInt(Number.MAX_SAFE_INTEGER));
      // Beyond 2^53 one key keeps the list as tagged bigints; a short list too.
      const mixed = [...keys.slice(0, 20), 2n ** 53n + 1n];
      const answer: VersionedDynamicFilterDomains = {
        version: 3,
        domains: [domain('df_1', ...keys), domain('df_2', ...mixed), domain('df_3', 4n, 5n)],
      };
      const text = encodeVersionedDomains(answer);
      expect(decodeVersionedDomains(text)).to.deep.equal(answer);
      const info: TaskInfo = { ...sampleInfo(), dynamicFiltersVersion: 3, dynamicFilterDomains: answer };
      expect(decodeTaskInfo(encodeTaskInfo(info))).to.deep.equal(info);
      const harness = new EngineHarness();
      const { request } = await sourceTask(harness, 'SELECT n_name FROM tpch.tiny.nation', '20261127_000000_00003_packed');
      const update = { ...request, dynamicFilterDomains: answer.domains };
      expect(decodeTaskUpdateRequest(encodeTaskUpdateRequest(update))).to.deep.equal(update);
      const malformed = text.replace(/"\$int64s":"[^"]*"/, '"$int64s":"1,x"');
      expect(malformed).to.not.equal(text);
      expect(refusal(() => decodeVersionedDomains(malformed))).to.equal(
        'Invalid dynamic filter domains: the values of df_1 are not a list',
      );
      expect(
        refusal(() => decodeTaskUpdateRequest(encodeTaskUpdateRequest(update).replace(/"\$int64s":"[^"]*"/, '"$int64s":"1.5"'))),
      ).to.match(/dynamicFilterDomains\/0\/domain\/values must be array/);
    });

    it("the coordinator fetches a task's domains once per version, whether an update's answer or a poll showed it, again if a fetch fails", async () => {
      let info: TaskInfo = { ...sampleInfo(), state: 'RUNNING', version: 5n, failures: [], dynamicFiltersVersion: 1 };
      const published = [domain('df_1', 4n, 7n), domain('df_2', 2n)];
      const fetches: string[] = [];
      let failNextFetch = false;
      await withPeer(
        (request, response) => {
          const url = new URL(request.url!, 'http://peer');
          if (url.pathname.endsWith('/dynamic-filters') && failNextFetch) {
            failNextFetch = false;
            fetches.push('failed');
            response.writeHead(500, { 'Content-Type': 'application/json' });
            response.end('{"error":{"message":"busy"}}');
            return;
          }
          response.writeHead(200, { 'Content-Type': 'application/json' });
          if (url.pathname.endsWith('/dynamic-filters')) {
            const since = Number(url.searchParams.get('since'));
            fetches.push(`since=${since}`);
            const version = info.dynamicFiltersVersion ?? 0;
            response.end(encodeVersionedDomains({ version, domains: published.slice(since, version) }));
          } else response.end(encodeTaskInfo(info));
        },
        async (uri) => {
          const task = remoteTaskAt(uri, 'peer', 5000);
          const seen: DynamicFilterDomain[][] = [];
          let next: () => void = () => undefined;
          const arrival = () => new Promise<void>((resolve) => (next = resolve));
          task.watchDynamicFilters((domains) => {
            seen.push(domains);
            next();
          });
          const first = arrival();
          // Only the update's answer shows version 1: it alone must bring df_1.
          await task.send({ session: sampleSession(), sources: [], remoteSources: [] });
          await first;
          await task.send({ session: sampleSession(), sources: [], remoteSources: [] });
          const second = arrival();
          // The task's last info shows version 2, and the first fetch fails: no info comes after it, the fetch is tried again.
          info = { ...info, state: 'FINISHED', version: MAX_VERSION, dynamicFiltersVersion: 2 };
          failNextFetch = true;
          await task.follow(() => undefined);
          await second;
          expect(seen).to.deep.equal([[published[0]], [published[1]]]);
          expect(fetches).to.deep.equal(['since=0', 'failed', 'since=1']);
        },
      );
    });

    it('the domains reach a created task while a split update the node has not answered is still on its way', async () => {
      const info: TaskInfo = { ...sampleInfo(), state: 'RUNNING', version: 5n, failures: [] };
      const arrived: string[] = [];
      let answerSplits: () => void = () => undefined;
      // A busy node: it answers the creation and the domains at once, the split update only when told.
      await withPeer(
        (request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            const update = decodeTaskUpdateRequest(Buffer.concat(chunks).toString());
            const kind = update.dynamicFilterDomains !== undefined ? 'domains' : update.sources.length > 0 ? 'splits' : 'create';
            arrived.push(kind);
            const answer = () => {
              response.writeHead(200, { 'Content-Type': 'application/json' });
              response.end(encodeTaskInfo(info));
            };
            if (kind === 'splits') answerSplits = answer;
            else answer();
          });
        },
        async (uri) => {
          const task = remoteTaskAt(uri, 'peer', 5000);
          const lastSplits = { session: sampleSession(), sources: [{ planNodeId: 1, splits: [], noMoreSplits: true }], remoteSources: [] };
          await task.create({ session: sampleSession(), sources: [], remoteSources: [] });
          const splitsAnswered = task.send(lastSplits);
          const dynamicFilterDomains = [domain('df_1', 4n, 7n)];
          await task.sendUnordered({ session: sampleSession(), sources: [], remoteSources: [], dynamicFilterDomains });
          expect(arrived).to.deep.equal(['create', 'splits', 'domains']);
          answerSplits();
          await splitsAnswered;
          // An update that adds splits or locations keeps its order: it may not be sent so.
          expect(() => task.sendUnordered(lastSplits)).to.throw(EngineError, 'must keep its order');
        },
      );
    });

    it("the coordinator takes the domains a poll's answer carries, each once, without a fetch", async () => {
      const published = [domain('df_1', 4n, 7n), domain('df_2', 2n, 9007199254740993n)];
      let info: TaskInfo = { ...sampleInfo(), state: 'RUNNING', version: 5n, failures: [] };
      const asked: string[] = [];
      // A worker as ours: the long poll's answer carries the domains published after the version it names.
      await withPeer(
        (request, response) => {
          const url = new URL(request.url!, 'http://peer');
          const since = request.headers[TASK_HEADERS.dynamicFiltersSince.toLowerCase()];
          asked.push(url.pathname.endsWith('/dynamic-filters') ? 'fetch' : `poll since=${String(since)}`);
          const version = info.dynamicFiltersVersion ?? 0;
          const carried = typeof since === 'string' && version > Number(since) ? published.slice(Number(since), version) : [];
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(encodeTaskInfo(carried.length === 0 ? info : { ...info, dynamicFilterDomains: { version, domains: carried } }));
          // The build completes between polls: first df_1, then df_2 with the task's end.
          info =
            version === 0
              ? { ...info, version: 6n, dynamicFiltersVersion: 1 }
              : { ...info, state: 'FINISHED', version: MAX_VERSION, dynamicFiltersVersion: 2 };
        },
        async (uri) => {
          const task = remoteTaskAt(uri, 'peer', 5000);
          const seen: DynamicFilterDomain[][] = [];
          task.watchDynamicFilters((domains) => seen.push(domains));
          const infos: TaskInfo[] = [];
          await task.follow((i) => infos.push(i));
          expect(seen).to.deep.equal([[published[0]], [published[1]]]);
          expect(asked).to.deep.equal(['poll since=0', 'poll since=0', 'poll since=1']);
          // The infos the query sees go without the domains.
          expect(infos.some((i) => i.dynamicFilterDomains !== undefined)).to.equal(false);
        },
      );
    });
  });

  describe('headers', () => {
    it('writes and reads the dynamic filters version a poll has seen, and refuses a malformed one', () => {
      const headers = taskPollHeaders({ maxWaitMillis: 1000, dynamicFiltersSince: 3 });
      expect(headers[TASK_HEADERS.dynamicFiltersSince]).to.equal('3');
      expect(readTaskPoll((name) => headers[name])).to.deep.equal({ maxWaitMillis: 1000, dynamicFiltersSince: 3 });
      expect(refusal(() => readTaskPoll((name) => ({ [TASK_HEADERS.dynamicFiltersSince]: '-1' })[name]))).to.equal(
        'Invalid X-Engine-Dynamic-Filters-Since header: -1',
      );
    });

    const lookup = (headers: Record<string, string>) => (name: string) => headers[name];

    it('writes and reads the long poll of a task: the version with all its digits, the wait as a duration', () => {
      const headers = taskPollHeaders({ version: MAX_VERSION, maxWaitMillis: 1000 });
      expect(headers).to.deep.equal({ [TASK_HEADERS.maxWait]: '1000ms', [TASK_HEADERS.currentVersion]: '9223372036854775807' });
      expect(readTaskPoll(lookup(headers))).to.deep.equal({ version: MAX_VERSION, maxWaitMillis: 1000 });
      // No wait: no header, as a single look at a task is sent.
      expect(taskPollHeaders({ maxWaitMillis: 0 })).to.deep.equal({});
      expect(readTaskPoll(lookup({}))).to.deep.equal({ maxWaitMillis: 0 });
      expect(readTaskPoll(lookup({ [TASK_HEADERS.maxWait]: '1.5s' }))).to.deep.equal({ maxWaitMillis: 1500 });
    });

    it('refuses a malformed poll header, naming it', () => {
      expect(refusal(() => readTaskPoll(lookup({ [TASK_HEADERS.maxWait]: 'soon' })))).to.equal('Invalid X-Engine-Max-Wait header: soon');
      expect(refusal(() => readTaskPoll(lookup({ [TASK_HEADERS.currentVersion]: '-1' })))).to.equal(
        'Invalid X-Engine-Current-Version header: -1',
      );
      expect(refusal(() => readTaskPoll(lookup({ [TASK_HEADERS.currentVersion]: '12345678901234567890' })))).to.equal(
        'Invalid X-Engine-Current-Version header: 12345678901234567890',
      );
    });

    it('writes and reads a results request and the figures of its answer', () => {
      const request = resultsRequestHeaders({ maxWaitMillis: 200, maxBytes: 1024 * 1024 });
      expect(request).to.deep.equal({ [RESULTS_HEADERS.maxSize]: '1048576B', [RESULTS_HEADERS.maxWait]: '200ms' });
      expect(readResultsRequest(lookup(request), { maxWaitMillis: 1, maxBytes: 1 })).to.deep.equal({
        maxWaitMillis: 200,
        maxBytes: 1024 * 1024,
      });
      expect(readResultsRequest(lookup({ [RESULTS_HEADERS.maxSize]: '2MB' }), { maxWaitMillis: 1000, maxBytes: 1 })).to.deep.equal({
        maxWaitMillis: 1000,
        maxBytes: 2 * 1024 * 1024,
      });
      expect(refusal(() => readResultsRequest(lookup({ [RESULTS_HEADERS.maxSize]: 'lots' }), { maxWaitMillis: 1, maxBytes: 1 }))).to.equal(
        'Invalid X-Engine-Max-Size header: lots',
      );

      const page = { taskInstanceId: 'c0ffee', token: 7, nextToken: 9, complete: false, taskFailed: true };
      const answer = resultsPageHeaders(page);
      expect(answer).to.deep.equal({
        [RESULTS_HEADERS.taskInstanceId]: 'c0ffee',
        [RESULTS_HEADERS.pageSequenceId]: '7',
        [RESULTS_HEADERS.pageEndSequenceId]: '9',
        [RESULTS_HEADERS.bufferComplete]: 'false',
        [RESULTS_HEADERS.taskFailed]: 'true',
      });
      expect(readResultsPage(lookup(answer), 'http://w/results/0/7')).to.deep.equal(page);
    });

    it('refuses an answer of results with a missing or malformed header, naming it and the address', () => {
      const answer = resultsPageHeaders({ taskInstanceId: 'c0ffee', token: 7, nextToken: 9, complete: true, taskFailed: false });
      const { [RESULTS_HEADERS.taskInstanceId]: _id, ...withoutId } = answer;
      expect(refusal(() => readResultsPage(lookup(withoutId), 'http://w/r/0/7'))).to.equal(
        'Expected X-Engine-Task-Instance-Id header in the response from http://w/r/0/7',
      );
      expect(refusal(() => readResultsPage(lookup({ ...answer, [RESULTS_HEADERS.pageEndSequenceId]: '9.5' }), 'http://w/r/0/7'))).to.equal(
        'Invalid X-Engine-Page-End-Sequence-Id header 9.5 from http://w/r/0/7',
      );
      expect(
        refusal(() => readResultsPage(lookup({ ...answer, [RESULTS_HEADERS.pageSequenceId]: '99999999999999999999' }), 'http://w/r/0/7')),
      ).to.equal('Invalid X-Engine-Page-Sequence-Id header 99999999999999999999 from http://w/r/0/7');
    });
  });

  describe('node status', () => {
    it('reads what other nodes and tools act on, and refuses a status without a node id or with a malformed workload', () => {
      const body = { nodeId: 'worker-1', state: 'ISOLATED', pid: 42, workload: { runningQueries: 0, runningTasks: 2 }, heapUsed: 1 };
      expect(readNodeStatus(body, 'http://w')).to.deep.equal(body);
      expect(readNodeStatus({ nodeId: 'w', state: 'ACTIVE' }, 'http://w')).to.deep.equal({ nodeId: 'w', state: 'ACTIVE', workload: {} });
      expect(refusal(() => readNodeStatus({ state: 'ACTIVE' }, 'http://w'))).to.equal(
        "GET http://w/v1/status did not answer a node status: (root) must have required property 'nodeId'",
      );
      expect(refusal(() => readNodeStatus({ nodeId: 'w', state: 'ACTIVE', workload: { runningTasks: 'two' } }, 'http://w'))).to.equal(
        'GET http://w/v1/status did not answer a node status: /workload/runningTasks must be number',
      );
      expect(refusal(() => readNodeStatus(null, 'http://w'))).to.equal(
        'GET http://w/v1/status did not answer a node status: (root) must be object',
      );
    });

    it("gives the node client (engine node drain, the operator) a ClientError saying what is wrong with a node's answer", async () => {
      await oddPeer(JSON.stringify({ nodeId: 'w', workload: {} }), async (uri) => {
        const error = await new NodeClient(uri).status().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(ClientError);
        expect((error as Error).message).to.equal(
          `GET ${uri}/v1/status did not answer a node status: (root) must have required property 'state'`,
        );
      });
    });
  });

  describe('task update request', () => {
    it("reads back what it wrote, the fragment's bigint constants exactly, and refuses a malformed one naming the path", async () => {
      const harness = new EngineHarness();
      const { request } = await sourceTask(
        harness,
        'SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey < 9007199254740993',
        '20261126_000000_00002_codec',
      );
      const text = encodeTaskUpdateRequest(request);
      expect(text).to.contain('9007199254740993');
      expect(decodeTaskUpdateRequest(text)).to.deep.equal(request);
      const json = JSON.parse(text) as Record<string, any>;
      json.sources[0].splits = 'all of them';
      expect(refusal(() => decodeTaskUpdateRequest(JSON.stringify(json)))).to.equal(
        'Invalid task request: /sources/0/splits must be array',
      );
      expect(refusal(() => decodeTaskUpdateRequest('{"session":'))).to.match(/task request/);
    });
  });
});
