// The scaling suite of `make bench`: TPC-H q1, q3, q6, q9 and q18 straight from the tpch catalog on
// one node at sf0.1, sf1 and (with --scaling-max 10, or --scale 10) sf10: per query and scale our
// median time and the node's peak resident memory while the query ran, DuckDB's median on the same
// rows beside it and every result checked against DuckDB's, so the growth of the cost with the data
// is visible. Printed and written as JSON under bench/results/.

import { loadavg } from 'node:os';
import { executeStatement, type StatementSession } from '../sqllogictest/statement-client.js';
import { tpchQuery } from '../tpch/queries.js';
import { printLoadAverage, writeResultFile } from './cluster-report.js';
import { startBenchNode } from './cluster-vs-single.js';
import { differenceFromDuckDb, type DuckDbReference } from './duckdb-reference.js';
import { processMemory, resetPeakRss } from './memory.js';
import { tpchSchema, type BenchOptions } from './options.js';
import { median } from './statistics.js';

export const SCALING_QUERIES = [1, 3, 6, 9, 18];
const SCALES = [0.1, 1, 10];

export interface ScalingFigures {
  query: number;
  scale: number;
  engineMillis: number;
  duckdbMillis: number;
  /** The node's peak resident set over the query's runs (its peak reset before them). */
  peakRssBytes: number | undefined;
  equal: boolean | undefined;
  difference?: string;
  error?: string;
}

export interface ScalingRun {
  startedAt: string;
  options: BenchOptions;
  scales: number[];
  figures: ScalingFigures[];
  loadAverage: { start: number[]; end: number[] };
}

export interface ScalingContext {
  options: BenchOptions;
  /** DuckDB holding tpch at `scale` (loaded on first use). */
  duckAt(scale: number): Promise<DuckDbReference>;
  cliPath: string;
  resultsDir: string;
  timeoutMillis: number;
}

export async function runScalingSuite(context: ScalingContext): Promise<ScalingRun> {
  const { options } = context;
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  const scales = SCALES.filter((s) => s <= options.scalingMax);
  const figures: ScalingFigures[] = [];
  console.log(`\nscaling: q${SCALING_QUERIES.join(', q')} at sf${scales.join(', sf')} on one node`);
  const server = await startBenchNode(context.cliPath, []);
  try {
    for (const scale of scales) {
      console.log(`loading tpch.${tpchSchema(scale)} into DuckDB...`);
      const duck = await context.duckAt(scale);
      const session: StatementSession = {
        user: 'bench',
        source: 'bench',
        catalog: 'tpch',
        schema: tpchSchema(scale),
        properties: options.sessionProperties,
      };
      for (const query of SCALING_QUERIES) {
        process.stdout.write(`sf${scale} q${String(query).padStart(2, '0')} `);
        const duckAnswer = await duck.answer(query);
        const sql = tpchQuery(query);
        const times: number[] = [];
        resetPeakRss(server.pid);
        let figure: ScalingFigures;
        try {
          let last;
          for (let i = 0; i < options.warmup + options.runs; i++) {
            const started = performance.now();
            last = await executeStatement(server.url, sql, session, { timeoutMillis: context.timeoutMillis });
            if (last.error) throw new Error(last.error.message);
            if (i >= options.warmup) times.push(performance.now() - started);
          }
          const difference = differenceFromDuckDb(last!, duckAnswer.rows);
          figure = {
            query,
            scale,
            engineMillis: median(times),
            duckdbMillis: duckAnswer.medianMillis,
            peakRssBytes: processMemory(server.pid, 'VmHWM'),
            equal: difference === undefined,
            ...(difference ? { difference } : {}),
          };
          console.log(`${figure.engineMillis.toFixed(0)} ms vs ${figure.duckdbMillis.toFixed(0)} ms`);
        } catch (e) {
          figure = {
            query,
            scale,
            engineMillis: NaN,
            duckdbMillis: duckAnswer.medianMillis,
            peakRssBytes: processMemory(server.pid, 'VmHWM'),
            equal: undefined,
            error: (e as Error).message,
          };
          console.log(`error: ${figure.error}`);
        }
        figures.push(figure);
      }
    }
  } finally {
    await server.stop();
  }
  const run: ScalingRun = { startedAt, options, scales, figures, loadAverage: { start: loadStart, end: loadavg() } };
  printScalingRun(run);
  console.log(`\nwritten to ${writeResultFile(context.resultsDir, `tpch-scaling-sf${scales[scales.length - 1]}`, run)}`);
  return run;
}

export function printScalingRun(run: ScalingRun): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const o = run.options;
  console.log(
    `\nTPC-H from the tpch catalog on one node by scale factor, ${o.threads} threads, median of ${o.runs} runs after ${o.warmup} warm-up; peak RSS of the node over the query's runs`,
  );
  const columns = run.scales.map((s) => `sf${s}`);
  console.log(
    `${'query'.padEnd(6)}${columns.map((c) => `${pad(`${c} ms`, 12)}${pad('duckdb ms', 11)}${pad('ratio', 7)}${pad('RSS MB', 8)}`).join('')}  result`,
  );
  for (const query of SCALING_QUERIES) {
    const row = run.scales.map((scale) => run.figures.find((f) => f.query === query && f.scale === scale));
    const cells = row.map((f) => {
      if (f === undefined) return pad('-', 38);
      const rss = f.peakRssBytes === undefined ? '-' : (f.peakRssBytes / 2 ** 20).toFixed(0);
      const ok = !f.error;
      return `${pad(ok ? f.engineMillis.toFixed(0) : 'error', 12)}${pad(f.duckdbMillis.toFixed(0), 11)}${pad(ok ? (f.engineMillis / f.duckdbMillis).toFixed(1) : '-', 7)}${pad(rss, 8)}`;
    });
    const verdicts = row.map((f, i) =>
      f === undefined
        ? ''
        : f.error
          ? `${columns[i]} error: ${f.error}`
          : f.equal
            ? `${columns[i]} equal`
            : `${columns[i]} DIFFERENT: ${f.difference}`,
    );
    console.log(`q${String(query).padStart(2, '0')}  ${cells.join('')}  ${verdicts.filter((v) => v !== '').join(', ')}`);
  }
  printLoadAverage(run.loadAverage);
}
