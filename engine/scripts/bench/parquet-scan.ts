// Scan throughput of the Parquet format on TPC-H lineitem (default sf1) against DuckDB reading the
// same file in the same run: `node engine/dist/scripts/bench/parquet-scan.js [--scale 1] [--runs 3]`.
//
// lineitem comes from our tpch connector, is written by our Parquet writer (timed) and then again
// by DuckDB (COPY ... (FORMAT PARQUET): snappy, its default row groups; timed). Both files are then
// scanned by our format (one thread: every range of the file in turn, decoding the columns into
// pages) and by DuckDB (min() of every column read, 1 and 2 threads), all columns and two. Last,
// what a selective q6-like constraint lets our reader skip. Figures are medians of --runs runs
// after one warm-up (wall clock and the process's CPU time); MB/s counts the file's bytes each scan fetched (ReadStats for ours, the
// column chunks read for DuckDB).

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ReadStats } from '../../src/connectors/hive/formats/file-format.js';
import { ParquetFormat } from '../../src/connectors/hive/formats/parquet/parquet-format.js';
import { TpchConnector } from '../../src/connectors/tpch/tpch-connector.js';
import type { ColumnMetadata, TableConstraint } from '../../src/spi/connector.js';
import { median } from './statistics.js';
import { TOOL_SESSION } from '../tpch/tbl-export.js';
// The Parquet tests' local file system (until the connector's local-file-system.ts lands beside it).
import { LocalFileSystem as LocalBenchFileSystem } from '../../src/connectors/hive/file-system/local-file-system.js';

const OPTIONS = { skipHeaderLineCount: 0, csvSeparator: ',', csvQuote: '"', csvEscape: '\\' };
const TARGET_RANGE_BYTES = 64 * 1024 * 1024;

