// The results suite of `make bench`: one large result, `SELECT * FROM tpch.sf<scale>.orders`, pulled
// from one node through the trino-client package (as a Trino user's program would) and through our
// CLI (`engine sql`, CSV to /dev/null): rows/s, the bytes the server wrote meanwhile (MB/s), the CPU
// time of the server and of the client apart, and the node's worst event-loop delay; DuckDB's time to
// produce the same rows in this process as the reference. Then one more pull through trino-client
// with both sides profiled (a server started with --cpu-prof, the client through the inspector):
// the functions with the most self time on each side.

import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { Trino } from 'trino-client';
import { duckRows } from '../tpch/duckdb-tpch.js';
import { startEngineServer, type EngineServerProcess } from '../sqllogictest/server-process.js';
import { executeStatement } from '../sqllogictest/statement-client.js';
import { mergeProfiles, profileThisProcess, readThreadProfiles, topSelfCosts } from './cpu-profile.js';
import {
  printLargeResults,
  writeLargeResults,
  type LargeResultsRun,
  type ProfileSummary,
  type ResultPull,
} from './large-results-report.js';
import { serverHeapOptions } from './memory.js';
import { tpchSchema, type BenchOptions } from './options.js';
import { processUsage, reapedChildrenCpuMillis, usageBetween } from './process-usage.js';
import { measureResponsiveness } from './responsiveness.js';
import { mainThreadRunQueueWaitMillis, waitBetween } from './run-queue-wait.js';

const NODE_MEMORY_BYTES = 6 * 1024 ** 3;
const NODE_ARGS = ['--node-memory', '6GB', '--query-max-memory-per-node', '5GB'];
const PROFILE_TOP = 15;
/** The longest span /v1/status's event-loop figures cover (see server/event-loop-delay.ts). */
const LOOP_WINDOW_MILLIS = 10_000;
/** Functions of the warm-up, not of the pull (see warmUp). */
const WARM_UP_FRAMES = /^(generateTextPoolBytes|buildTextPool) /;

export interface LargeResultsContext {
  options: BenchOptions;
  /** DuckDB holding tpch.sf<scale>. */
  duckTpch: DuckDBConnection;
  /** engine/dist/src/cli/main.js */
  cliPath: string;
  resultsDir: string;
}

export async function runLargeResultsSuite(context: LargeResultsContext): Promise<LargeResultsRun> {
  const { options } = context;
  const schema = tpchSchema(options.scale);
  const sql = `SELECT * FROM tpch."${schema}".orders`;
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  console.log(`\nlarge results: ${sql}`);

  // DuckDB's result read whole in its own columnar chunks, and the same turned into JavaScript rows.
  const duckChunkTimes: number[] = [];
  const duckTimes: number[] = [];
  let expectedRows = 0;
  for (let i = 0; i < options.runs; i++) {
    let started = performance.now();
    await context.duckTpch.runAndReadAll('SELECT * FROM orders');
    duckChunkTimes.push(performance.now() - started);
    started = performance.now();
    expectedRows = (await duckRows(context.duckTpch, 'SELECT * FROM orders')).length;
    duckTimes.push(performance.now() - started);
  }

  const pulls: ResultPull[] = [];
  const env = { ...process.env, NODE_OPTIONS: serverHeapOptions(NODE_MEMORY_BYTES) };
  const server = await startEngineServer({ cliPath: context.cliPath, env, args: NODE_ARGS });
  try {
    await warmUp(server.url, schema);
    for (let i = 0; i < options.runs; i++) {
      pulls.push(await measurePull('trino-client', server, () => pullThroughTrinoClient(server.url, sql, expectedRows)));
      console.log(describePull(pulls[pulls.length - 1]));
      pulls.push(await measurePull('engine sql (CSV)', server, () => pullThroughCli(context.cliPath, server.url, sql, expectedRows)));
      console.log(describePull(pulls[pulls.length - 1]));
    }
  } finally {
    await server.stop();
  }

  console.log('profiling one pull through trino-client (server --cpu-prof, client through the inspector)...');
  const profiles = await profilePull(context.cliPath, schema, sql, expectedRows);

  const run: LargeResultsRun = {
    startedAt,
    options,
    sql,
    rows: expectedRows,
    duckdbMillis: Math.min(...duckTimes),
    duckdbChunksMillis: Math.min(...duckChunkTimes),
    pulls,
    ...profiles,
    loadAverage: { start: loadStart, end: loadavg() },
  };
  printLargeResults(run);
  console.log(`\nwritten to ${writeLargeResults(run, context.resultsDir)}`);
  return run;
}

