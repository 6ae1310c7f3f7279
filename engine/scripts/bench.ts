// `make bench`: TPC-H on our engine against DuckDB, in eight suites (--suites, all by default):
//  - memory: loads tpch.sf<scale> into memory tables (CREATE TABLE AS) on one node, runs each query
//    after a warm-up through our full statement protocol (HTTP, JSON results), and prints per query
//    our median, DuckDB's median and the ratio, and how the server answered meanwhile (worst
//    /v1/info time, event loop delay);
//  - cluster: the same queries on the tpch catalog itself, on one node and on a coordinator with
//    --cluster-workers workers, side by side (see bench/cluster-vs-single.ts), and the throughput of
//    one repartition;
//  - postgresql: rows/s of a full table read through the postgresql connector against psql's COPY
//    TO STDOUT, one split and --pg-splits key ranges, one node and a cluster (bench/postgresql-scan.ts);
//  - ui: the web interface's query list refreshed on a coordinator holding --ui-queries (10,000)
//    finished queries: time and bytes per refresh (see bench/ui-query-list.ts);
//  - rss: each memory setting against the peak and idle resident memory of a coordinator and a
//    worker under TPC-H and distinct-count loads (see bench/rss.ts);
//  - parquet: the tables written as Parquet by DuckDB and by us, queried through lake tables on one
//    node and on a cluster against DuckDB reading the same files (see bench/parquet-lake.ts); with
//    --parquet-sf10 (default from --scale 10) also q1 and q6 on sf10 lineitem, with peak RSS.
//  - results: SELECT * FROM tpch.sf<scale>.orders pulled through trino-client and through
//    `engine sql` to /dev/null: rows/s, MB/s, server and client CPU, the node's worst event-loop
//    delay, DuckDB's time for the same rows; then the top costs of a profiled pull on either side
//    (see bench/large-results.ts);
//  - scaling: q1, q3, q6, q9, q18 at sf0.1, sf1 (and sf10 with --scaling-max 10 or --scale 10) on one
//    node: time and peak RSS per query and scale against DuckDB's time (see bench/scaling.ts).
// DuckDB holds the same generated rows; every result is checked equal to its. Prints, never fails.
//
//   node engine/dist/scripts/bench.js [--scale 1] [--queries 1-22] [--threads 2] [--runs 3] [--warmup 1]
//                                     [--suites memory,cluster,postgresql,ui,rss,parquet,results,scaling] [--cluster-workers 2]
//                                     [--concurrency 8] [--concurrency-seconds 60] [--pg-rows 1000000] [--pg-splits 4]
//                                     [--ui-queries 10000] [--parquet-sf10] [--scaling-max 1] [--session name=value ...]

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runClusterSuite } from './bench/cluster-vs-single.js';
import { runLargeResultsSuite } from './bench/large-results.js';
import { runScalingSuite } from './bench/scaling.js';
import { runParquetSuite } from './bench/parquet-lake.js';
import { runUiSuite } from './bench/ui-query-list.js';
import { runRssSuite } from './bench/rss.js';
import { differenceFromDuckDb, DuckDbReference } from './bench/duckdb-reference.js';
import { distinctCommentQuery, printMemory, processMemory, serverHeapOptions, ServerMemoryProbe } from './bench/memory.js';
import { parseBenchOptions, tpchSchema, type BenchOptions } from './bench/options.js';
import { runPostgresSuite } from './bench/postgresql-scan.js';
import { printRun, summarise, writeRun, type BenchRun, type QueryFigures } from './bench/report.js';
import { measureResponsiveness, printResponsiveness } from './bench/responsiveness.js';
import { median } from './bench/statistics.js';
import { executeStatement, type StatementSession } from './sqllogictest/statement-client.js';
import { startEngineServer } from './sqllogictest/server-process.js';
import { duckDbWithTpch } from './tpch/duckdb-tpch.js';
import { tpchQuery } from './tpch/queries.js';
import { TPCH_TABLE_NAMES } from './tpch/tbl-export.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '..', 'src', 'cli', 'main.js');
const RESULTS_DIR = resolve(here, '..', '..', '..', 'bench', 'results');
const TIMEOUT_MILLIS = 30 * 60 * 1000;
const BENCH_NODE_MEMORY_BYTES = 20 * 1024 ** 3;

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const duckDbs = new DuckDbsByScale(options);
  if (options.suites.includes('memory') || options.suites.includes('cluster') || options.suites.includes('parquet')) {
    console.log(`loading tpch.${tpchSchema(options.scale)} into DuckDB...`);
    const started = performance.now();
    const { connection: duckTpch, reference: duck } = await duckDbs.at(options.scale);
    const duckLoadMillis = performance.now() - started;
    if (options.suites.includes('memory')) await memoryTablesSuite(options, duck, duckLoadMillis, startedAt);
    if (options.suites.includes('cluster'))
      await runClusterSuite({ options, duck, cliPath: CLI, resultsDir: RESULTS_DIR, timeoutMillis: TIMEOUT_MILLIS });
    if (options.suites.includes('parquet'))
      await runParquetSuite({ options, duckTpch, cliPath: CLI, resultsDir: RESULTS_DIR, timeoutMillis: TIMEOUT_MILLIS });
  }
  if (options.suites.includes('postgresql')) {
    await runPostgresSuite({
      rows: options.pgRows,
      runs: options.runs,
      splits: options.pgSplits,
      clusterWorkers: options.clusterWorkers,
      cliPath: CLI,
      resultsDir: RESULTS_DIR,
    });
  }
  if (options.suites.includes('ui'))
    await runUiSuite({ cliPath: CLI, resultsDir: RESULTS_DIR, queries: options.uiQueries, repetitions: 20 });
  if (options.suites.includes('rss')) await runRssSuite({ options, cliPath: CLI, resultsDir: RESULTS_DIR });
  if (options.suites.includes('results')) {
    console.log(`loading tpch.${tpchSchema(options.scale)} into DuckDB...`);
    await runLargeResultsSuite({ options, duckTpch: (await duckDbs.at(options.scale)).connection, cliPath: CLI, resultsDir: RESULTS_DIR });
  }
  if (options.suites.includes('scaling')) {
    await runScalingSuite({
      options,
      duckAt: async (scale) => (await duckDbs.at(scale)).reference,
      cliPath: CLI,
      resultsDir: RESULTS_DIR,
      timeoutMillis: TIMEOUT_MILLIS,
    });
  }
}

