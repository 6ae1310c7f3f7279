// The parquet suite of `make bench`: TPC-H from Parquet files through lake tables. The rows of the
// tpch generator are written as Parquet twice: by DuckDB (COPY ... (FORMAT PARQUET), from the rows
// it already holds) and by our engine (CREATE TABLE AS from tpch into a managed lake table). Then
// every query runs on our engine over each set of files (external tables over DuckDB's files, our
// managed tables), one node and a coordinator with N workers taking turns run by run, against
// DuckDB querying the same files (read_parquet views) in the same run; every answer is checked
// equal to DuckDB's on those files. With --parquet-sf10 (on by default from --scale 10), lineitem
// at sf10 written by us, q1 and q6 on fresh nodes, and each node's peak resident memory.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeStatement, type StatementSession } from '../sqllogictest/statement-client.js';
import type { EngineServerProcess } from '../sqllogictest/server-process.js';
import { TPCH_TABLE_NAMES } from '../tpch/tbl-export.js';
import { benchQuery, describe, failOnError, startBenchNode, startSingleAndCluster, type Engine } from './cluster-vs-single.js';
import { DuckDbReference } from './duckdb-reference.js';
import { processMemory } from './memory.js';
import { tpchSchema, type BenchOptions, type ParquetWriter } from './options.js';
import { printParquetRun, writeParquetRun, type FileSetRun, type LargeScaleRun, type ParquetBenchRun } from './parquet-lake-report.js';

export interface ParquetSuiteContext {
  options: BenchOptions;
  /** DuckDB holding the generated tpch tables of --scale (the rows it writes as Parquet). */
  duckTpch: DuckDBConnection;
  cliPath: string;
  resultsDir: string;
  timeoutMillis: number;
}

const LARGE_SCALE = 10;
const LARGE_QUERIES = [1, 6];
const USER = 'bench';

