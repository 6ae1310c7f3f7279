// `make bench` options: --scale, --queries, --threads, --runs, --warmup, --suites, --cluster-workers,
// --cluster-worker-threads, --concurrency, --concurrency-seconds, --pg-rows, --pg-splits, --ui-queries, --parquet-files,
// --parquet-sf10, --parquet-cluster, --scaling-max, --session name=value (repeatable).

import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  scale: number;
  queries: number[];
  threads: number;
  runs: number;
  warmup: number;
  /** What to run: `memory` (memory tables on one node), `cluster` (the tpch catalog on one node and on a cluster), `postgresql` (a table read through the postgresql connector), `ui` (the web interface's query list at 10,000 queries), `rss` (resident memory per memory setting), `parquet` (TPC-H from Parquet files through lake tables), `results` (a large result pulled by clients), `scaling` (queries at growing scale factors). */
  suites: BenchSuite[];
  /** The cluster suite's workers (beside its coordinator). */
  clusterWorkers: number;
  /**
   * Each cluster worker's task.maxWorkerThreads: by default its share of this machine's cores, as the
   * operator sizes a worker pod's threads by its CPU limit (workers sharing one machine get a share each).
   */
  clusterWorkerThreads: number;
  /** The cluster suite's concurrency phase: this many clients, each running TPC-H queries for this many seconds. */
  concurrency: number;
  concurrencySeconds: number;
  /** The postgresql suite's table size, and the key ranges it is read in besides one split. */
  pgRows: number;
  pgSplits: number;
  /** The ui suite's finished queries held by the coordinator. */
  uiQueries: number;
  /** Whose Parquet files the parquet suite queries: DuckDB's, ours, or both (--parquet-files duckdb,ours). */
  parquetFiles: ParquetWriter[];
  /** The parquet suite also runs q1 and q6 on lineitem sf10 written as Parquet (--parquet-sf10; on by default from --scale 10). */
  parquetLargeScale: boolean;
  /** The parquet suite also runs every query on a coordinator with workers (--parquet-cluster false: the single node only). */
  parquetCluster: boolean;
  /** The scaling suite's largest scale factor: 0.1, then 1, then 10 as far as this (--scaling-max; default 10 from --scale 10, else 1). */
  scalingMax: number;
  /** Session properties of every query (task_concurrency from --threads, then each --session name=value), to compare settings. */
  sessionProperties: Record<string, string>;
}

export const BENCH_SUITES = ['memory', 'cluster', 'postgresql', 'ui', 'rss', 'parquet', 'results', 'scaling'] as const;
export type BenchSuite = (typeof BENCH_SUITES)[number];
export const PARQUET_WRITERS = ['duckdb', 'ours'] as const;
export type ParquetWriter = (typeof PARQUET_WRITERS)[number];

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string', default: '1' },
      queries: { type: 'string', default: '1-22' },
      threads: { type: 'string', default: '2' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      suites: { type: 'string', default: BENCH_SUITES.join(',') },
      'cluster-workers': { type: 'string', default: '2' },
      'cluster-worker-threads': { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      'concurrency-seconds': { type: 'string', default: '60' },
      'pg-rows': { type: 'string', default: '1000000' },
      'pg-splits': { type: 'string', default: '4' },
      'ui-queries': { type: 'string', default: '10000' },
      'parquet-files': { type: 'string', default: PARQUET_WRITERS.join(',') },
      'parquet-sf10': { type: 'boolean' },
      'parquet-cluster': { type: 'string', default: 'true' },
      'scaling-max': { type: 'string' },
      session: { type: 'string', multiple: true },
    },
  });
  const positive = (name: string, text: string, integer: boolean): number => {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got '${text}'`);
    return n;
  };
  const scale = positive('scale', values.scale!, false);
  const clusterWorkers = positive('cluster-workers', values['cluster-workers']!, true);
  const workerThreads = values['cluster-worker-threads'];
  return {
    scale,
    queries: parseQueryList(values.queries!),
    threads: positive('threads', values.threads!, true),
    runs: positive('runs', values.runs!, true),
    warmup: Number(values.warmup),
    suites: parseList('suites', values.suites!, BENCH_SUITES),
    clusterWorkers,
    clusterWorkerThreads:
      workerThreads === undefined
        ? Math.max(1, Math.floor(availableParallelism() / clusterWorkers))
        : positive('cluster-worker-threads', workerThreads, true),
    concurrency: positive('concurrency', values.concurrency!, true),
    concurrencySeconds: positive('concurrency-seconds', values['concurrency-seconds']!, false),
    pgRows: positive('pg-rows', values['pg-rows']!, true),
    pgSplits: positive('pg-splits', values['pg-splits']!, true),
    uiQueries: positive('ui-queries', values['ui-queries']!, true),
    parquetFiles: parseList('parquet-files', values['parquet-files']!, PARQUET_WRITERS),
    parquetLargeScale: values['parquet-sf10'] ?? scale >= 10,
    parquetCluster: parseList('parquet-cluster', values['parquet-cluster']!, ['true', 'false'] as const).includes('true'),
    scalingMax: values['scaling-max'] === undefined ? (scale >= 10 ? 10 : 1) : positive('scaling-max', values['scaling-max'], false),
    sessionProperties: { task_concurrency: values.threads!, ...parseSessionProperties(values.session ?? []) },
  };
}

/** "2 workers of 1 thread each": the cluster's workers as the reports name them. */
export function clusterWorkersText(o: Pick<BenchOptions, 'clusterWorkers' | 'clusterWorkerThreads'>): string {
  const threads = o.clusterWorkerThreads === 1 ? '1 thread' : `${o.clusterWorkerThreads} threads`;
  return `${o.clusterWorkers} workers of ${threads} each`;
}

/** "memory,cluster" -> those of `known`, each known, in `known`'s order. */
function parseList<T extends string>(option: string, text: string, known: readonly T[]): T[] {
  const items = text.split(',').map((s) => s.trim());
  const unknown = items.filter((s) => !(known as readonly string[]).includes(s));
  if (unknown.length > 0 || items.length === 0) throw new Error(`--${option}: '${text}' is not a list of ${known.join(', ')}`);
  return known.filter((s) => items.includes(s));
}

/** "1,3,5-7" -> [1, 3, 5, 6, 7], each within 1..22. */
export function parseQueryList(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [from, to] = part.split('-').map((p) => Number(p.trim()));
    const last = to ?? from;
    if (!Number.isInteger(from) || !Number.isInteger(last) || from < 1 || last > 22 || from > last)
      throw new Error(`--queries: '${part}' is not a query number or range within 1-22`);
    for (let q = from; q <= last; q++) out.add(q);
  }
  return [...out].sort((a, b) => a - b);
}

/** The tpch schema of a scale factor: 0.01 is `tiny`, 1 is `sf1`, 0.1 is `sf0.1`. */
export function tpchSchema(scale: number): string {
  return scale === 0.01 ? 'tiny' : `sf${scale}`;
}

/** ["name=value", ...] -> { name: value, ... }. */
function parseSessionProperties(items: readonly string[]): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) throw new Error(`--session: '${item}' is not name=value`);
    properties[item.slice(0, at)] = item.slice(at + 1);
  }
  return properties;
}
