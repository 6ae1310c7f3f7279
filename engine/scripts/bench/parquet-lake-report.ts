// The parquet suite's figures: per set of files (written by DuckDB, written by us) and per query,
// DuckDB's median on those files, our single node's and our cluster's, their ratios and whether
// each answer equals DuckDB's; geometric means; the sf10 run's peak resident memory; printed and
// written as JSON under bench/results/.

import {
  millis,
  printLoadAverage,
  seconds,
  verdict,
  writeResultFile,
  type ClusterQueryFigures,
  type EngineAnswer,
} from './cluster-report.js';
import { clusterWorkersText, type BenchOptions, type ParquetWriter } from './options.js';
import { geometricMean } from './statistics.js';

export interface FileSetRun {
  /** Who wrote the Parquet files the queries read. */
  writer: ParquetWriter;
  queries: ClusterQueryFigures[];
}

export interface LargeScaleRun {
  scale: number;
  /** Our CREATE TABLE AS of lineitem from tpch. */
  writeMillis: number;
  queries: ClusterQueryFigures[];
  /** Per node (single, coordinator, worker-1..): VmHWM after the queries, on nodes started for them. */
  peakMemoryBytes: Record<string, number | undefined>;
}

export interface ParquetBenchRun {
  startedAt: string;
  options: BenchOptions;
  /** All tables: DuckDB's COPY ... (FORMAT PARQUET), our CREATE TABLE AS from tpch (when our files were asked for). */
  writeMillis: { duckdb: number; engine: number | undefined };
  fileSets: FileSetRun[];
  /** Per node over both sets of files (VmHWM). */
  peakMemoryBytes: Record<string, number | undefined>;
  largeScale?: LargeScaleRun;
  largeScaleError?: string;
  /** os.loadavg() at the start and the end: the machine is shared. */
  loadAverage: { start: number[]; end: number[] };
}

/** The geometric means of one set of files, over the queries whose answers were equal to DuckDB's on both engines. */
export function parquetSummary(queries: readonly ClusterQueryFigures[]): {
  singleVsDuckdb: number;
  clusterVsDuckdb: number;
  clusterVsSingle: number;
  counted: number;
} {
  // A cluster left out (--parquet-cluster false) does not leave its queries out.
  const ok = queries.filter((f) => f.single.equal === true && (f.cluster.equal === true || f.cluster.error === 'not run'));
  return {
    singleVsDuckdb: geometricMean(ok.map((f) => f.single.medianMillis / f.duckdbMillis)),
    clusterVsDuckdb: geometricMean(ok.map((f) => f.cluster.medianMillis / f.duckdbMillis)),
    clusterVsSingle: geometricMean(ok.map((f) => f.ratio)),
    counted: ok.length,
  };
}

export function printParquetRun(run: ParquetBenchRun): void {
  const o = run.options;
  console.log(
    `\nTPC-H scale ${o.scale} from Parquet through lake tables: DuckDB on the same files, our one node, our coordinator + ${clusterWorkersText(o)}; ${o.threads} threads a query, median of ${o.runs} runs after ${o.warmup} warm-up`,
  );
  const ours = run.writeMillis.engine === undefined ? '' : `, ours (CREATE TABLE AS from tpch) ${seconds(run.writeMillis.engine)}`;
  console.log(`writing all tables as Parquet: DuckDB ${seconds(run.writeMillis.duckdb)}${ours}`);
  for (const set of run.fileSets) {
    console.log(`\nfiles written by ${set.writer === 'duckdb' ? 'DuckDB' : 'our engine'}:`);
    printQueries(set.queries);
    const s = parquetSummary(set.queries);
    console.log(
      `geometric means over ${s.counted} queries answered equal: single/DuckDB ${s.singleVsDuckdb.toFixed(2)} (goal <= 6), cluster/DuckDB ${s.clusterVsDuckdb.toFixed(2)}, cluster/single ${s.clusterVsSingle.toFixed(2)} (goal <= 1.3)`,
    );
  }
  console.log(`\npeak RSS MB per node: ${memory(run.peakMemoryBytes)}`);
  if (run.largeScale) {
    const l = run.largeScale;
    console.log(`\nsf${l.scale} lineitem written by us (${seconds(l.writeMillis)}), on fresh nodes:`);
    printQueries(l.queries);
    console.log(`peak RSS MB per node: ${memory(l.peakMemoryBytes)}`);
  }
  if (run.largeScaleError) console.log(`\nsf10 q1 and q6: error: ${run.largeScaleError}`);
  printLoadAverage(run.loadAverage);
}

export function writeParquetRun(run: ParquetBenchRun, dir: string): string {
  return writeResultFile(dir, `tpch-parquet-sf${run.options.scale}`, run);
}

function printQueries(queries: readonly ClusterQueryFigures[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(
    `${'query'.padEnd(6)}${pad('duckdb ms', 11)}${pad('single ms', 11)}${pad('single/duck', 13)}${pad('cluster ms', 12)}${pad('cluster/single', 16)}  result`,
  );
  for (const f of queries) {
    const ratio = (a: EngineAnswer, b: number) => (a.error ? '-' : (a.medianMillis / b).toFixed(2));
    console.log(
      `${`q${String(f.query).padStart(2, '0')}`.padEnd(6)}${pad(f.duckdbMillis.toFixed(0), 11)}${pad(millis(f.single), 11)}${pad(ratio(f.single, f.duckdbMillis), 13)}${pad(millis(f.cluster), 12)}${pad(Number.isNaN(f.ratio) ? '-' : f.ratio.toFixed(2), 16)}  ${verdict('single', f.single)}, ${verdict('cluster', f.cluster)}`,
    );
  }
}

function memory(bytes: Record<string, number | undefined>): string {
  return Object.entries(bytes)
    .map(([node, b]) => `${node} ${b === undefined ? '-' : (b / 2 ** 20).toFixed(0)}`)
    .join(', ');
}