export async function runParquetSuite(context: ParquetSuiteContext): Promise<ParquetBenchRun> {
  const { options } = context;
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-parquet-'));
  const nodes = new Map<string, EngineServerProcess>();
  try {
    const config = lakeConfig(dir);
    const duckFiles = join(dir, 'duckdb');
    console.log(`\nwriting tpch.${tpchSchema(options.scale)} as Parquet with DuckDB...`);
    let started = performance.now();
    for (const table of TPCH_TABLE_NAMES) {
      mkdirSync(join(duckFiles, table), { recursive: true });
      await context.duckTpch.run(`COPY ${table} TO '${join(duckFiles, table, 'data.parquet')}' (FORMAT PARQUET)`);
    }
    const duckdbWriteMillis = performance.now() - started;

    if (options.parquetCluster) await startSingleAndCluster(context.cliPath, options, ['--config', config], nodes);
    else nodes.set('single', await startBenchNode(context.cliPath, ['--config', config]));
    const single = nodes.get('single')!.url;
    const run = async (schema: string, sql: string) =>
      failOnError(await executeStatement(single, sql, session(options, schema), { timeoutMillis: context.timeoutMillis }));
    console.log(
      `${options.parquetFiles.includes('ours') ? 'writing it again with our engine (CREATE TABLE AS from tpch) and ' : ''}declaring DuckDB's files as external tables...`,
    );
    await run('default', 'CREATE SCHEMA lake.duckdb');
    await run('default', 'CREATE SCHEMA lake.ours');
    started = performance.now();
    if (options.parquetFiles.includes('ours')) {
      for (const table of TPCH_TABLE_NAMES)
        await run('ours', `CREATE TABLE lake.ours.${table} AS SELECT * FROM tpch."${tpchSchema(options.scale)}".${table}`);
    }
    const engineWriteMillis = options.parquetFiles.includes('ours') ? performance.now() - started : undefined;
    for (const table of TPCH_TABLE_NAMES)
      await run('duckdb', `CREATE TABLE lake.duckdb.${table} WITH (external_location = 'file://${join(duckFiles, table)}/')`);

    const fileSets: FileSetRun[] = [];
    const folders: Record<ParquetWriter, (table: string) => string> = {
      duckdb: (table) => join(duckFiles, table),
      ours: (table) => join(dir, 'catalog', 'ours', table),
    };
    for (const writer of options.parquetFiles) {
      const folder = folders[writer];
      console.log(`\nfiles written by ${writer === 'duckdb' ? 'DuckDB' : 'our engine'}:`);
      const duck = await duckDbOverFiles(TPCH_TABLE_NAMES, folder, options);
      const queries = [];
      for (const q of options.queries) {
        process.stdout.write(`q${String(q).padStart(2, '0')} `);
        const figures = await benchQuery(q, engines(nodes), nodes, duck.reference, options, (url, sql) =>
          executeStatement(url, sql, session(options, writer), { timeoutMillis: context.timeoutMillis }),
        );
        queries.push(figures);
        console.log(
          `duckdb ${figures.duckdbMillis.toFixed(0)} ms, single ${describe(figures.single)}, cluster ${describe(figures.cluster)}`,
        );
      }
      duck.connection.closeSync();
      fileSets.push({ writer, queries });
    }
    const peakMemoryBytes = Object.fromEntries([...nodes].map(([node, server]) => [node, processMemory(server.pid, 'VmHWM')]));
    await stopAll(nodes);

    let large: LargeScaleRun | undefined;
    let largeScaleError: string | undefined;
    if (options.parquetLargeScale) {
      try {
        large = await largeScaleRun(context, dir, config, nodes);
      } catch (e) {
        largeScaleError = (e as Error).message;
        await stopAll(nodes);
      }
    }
    const result: ParquetBenchRun = {
      startedAt,
      options,
      writeMillis: { duckdb: duckdbWriteMillis, engine: engineWriteMillis },
      fileSets,
      peakMemoryBytes,
      ...(large ? { largeScale: large } : {}),
      ...(largeScaleError ? { largeScaleError } : {}),
      loadAverage: { start: loadStart, end: loadavg() },
    };
    printParquetRun(result);
    console.log(`\nwritten to ${writeParquetRun(result, context.resultsDir)}`);
    return result;
  } finally {
    await stopAll(nodes);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** lineitem at sf10 written by us; q1 and q6 on fresh nodes (their peak RSS is the queries'), checked against DuckDB on the same files. */
async function largeScaleRun(
  context: ParquetSuiteContext,
  dir: string,
  config: string,
  nodes: Map<string, EngineServerProcess>,
): Promise<LargeScaleRun> {
  const { options } = context;
  const schema = `sf${LARGE_SCALE}`;
  console.log(`\nwriting tpch.${schema}.lineitem as Parquet with our engine...`);
  const writer = await startBenchNode(context.cliPath, ['--config', config]);
  let writeMillis: number;
  try {
    const started = performance.now();
    failOnError(
      await executeStatement(writer.url, 'CREATE SCHEMA lake.large', session(options, 'default'), { timeoutMillis: context.timeoutMillis }),
    );
    failOnError(
      await executeStatement(
        writer.url,
        `CREATE TABLE lake.large.lineitem AS SELECT * FROM tpch.${schema}.lineitem`,
        session(options, 'large'),
        { timeoutMillis: context.timeoutMillis },
      ),
    );
    writeMillis = performance.now() - started;
  } finally {
    await writer.stop();
  }
  await startSingleAndCluster(context.cliPath, options, ['--config', config], nodes);
  const duck = await duckDbOverFiles(['lineitem'], (table) => join(dir, 'catalog', 'large', table), options);
  const queries = [];
  for (const q of LARGE_QUERIES) {
    process.stdout.write(`${schema} q${String(q).padStart(2, '0')} `);
    const figures = await benchQuery(q, engines(nodes), nodes, duck.reference, options, (url, sql) =>
      executeStatement(url, sql, session(options, 'large'), { timeoutMillis: context.timeoutMillis }),
    );
    queries.push(figures);
    console.log(`duckdb ${figures.duckdbMillis.toFixed(0)} ms, single ${describe(figures.single)}, cluster ${describe(figures.cluster)}`);
  }
  duck.connection.closeSync();
  const peakMemoryBytes = Object.fromEntries([...nodes].map(([node, server]) => [node, processMemory(server.pid, 'VmHWM')]));
  await stopAll(nodes);
  return { scale: LARGE_SCALE, writeMillis, queries, peakMemoryBytes };
}

/** A DuckDB whose tables are views reading each table's Parquet files. */
async function duckDbOverFiles(
  tables: readonly string[],
  folder: (table: string) => string,
  options: BenchOptions,
): Promise<{ connection: DuckDBConnection; reference: DuckDbReference }> {
  const connection = await (await DuckDBInstance.create(':memory:', { threads: String(options.threads) })).connect();
  for (const table of tables) await connection.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet('${folder(table)}/*.parquet')`);
  return { connection, reference: new DuckDbReference(connection, options) };
}

export function lakeConfig(dir: string): string {
  const file = join(dir, 'engine.yaml');
  const catalog = join(dir, 'catalog');
  mkdirSync(catalog, { recursive: true });
  writeFileSync(
    file,
    [
      'catalogs:',
      '  - { name: tpch, connector: tpch }',
      '  - name: lake',
      '    connector: hive',
      '    properties:',
      '      hive.metastore: file',
      `      hive.metastore.catalog.dir: file://${catalog}/`,
      '',
    ].join('\n'),
  );
  return file;
}

function session(options: BenchOptions, schema: string): StatementSession {
  return { user: USER, source: 'bench', catalog: 'lake', schema, properties: options.sessionProperties };
}

/** The single node, and the cluster when it was started. */
function engines(nodes: Map<string, EngineServerProcess>): Engine[] {
  const coordinator = nodes.get('coordinator');
  return [{ name: 'single', url: nodes.get('single')!.url }, ...(coordinator ? [{ name: 'cluster' as const, url: coordinator.url }] : [])];
}

async function stopAll(nodes: Map<string, EngineServerProcess>): Promise<void> {
  await Promise.all([...nodes.values()].map((n) => n.stop()));
  nodes.clear();
}
