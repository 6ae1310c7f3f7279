// The results suite's figures: per pull (trino-client, the CLI) rows/s, the bytes the server wrote
// and its CPU time against the client's, the node's worst event-loop delay; DuckDB's time to produce
// the same rows; the profiles' top costs on the server and on the client. Printed and written as
// JSON under bench/results/.

import type { BenchOptions } from './options.js';
import type { ProfileCost } from './cpu-profile.js';
import { printLoadAverage, writeResultFile } from './cluster-report.js';

export interface ResultPull {
  client: 'trino-client' | 'engine sql (CSV)';
  rows: number;
  millis: number;
  rowsPerSecond: number;
  /** Bytes the server process wrote during the pull (/proc wchar: the responses, and little else). */
  serverWrittenBytes?: number;
  serverCpuMillis?: number;
  /** The server's main thread alone: the part of its CPU that holds the event loop. */
  serverMainThreadCpuMillis?: number;
  clientCpuMillis?: number;
  /** The largest event-loop delay the node's /v1/status reported during the pull. */
  worstLoopDelayMillis?: number;
  worstInfoMillis?: number;
  /** Time the server's main thread (and trino-client's, in the bench process) waited, runnable, for a CPU during the pull. */
  serverMainRunQueueWaitMillis?: number;
  clientRunQueueWaitMillis?: number;
  error?: string;
}

export interface ProfileSummary {
  sampledMillis: number;
  idleMillis: number;
  leftOutMillis: number;
  costs: ProfileCost[];
}

export interface LargeResultsRun {
  startedAt: string;
  options: BenchOptions;
  sql: string;
  /** DuckDB's row count of the table: every pull must receive as many. */
  rows: number;
  /** DuckDB producing the rows as JavaScript arrays in this process (best of --runs). */
  duckdbMillis: number;
  /** DuckDB reading the same result whole in its columnar chunks, not turned into JavaScript values (best of --runs). */
  duckdbChunksMillis: number;
  pulls: ResultPull[];
  /** The server's main thread, and its other threads (the executor's worker threads) together. */
  serverProfile?: ProfileSummary;
  serverThreadsProfile?: ProfileSummary;
  clientProfile?: ProfileSummary;
  profileError?: string;
  loadAverage: { start: number[]; end: number[] };
}

export function printLargeResults(run: LargeResultsRun): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const opt = (x: number | undefined, digits = 0) => (x === undefined ? '-' : x.toFixed(digits));
  console.log(`\n${run.sql}: ${run.rows} rows, ${run.options.runs} pulls each, one node`);
  console.log(
    `${'client'.padEnd(18)}${pad('s', 7)}${pad('rows/s', 10)}${pad('MB/s', 7)}${pad('server CPU s', 14)}${pad('client CPU s', 14)}${pad('server us/row', 15)}${pad('main us/row', 13)}${pad('client us/row', 15)}${pad('worst loop ms', 15)}${pad('worst info ms', 15)}${pad('server wait s', 15)}${pad('client wait s', 15)}`,
  );
  for (const p of run.pulls) {
    if (p.error) {
      console.log(`${p.client.padEnd(18)}error: ${p.error}`);
      continue;
    }
    const mbPerSecond = p.serverWrittenBytes === undefined ? undefined : p.serverWrittenBytes / 2 ** 20 / (p.millis / 1000);
    const perRow = (cpuMillis: number | undefined) => opt(cpuMillis === undefined ? undefined : (cpuMillis * 1000) / p.rows, 2);
    console.log(
      `${p.client.padEnd(18)}${pad((p.millis / 1000).toFixed(1), 7)}${pad(p.rowsPerSecond.toFixed(0), 10)}${pad(opt(mbPerSecond, 1), 7)}${pad(opt(p.serverCpuMillis && p.serverCpuMillis / 1000, 1), 14)}${pad(opt(p.clientCpuMillis && p.clientCpuMillis / 1000, 1), 14)}${pad(perRow(p.serverCpuMillis), 15)}${pad(perRow(p.serverMainThreadCpuMillis), 13)}${pad(perRow(p.clientCpuMillis), 15)}${pad(opt(p.worstLoopDelayMillis), 15)}${pad(opt(p.worstInfoMillis), 15)}${pad(opt(p.serverMainRunQueueWaitMillis && p.serverMainRunQueueWaitMillis / 1000, 1), 15)}${pad(opt(p.clientRunQueueWaitMillis && p.clientRunQueueWaitMillis / 1000, 1), 15)}`,
    );
  }
  const duckdb = (label: string, millis: number) =>
    console.log(`${label.padEnd(18)}${pad((millis / 1000).toFixed(1), 7)}${pad((run.rows / (millis / 1000)).toFixed(0), 10)}`);
  duckdb('duckdb JS rows', run.duckdbMillis);
  duckdb('duckdb chunks', run.duckdbChunksMillis);
  console.log(
    'duckdb: in this process, the rows turned into JavaScript arrays (JS rows) or its result read whole in its own columnar chunks',
  );
  console.log(
    'MB/s: bytes the server wrote during the pull (/proc wchar) per second; goal (issue 21): >= 300,000 rows/s through trino-client, loop never held > 100 ms',
  );
  console.log(
    'us/row: CPU time per row (user + system) of the server (every thread), of its main thread alone (the event loop) and of the client: steadier than rows/s on a busy machine',
  );
  console.log(
    "wait s: time the server's main thread and trino-client's (the bench process's) waited, runnable, for a CPU during the pull (/proc schedstat): the busy machine's share of the wall time",
  );
  if (run.profileError) console.log(`\nprofile: error: ${run.profileError}`);
  printProfile('server main thread', run.serverProfile);
  printProfile('server worker threads', run.serverThreadsProfile);
  printProfile('client (trino-client in the bench process)', run.clientProfile);
  printLoadAverage(run.loadAverage);
}

function printProfile(side: string, profile: ProfileSummary | undefined): void {
  if (profile === undefined) return;
  console.log(
    `\nprofile of one trino-client pull, ${side}: ${(profile.sampledMillis / 1000).toFixed(1)} s busy (besides ${(profile.idleMillis / 1000).toFixed(1)} s idle, ${(profile.leftOutMillis / 1000).toFixed(1)} s building the warm-up's text pool); top self time`,
  );
  for (const c of profile.costs)
    console.log(`${(c.selfMillis / 1000).toFixed(2).padStart(8)} s ${(c.share * 100).toFixed(1).padStart(5)}%  ${c.frame}`);
}

export function writeLargeResults(run: LargeResultsRun, dir: string): string {
  return writeResultFile(dir, `large-results-sf${run.options.scale}`, run);
}
