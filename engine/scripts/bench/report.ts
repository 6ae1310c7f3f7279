// Prints the benchmark table and writes it as JSON under bench/results/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryMemory } from './memory.js';
import type { BenchOptions } from './options.js';
import type { Responsiveness } from './responsiveness.js';
import { geometricMean } from './statistics.js';

export interface QueryFigures {
  query: number;
  engineMillis: number;
  duckdbMillis: number;
  ratio: number;
  equal: boolean | undefined;
  difference?: string;
  error?: string;
  /** How the server answered while the query ran (all its runs, warm-up included). */
  responsiveness?: Responsiveness;
}

export interface BenchRun {
  startedAt: string;
  options: BenchOptions;
  loadMillis: { engine: number; duckdb: number };
  queries: QueryFigures[];
  geometricMeanRatio: number;
  totalMillis: { engine: number; duckdb: number };
  peakMemoryBytes: { engineServer: number | undefined; benchProcess: number };
  /** Counted peak against the server's RSS growth, per query (see memory.ts). */
  memory?: QueryMemory[];
}

export function summarise(figures: QueryFigures[]): { geometricMeanRatio: number; totalMillis: { engine: number; duckdb: number } } {
  const ok = figures.filter((f) => !f.error);
  const geometricMeanRatio = geometricMean(ok.map((f) => f.ratio));
  const total = (key: 'engineMillis' | 'duckdbMillis') => ok.reduce((s, f) => s + f[key], 0);
  return { geometricMeanRatio, totalMillis: { engine: total('engineMillis'), duckdb: total('duckdbMillis') } };
}

export function printRun(run: BenchRun): void {
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(
    `\nTPC-H scale ${run.options.scale}, ${run.options.threads} threads, median of ${run.options.runs} runs after ${run.options.warmup} warm-up`,
  );
  console.log(
    `load: engine ${ms(run.loadMillis.engine)} (CREATE TABLE AS from tpch), duckdb ${ms(run.loadMillis.duckdb)} (generate + read .tbl)\n`,
  );
  console.log(`${'query'.padEnd(6)}${pad('engine ms', 12)}${pad('duckdb ms', 12)}${pad('ratio', 9)}  result`);
  for (const f of run.queries) {
    const result = f.error ? `error: ${f.error}` : f.equal === undefined ? 'not checked' : f.equal ? 'equal' : `DIFFERENT: ${f.difference}`;
    console.log(
      `${`q${String(f.query).padStart(2, '0')}`.padEnd(6)}${pad(f.error ? '-' : f.engineMillis.toFixed(1), 12)}${pad(f.duckdbMillis.toFixed(1), 12)}${pad(f.error ? '-' : f.ratio.toFixed(2), 9)}  ${result}`,
    );
  }
  console.log(`\ngeometric mean of ratios: ${run.geometricMeanRatio.toFixed(2)}`);
  console.log(`total: engine ${ms(run.totalMillis.engine)}, duckdb ${ms(run.totalMillis.duckdb)}`);
  const mb = (b: number | undefined) => (b === undefined ? 'unknown' : `${(b / 1024 / 1024).toFixed(0)} MB`);
  console.log(
    `peak memory: engine server ${mb(run.peakMemoryBytes.engineServer)}, bench process (DuckDB) ${mb(run.peakMemoryBytes.benchProcess)}`,
  );
}

export function writeRun(run: BenchRun, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `tpch-sf${run.options.scale}-${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  return file;
}

function ms(millis: number): string {
  return millis >= 10_000 ? `${(millis / 1000).toFixed(1)} s` : `${millis.toFixed(0)} ms`;
}