interface Measured {
  millis: number;
  /** CPU time of the process (all threads: DuckDB's too), telling work apart from waiting on a shared machine. */
  cpuMillis: number;
  rows: number;
  bytes: number;
  stats?: ReadStats;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, runs: { type: 'string', default: '3' } } });
  const scale = Number(values.scale);
  const runs = Number(values.runs);
  const schema = scale === 0.01 ? 'tiny' : `sf${scale}`;
  const dir = mkdtempSync(join(tmpdir(), 'engine-parquet-bench-'));
  try {
    const fs = new LocalBenchFileSystem();
    const ours = join(dir, 'lineitem-ours.parquet');
    const theirs = join(dir, 'lineitem-duckdb.parquet');
    const { columns, rows, millis: writeMillis, cpuMillis: writeCpu } = await writeLineitem(schema, fs, pathToFileURL(ours).href);
    const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
    const t = performance.now();
    const cpu = process.cpuUsage();
    await duck.run(`COPY (SELECT * FROM read_parquet('${ours}')) TO '${theirs}' (FORMAT PARQUET)`);
    const duckWriteMillis = performance.now() - t;
    const duckWriteCpu = cpuMillisSince(cpu);
    console.log(`lineitem ${schema}: ${rows} rows, ${columns.length} columns`);
    console.log(
      `write: ours ${fmt(writeMillis)} ms, CPU ${fmt(writeCpu)} ms (${mb(statSync(ours).size)} MB, snappy); DuckDB reading our file and writing it again ${fmt(duckWriteMillis)} ms, CPU ${fmt(duckWriteCpu)} ms (${mb(statSync(theirs).size)} MB, 2 threads)`,
    );
    console.log('');
    const two = columns.filter((c) => c.name === 'l_extendedprice' || c.name === 'l_discount');
    console.log('| file | columns | reader | median ms | CPU ms | rows/s | MB/s read |');
    console.log('|---|---|---|---:|---:|---:|---:|');
    for (const [label, path] of [
      ['DuckDB-written', theirs],
      ['ours', ours],
    ] as const) {
      for (const [which, cols] of [
        ['all 16', columns],
        ['2 (l_extendedprice, l_discount)', two],
      ] as const) {
        const scan = await repeat(runs, () => scanOurs(fs, pathToFileURL(path).href, cols));
        row(label, which, 'our format (1 thread)', scan);
        for (const threads of [1, 2]) {
          await duck.run(`SET threads = ${threads}`);
          row(label, which, `DuckDB (${threads} thread${threads > 1 ? 's' : ''})`, await repeat(runs, () => scanDuck(duck, path, cols)));
        }
      }
    }
    console.log('');
    const q6: TableConstraint = [
      { column: 'l_shipdate', low: { value: 8766, inclusive: true }, high: { value: 9131, inclusive: false } },
      { column: 'l_discount', low: { value: 5n, inclusive: true }, high: { value: 7n, inclusive: true } },
      { column: 'l_quantity', high: { value: 2400n, inclusive: false } },
    ];
    const q6Columns = columns.filter((c) => ['l_shipdate', 'l_discount', 'l_quantity', 'l_extendedprice'].includes(c.name));
    const orderkey: TableConstraint = [
      { column: 'l_orderkey', low: { value: 1_000_000n, inclusive: true }, high: { value: 1_010_000n, inclusive: false } },
    ];
    for (const [label, path] of [
      ['DuckDB-written', theirs],
      ['ours', ours],
    ] as const) {
      for (const [name, constraint] of [
        ['q6 predicates (shipdate in 1994, discount 0.05-0.07, quantity < 24)', q6],
        ['l_orderkey in [1000000, 1010000)', orderkey],
      ] as const) {
        const scan = await scanOurs(fs, pathToFileURL(path).href, q6Columns, constraint);
        const s = scan.stats!;
        console.log(
          `${label}, ${name}: ${scan.rows} rows returned; row groups read ${s.rowGroupsRead}, skipped ${s.rowGroupsSkipped}; ${mb(s.bytesRead)} MB read, ${mb(s.bytesSkipped)} MB skipped`,
        );
      }
    }
    duck.closeSync();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeLineitem(
  schema: string,
  fs: LocalBenchFileSystem,
  location: string,
): Promise<{ columns: ColumnMetadata[]; rows: number; millis: number; cpuMillis: number }> {
  const connector = new TpchConnector();
  const table = (await connector.getTable(TOOL_SESSION, schema, 'lineitem'))!;
  const names = table.columns.map((c) => c.name);
  const writer = new ParquetFormat().createWriter(table.columns, OPTIONS, await fs.create(location));
  let generateMillis = 0;
  let cpuMillis = 0;
  const start = performance.now();
  for await (const split of connector.getSplits(TOOL_SESSION, table)) {
    const source = connector.createPageSource(TOOL_SESSION, split, names)[Symbol.asyncIterator]();
    for (;;) {
      const t = performance.now();
      const next = await source.next();
      generateMillis += performance.now() - t;
      if (next.done) break;
      const cpu = process.cpuUsage();
      await writer.append(next.value);
      cpuMillis += cpuMillisSince(cpu);
    }
  }
  const cpu = process.cpuUsage();
  const { rows } = await writer.finish();
  cpuMillis += cpuMillisSince(cpu);
  return { columns: table.columns, rows, millis: performance.now() - start - generateMillis, cpuMillis };
}

async function scanOurs(
  fs: LocalBenchFileSystem,
  location: string,
  columns: readonly ColumnMetadata[],
  constraint?: TableConstraint,
): Promise<Measured> {
  const format = new ParquetFormat();
  const file = (await fs.stat(location))!;
  const stats: ReadStats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
  let rows = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (const range of format.ranges(file, OPTIONS, TARGET_RANGE_BYTES)) {
    for await (const page of format.read({ fs, file, range, columns, tableColumns: columns, constraint, options: OPTIONS, stats }))
      rows += page.rowCount;
  }
  return { millis: performance.now() - start, cpuMillis: cpuMillisSince(cpu), rows, bytes: stats.bytesRead, stats };
}

async function scanDuck(duck: DuckDBConnection, path: string, columns: readonly ColumnMetadata[]): Promise<Measured> {
  const list = columns.map((c) => `'${c.name}'`).join(', ');
  const bytes = Number(
    (
      await duck.runAndReadAll(`SELECT sum(total_compressed_size) FROM parquet_metadata('${path}') WHERE path_in_schema IN (${list})`)
    ).getRows()[0][0],
  );
  // min(hash(c)): every value decoded and used (a bare min() can be answered from the statistics).
  const aggregates = columns.map((c) => `min(hash(${c.name}))`).join(', ');
  const start = performance.now();
  const cpu = process.cpuUsage();
  await duck.runAndReadAll(`SELECT count(*), ${aggregates} FROM read_parquet('${path}')`);
  const millis = performance.now() - start;
  const cpuMillis = cpuMillisSince(cpu);
  const rows = Number((await duck.runAndReadAll(`SELECT count(*) FROM read_parquet('${path}')`)).getRows()[0][0]);
  return { millis, cpuMillis, rows, bytes };
}

async function repeat(runs: number, f: () => Promise<Measured>): Promise<Measured> {
  await f();
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) results.push(await f());
  return { ...results[0], millis: median(results.map((r) => r.millis)), cpuMillis: median(results.map((r) => r.cpuMillis)) };
}

function row(file: string, columns: string, reader: string, m: Measured): void {
  console.log(
    `| ${file} | ${columns} | ${reader} | ${fmt(m.millis)} | ${fmt(m.cpuMillis)} | ${fmt((m.rows / m.millis) * 1000)} | ${fmt(m.bytes / 1e6 / (m.millis / 1000))} |`,
  );
}

function cpuMillisSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

await main();