/** One pull by `pull` (which returns the rows it received), with the server's CPU and bytes and the client's CPU. */
async function measurePull(
  client: ResultPull['client'],
  server: EngineServerProcess,
  pull: () => Promise<{ rows: number; clientCpuMillis: number | undefined }>,
): Promise<ResultPull> {
  // /v1/status reports the loop over its last 5-10 s: after this pause that window holds nothing of the work before.
  await new Promise((resolve) => setTimeout(resolve, LOOP_WINDOW_MILLIS));
  const serverBefore = processUsage(server.pid);
  const serverWaitBefore = mainThreadRunQueueWaitMillis(server.pid);
  const clientWaitBefore = mainThreadRunQueueWaitMillis(process.pid);
  const started = performance.now();
  try {
    const { result, responsiveness } = await measureResponsiveness(server.url, pull);
    const millis = performance.now() - started;
    const serverUsage = usageBetween(serverBefore, processUsage(server.pid));
    return {
      client,
      rows: result.rows,
      millis,
      rowsPerSecond: result.rows / (millis / 1000),
      serverWrittenBytes: serverUsage?.writtenBytes,
      serverCpuMillis: serverUsage?.cpuMillis,
      serverMainThreadCpuMillis: serverUsage?.mainThreadCpuMillis,
      clientCpuMillis: result.clientCpuMillis,
      worstLoopDelayMillis: responsiveness.worstLoopDelayMillis,
      worstInfoMillis: responsiveness.worstInfoMillis,
      serverMainRunQueueWaitMillis: waitBetween(serverWaitBefore, mainThreadRunQueueWaitMillis(server.pid)),
      // The CLI runs in a child process, read only after it ended: trino-client's pull is this process's.
      ...(client === 'trino-client'
        ? { clientRunQueueWaitMillis: waitBetween(clientWaitBefore, mainThreadRunQueueWaitMillis(process.pid)) }
        : {}),
    };
  } catch (e) {
    return { client, rows: 0, millis: performance.now() - started, rowsPerSecond: NaN, error: (e as Error).message };
  }
}

/** Every page through trino-client; the rows counted, a different count than DuckDB's an error. */
async function pullThroughTrinoClient(
  serverUrl: string,
  sql: string,
  expectedRows: number,
): Promise<{ rows: number; clientCpuMillis: number }> {
  const cpuBefore = process.cpuUsage();
  const trino = Trino.create({ server: serverUrl, source: 'bench', catalog: 'tpch' });
  let rows = 0;
  for await (const result of await trino.query(sql)) {
    if (result.error) throw new Error(result.error.message);
    rows += result.data?.length ?? 0;
  }
  const cpu = process.cpuUsage(cpuBefore);
  if (rows !== expectedRows) throw new Error(`trino-client received ${rows} rows, DuckDB has ${expectedRows}`);
  // This process also polls the server meanwhile: a few requests a second, small against the pull.
  return { rows, clientCpuMillis: (cpu.user + cpu.system) / 1000 };
}

