// The cluster suite's figures: per TPC-H query the single node's and the cluster's medians and
// their ratio, both results checked against DuckDB, how every node answered meanwhile; the
// geometric mean of the ratios, the repartition throughput, the concurrency phase; printed and written as JSON under
// bench/results/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConcurrencyFigures } from './concurrency.js';
import { clusterWorkersText, type BenchOptions } from './options.js';
import type { RepartitionThroughput } from './repartition-throughput.js';
import type { Responsiveness } from './responsiveness.js';

/** One engine's answer to a query: its median, and how it compares with DuckDB's rows. */
export interface EngineAnswer {
  medianMillis: number;
  equal: boolean | undefined;
  difference?: string;
  error?: string;
}

export interface ClusterQueryFigures {
  query: number;
  single: EngineAnswer;
  cluster: EngineAnswer;
  /** cluster / single. */
  ratio: number;
  duckdbMillis: number;
  /** Per node (single, coordinator, worker-1..): all runs of both engines, warm-ups included. */
  responsiveness: Record<string, Responsiveness>;
}

export interface ClusterBenchRun {
  startedAt: string;
  options: BenchOptions;
  workers: number;
  queries: ClusterQueryFigures[];
  /** Of cluster / single over the queries both answered. */
  geometricMeanRatio: number;
  totalMillis: { single: number; cluster: number };
  /** Per node, over the whole run. */
  worstLoopDelayMillis: Record<string, number>;
  worstInfoMillis: Record<string, number>;
  peakMemoryBytes: Record<string, number | undefined>;
  repartition?: RepartitionThroughput;
  repartitionError?: string;
  /** The concurrency phase on the cluster (see concurrency.ts). */
  concurrency?: ConcurrencyFigures;
  concurrencyError?: string;
  /** os.loadavg() at the start and the end: the machine is shared. */
  loadAverage: { start: number[]; end: number[] };
}

export function printClusterRun(run: ClusterBenchRun): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const o = run.options;
  console.log(
    `\nTPC-H scale ${o.scale} from the tpch catalog: one node against a coordinator + ${clusterWorkersText(o)}, ${o.threads} threads a query, median of ${o.runs} runs after ${o.warmup} warm-up`,
  );
  console.log(`${'query'.padEnd(6)}${pad('single ms', 12)}${pad('cluster ms', 12)}${pad('ratio', 8)}${pad('duckdb ms', 12)}  result`);
  for (const f of run.queries) {
    console.log(
      `${label(f.query).padEnd(6)}${pad(millis(f.single), 12)}${pad(millis(f.cluster), 12)}${pad(Number.isNaN(f.ratio) ? '-' : f.ratio.toFixed(2), 8)}${pad(f.duckdbMillis.toFixed(0), 12)}  ${verdict('single', f.single)}, ${verdict('cluster', f.cluster)}`,
    );
  }
  console.log(`\ngeometric mean of cluster/single: ${run.geometricMeanRatio.toFixed(2)} (issue 7 asks <= 1.5 at sf1)`);
  console.log(`total: single ${seconds(run.totalMillis.single)}, cluster ${seconds(run.totalMillis.cluster)}`);
  const nodes = Object.keys(run.worstLoopDelayMillis);
  console.log(`\nworst over the run, per node (/v1/info asked every 100 ms; event loop delay from /v1/status):`);
  console.log(`${'node'.padEnd(14)}${pad('loop delay ms', 15)}${pad('info ms', 10)}${pad('peak RSS MB', 13)}`);
  for (const node of nodes) {
    const rss = run.peakMemoryBytes[node];
    console.log(
      `${node.padEnd(14)}${pad(run.worstLoopDelayMillis[node].toFixed(0), 15)}${pad(run.worstInfoMillis[node].toFixed(0), 10)}${pad(rss === undefined ? '-' : (rss / 2 ** 20).toFixed(0), 13)}`,
    );
  }
  console.log(
    `\nworst event loop delay per query (ms; /v1/status reports its last 5-10 s, so a figure may include the end of the query before)`,
  );
  console.log(`${'query'.padEnd(6)}${nodes.map((n) => pad(n, 13)).join('')}`);
  for (const f of run.queries)
    console.log(
      `${label(f.query).padEnd(6)}${nodes.map((n) => pad(f.responsiveness[n]?.worstLoopDelayMillis?.toFixed(0) ?? '-', 13)).join('')}`,
    );
  printLoadAverage(run.loadAverage);
}

export function writeClusterRun(run: ClusterBenchRun, dir: string): string {
  return writeResultFile(dir, `tpch-cluster-sf${run.options.scale}`, run);
}

/** The machine's load average at the start and the end of a run (it is shared). */
export function printLoadAverage(load: { start: number[]; end: number[] }): void {
  console.log(
    `\nload average (1, 5, 15 min): start ${load.start.map((l) => l.toFixed(2)).join(' ')}, end ${load.end.map((l) => l.toFixed(2)).join(' ')}`,
  );
}

/** Writes a run as JSON to `<dir>/<name>-<its start time>.json`; returns the file. */
export function writeResultFile(dir: string, name: string, run: { startedAt: string }): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  return file;
}

function label(query: number): string {
  return `q${String(query).padStart(2, '0')}`;
}

export function millis(answer: EngineAnswer): string {
  return answer.error ? '-' : answer.medianMillis.toFixed(0);
}

export function verdict(engine: string, answer: EngineAnswer): string {
  if (answer.error) return `${engine} error: ${answer.error}`;
  if (answer.equal === undefined) return `${engine} not checked`;
  return answer.equal ? `${engine} equal` : `${engine} DIFFERENT: ${answer.difference}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