/** DuckDB loaded with tpch at each scale a suite asks for, once per scale. */
class DuckDbsByScale {
  private readonly loaded = new Map<number, Promise<{ connection: DuckDBConnection; reference: DuckDbReference }>>();

  constructor(private readonly options: BenchOptions) {}

  at(scale: number): Promise<{ connection: DuckDBConnection; reference: DuckDbReference }> {
    let duck = this.loaded.get(scale);
    if (duck === undefined) {
      duck = duckDbWithTpch(tpchSchema(scale), this.options.threads).then((connection) => ({
        connection,
        reference: new DuckDbReference(connection, this.options),
      }));
      this.loaded.set(scale, duck);
    }
    return duck;
  }
}

/** The memory suite: memory tables on one node against DuckDB. */
async function memoryTablesSuite(options: BenchOptions, duck: DuckDbReference, duckLoadMillis: number, startedAt: string): Promise<void> {
  const schema = tpchSchema(options.scale);
  // The server's heap must hold its node memory (it refuses to start otherwise).
  const env = { ...process.env, NODE_OPTIONS: serverHeapOptions(BENCH_NODE_MEMORY_BYTES) };
  const server = await startEngineServer({
    cliPath: CLI,
    env,
    args: ['--query-max-memory-per-node', '16GB', '--node-memory', `${BENCH_NODE_MEMORY_BYTES}B`],
  });
  const memory = new ServerMemoryProbe(server.url, server.pid);
  try {
    const session: StatementSession = {
      user: 'bench',
      source: 'bench',
      catalog: 'memory',
      schema: 'bench',
      properties: options.sessionProperties,
    };
    const run = async (sql: string) => {
      const outcome = await executeStatement(server.url, sql, session, { timeoutMillis: TIMEOUT_MILLIS });
      if (outcome.error) throw new Error(outcome.error.message);
      return outcome;
    };

    console.log(`loading tpch.${schema} into memory tables...`);
    const started = performance.now();
    await run('DROP SCHEMA IF EXISTS memory.bench CASCADE');
    await run('CREATE SCHEMA memory.bench');
    for (const table of TPCH_TABLE_NAMES) await run(`CREATE TABLE memory.bench.${table} AS SELECT * FROM tpch."${schema}".${table}`);
    const engineLoad = performance.now() - started;

    const figures: QueryFigures[] = [];
    for (const q of options.queries) {
      const sql = tpchQuery(q);
      process.stdout.write(`q${String(q).padStart(2, '0')} `);
      const duckAnswer = await duck.answer(q);
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
        const difference = differenceFromDuckDb(outcome, duckAnswer.rows);
        const engineMillis = median(engineTimes);
        const duckdbMillis = duckAnswer.medianMillis;
        figures.push({
          query: q,
          engineMillis,
          duckdbMillis,
          ratio: engineMillis / duckdbMillis,
          equal: difference === undefined,
          difference,
          responsiveness,
        });
        console.log(`${engineMillis.toFixed(0)} ms vs ${duckdbMillis.toFixed(0)} ms`);
      } catch (e) {
        figures.push({
          query: q,
          engineMillis: NaN,
          duckdbMillis: duckAnswer.medianMillis,
          ratio: NaN,
          equal: undefined,
          error: (e as Error).message,
        });
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
      loadMillis: { engine: engineLoad, duckdb: duckLoadMillis },
      queries: figures,
      ...summarise(figures),
      peakMemoryBytes: { engineServer: processMemory(server.pid, 'VmHWM'), benchProcess: process.resourceUsage().maxRSS * 1024 },
      memory: memory.figures,
    };
    printRun(result);
    printMemory(memory.figures);
    printResponsiveness(figures.map((f) => ({ label: `q${String(f.query).padStart(2, '0')}`, responsiveness: f.responsiveness })));
    console.log(`\nwritten to ${writeRun(result, RESULTS_DIR)}`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