/** `engine sql --execute` with its CSV to /dev/null; its CPU time from this process's reaped children. */
async function pullThroughCli(
  cliPath: string,
  serverUrl: string,
  sql: string,
  expectedRows: number,
): Promise<{ rows: number; clientCpuMillis: number | undefined }> {
  const childrenBefore = reapedChildrenCpuMillis();
  const devNull = openSync('/dev/null', 'w');
  try {
    const child = spawn(
      process.execPath,
      [cliPath, 'sql', '--server', serverUrl, '--user', 'bench', '--source', 'bench', '--execute', sql, '--output-format', 'CSV'],
      {
        stdio: ['ignore', devNull, 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`engine sql exited with ${code}: ${stderr.trim().slice(0, 500)}`);
  } finally {
    closeSync(devNull);
  }
  const childrenAfter = reapedChildrenCpuMillis();
  // The CLI's CSV goes to /dev/null unread: its row count is what the server says it sent.
  const rows = await lastQueryOutputRows(serverUrl, sql);
  if (rows !== expectedRows) throw new Error(`the server sent the CLI ${rows} rows, DuckDB has ${expectedRows}`);
  return {
    rows,
    clientCpuMillis: childrenBefore === undefined || childrenAfter === undefined ? undefined : childrenAfter - childrenBefore,
  };
}

/** The output rows of the newest query with this text, from the server's /v1/query (the list, then the query's detail). */
async function lastQueryOutputRows(serverUrl: string, sql: string): Promise<number> {
  const headers = { 'X-Engine-User': 'bench' };
  const listed = (await (await fetch(new URL('/v1/query', serverUrl), { headers })).json()) as {
    queryId: string;
    query: string;
    state: string;
  }[];
  const newest = listed.filter((q) => q.query.trim() === sql).pop();
  if (newest === undefined) throw new Error(`the server lists no query with this text`);
  if (newest.state !== 'FINISHED') throw new Error(`the CLI's query is ${newest.state}`);
  const detail = (await (await fetch(new URL(`/v1/query/${newest.queryId}`, serverUrl), { headers })).json()) as {
    queryStats?: { outputPositions?: number };
  };
  const rows = detail.queryStats?.outputPositions;
  if (rows === undefined) throw new Error(`the server reports no output rows of query ${newest.queryId}`);
  return rows;
}

/** One pull through trino-client from a server started with --cpu-prof, this process profiled meanwhile. */
async function profilePull(
  cliPath: string,
  schema: string,
  sql: string,
  expectedRows: number,
): Promise<Pick<LargeResultsRun, 'serverProfile' | 'serverThreadsProfile' | 'clientProfile' | 'profileError'>> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-prof-'));
  try {
    const env = { ...process.env, NODE_OPTIONS: serverHeapOptions(NODE_MEMORY_BYTES) };
    const server = await startEngineServer({ cliPath, env, args: NODE_ARGS, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
    let client: ProfileSummary;
    try {
      await warmUp(server.url, schema);
      const { profile } = await profileThisProcess(() => pullThroughTrinoClient(server.url, sql, expectedRows));
      client = topSelfCosts(profile, PROFILE_TOP);
    } finally {
      // The server writes its profile as it exits.
      await server.stop();
    }
    const { mainThread, otherThreads } = readThreadProfiles(dir);
    if (mainThread === undefined) return { clientProfile: client, profileError: 'the server wrote no CPU profile' };
    // The warm-up is in the server's profiles too: the text pool's generation is left out by name.
    return {
      serverProfile: topSelfCosts(mainThread, PROFILE_TOP, WARM_UP_FRAMES),
      ...(otherThreads.length > 0 ? { serverThreadsProfile: topSelfCosts(mergeProfiles(otherThreads), PROFILE_TOP, WARM_UP_FRAMES) } : {}),
      clientProfile: client,
    };
  } catch (e) {
    return { profileError: (e as Error).message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The tpch connector builds its text pool (the comments' words) once per process and thread, which
 * takes seconds: a query that reads every comment of the table builds it before anything is timed.
 */
async function warmUp(serverUrl: string, schema: string): Promise<void> {
  const outcome = await executeStatement(
    serverUrl,
    `SELECT max(o_comment) FROM tpch."${schema}".orders`,
    { user: 'bench', source: 'bench', catalog: 'tpch', schema },
    { timeoutMillis: 10 * 60 * 1000 },
  );
  if (outcome.error) throw new Error(`warm-up: ${outcome.error.message}`);
}

function describePull(pull: ResultPull): string {
  if (pull.error) return `${pull.client}: error: ${pull.error}`;
  return `${pull.client}: ${pull.rows} rows in ${(pull.millis / 1000).toFixed(1)} s, ${Math.round(pull.rowsPerSecond)} rows/s`;
}
