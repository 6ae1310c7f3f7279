// `make bench`: TPC-H on both engines in one run. Loads tpch.sf<scale> into memory tables (CREATE
// TABLE AS) and the same generated rows into DuckDB, runs each query after a warm-up through our
// full statement protocol (HTTP, JSON results) and through DuckDB's API, checks the results are
// equal, and prints per query our median, DuckDB's median and the ratio, and how the server
// answered meanwhile (worst /v1/info time, event loop delay). Prints, never fails.
//
//   node engine/dist/scripts/bench.js [--scale 1] [--queries 1-22] [--threads 2] [--runs 3] [--warmup 1]

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions, tpchSchema } from './bench/options.js';
import { jsonToScalar, typeOfName } from './bench/json-rows.js';
import { distinctCommentQuery, printMemory, serverHeapOptions, ServerMemoryProbe } from './bench/memory.js';
import { printRun, summarise, writeRun, type BenchRun, type QueryFigures } from './bench/report.js';
import { measureResponsiveness, printResponsiveness } from './bench/responsiveness.js';
import { executeStatement, type StatementSession } from './sqllogictest/statement-client.js';
import { startEngineServer } from './sqllogictest/server-process.js';
import { duckDbWithTpch, duckRows } from './tpch/duckdb-tpch.js';
import { tpchQuery } from './tpch/queries.js';
import { firstDifference } from './tpch/result-comparison.js';
import { TPCH_TABLE_NAMES } from './tpch/tbl-export.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '..', 'src', 'cli', 'main.js');
const RESULTS_DIR = resolve(here, '..', '..', '..', 'bench', 'results');
const TIMEOUT_MILLIS = 30 * 60 * 1000;
const BENCH_NODE_MEMORY_BYTES = 20 * 1024 ** 3;

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const schema = tpchSchema(options.scale);
  const startedAt = new Date().toISOString();
  // The server's heap must hold its node memory (it refuses to start otherwise): the child inherits this.
  process.env.NODE_OPTIONS = serverHeapOptions(BENCH_NODE_MEMORY_BYTES);
  const server = await startEngineServer({ cliPath: CLI, args: ['--query-max-memory-per-node', '16GB', '--node-memory', `${BENCH_NODE_MEMORY_BYTES}B`] });
  const memory = new ServerMemoryProbe(server.url, server.pid);
  try {
    const session: StatementSession = { user: 'bench', source: 'bench', catalog: 'memory', schema: 'bench', properties: { task_concurrency: String(options.threads) } };
    const run = async (sql: string) => {
      const outcome = await executeStatement(server.url, sql, session, { timeoutMillis: TIMEOUT_MILLIS });
      if (outcome.error) throw new Error(outcome.error.message);
      return outcome;
    };

    console.log(`loading tpch.${schema} into memory tables...`);
    let started = performance.now();
    await run('DROP SCHEMA IF EXISTS memory.bench CASCADE');
    await run('CREATE SCHEMA memory.bench');
    for (const table of TPCH_TABLE_NAMES) await run(`CREATE TABLE memory.bench.${table} AS SELECT * FROM tpch."${schema}".${table}`);
    const engineLoad = performance.now() - started;
    console.log(`loading the same rows into DuckDB...`);
    started = performance.now();
    const duck = await duckDbWithTpch(schema, options.threads);
    const duckLoad = performance.now() - started;

    const figures: QueryFigures[] = [];
    for (const q of options.queries) {
      const sql = tpchQuery(q);
      process.stdout.write(`q${String(q).padStart(2, '0')} `);
      const duckTimes: number[] = [];
      let duckResult: unknown[][] = [];
      for (let i = 0; i < options.warmup + options.runs; i++) {
        const t = performance.now();
        duckResult = await duckRows(duck, sql);
        if (i >= options.warmup) duckTimes.push(performance.now() - t);
      }
      const engineTimes: number[] = [];
      try {
        const { result: outcome, responsiveness } = await measureResponsiveness(server.url, async () => {
          let outcome = await run(sql);
          const last = options.warmup + options.runs - 1;
          for (let i = 0; i <= last; i++) {
            const t = performance.now();
            outcome = i === last ? await memory.measure(`q${String(q).padStart(2, '0')}`, sql, () => run(sql)) : await run(sql);
            if (i >= options.warmup) engineTimes.push(performance.now() - t);
          }
          return outcome;
        });
        const types = outcome.columns.map((c) => typeOfName(c.type));
        const rows = outcome.rows.map((r) => r.map((v, c) => jsonToScalar(v, types[c])));
        const difference = firstDifference(rows, types, outcome.columns.map((c) => c.name), duckResult);
        const engineMillis = median(engineTimes);
        const duckdbMillis = median(duckTimes);
        figures.push({ query: q, engineMillis, duckdbMillis, ratio: engineMillis / duckdbMillis, equal: difference === undefined, difference, responsiveness });
        console.log(`${engineMillis.toFixed(0)} ms vs ${duckdbMillis.toFixed(0)} ms`);
      } catch (e) {
        figures.push({ query: q, engineMillis: NaN, duckdbMillis: median(duckTimes), ratio: NaN, equal: undefined, error: (e as Error).message });
        console.log(`error: ${(e as Error).message}`);
      }
    }
    const distinct = distinctCommentQuery(schema);
    console.log(`${distinct} ...`);
    try {
      await run(distinct);
      await memory.measure('distinct comment', distinct, () => run(distinct));
    } catch (e) {
      console.log(`error: ${(e as Error).message}`);
    }
    const result: BenchRun = {
      startedAt,
      options,
      loadMillis: { engine: engineLoad, duckdb: duckLoad },
      queries: figures,
      ...summarise(figures),
      peakMemoryBytes: { engineServer: peakRss(server.pid), benchProcess: process.resourceUsage().maxRSS * 1024 },
      memory: memory.figures,
    };
    printRun(result);
    printMemory(memory.figures);
    printResponsiveness(figures);
    console.log(`\nwritten to ${writeRun(result, RESULTS_DIR)}`);
  } finally {
    await server.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Peak resident memory of a process (VmHWM), from /proc. */
function peakRss(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
