// The `postgresql` suite of `make bench`: rows/s of a full table read through the postgresql
// connector, against PostgreSQL's own `COPY ... TO STDOUT` of the same table (psql writing it to
// /dev/null, binary and text), with one split and with the table read in key ranges, on one node
// and on a coordinator with workers. A throwaway PostgreSQL server (Debian's package) holds the
// table. Figures, not tests: it prints and writes them, and fails only when something does not run.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresServer } from '../../test/support/postgres-server.js';
import { executeStatement, type StatementSession } from '../sqllogictest/statement-client.js';
import { startCluster, startEngineServer, type EngineServerProcess } from '../sqllogictest/server-process.js';
import { median } from './statistics.js';

export interface PostgresSuiteOptions {
  rows: number;
  runs: number;
  splits: number;
  clusterWorkers: number;
  cliPath: string;
  resultsDir: string;
}

interface ScanFigure {
  what: string;
  medianMillis: number;
  rowsPerSecond: number;
}

const TABLE = 'scan_rows';
/** Every column read, so that nothing is pruned, and nothing computed in PostgreSQL (aggregation pushdown off). */
const FULL_READ = `SELECT count(id), count(x), count(d), count(s), count(n), count(dt), count(ts) FROM pg.public.${TABLE}`;

export async function runPostgresSuite(options: PostgresSuiteOptions): Promise<void> {
  console.log(`\npostgresql: a table of ${options.rows} rows (bigint key, integer, double, text, numeric(12,2), date, timestamp)`);
  const pg = await PostgresServer.start();
  const folder = mkdtempSync(join(tmpdir(), 'engine-bench-pg-'));
  const nodes: EngineServerProcess[] = [];
  try {
    await pg.sql(
      `CREATE TABLE ${TABLE} (id bigint PRIMARY KEY, x integer, d double precision, s text, n numeric(12,2), dt date, ts timestamp);
       INSERT INTO ${TABLE} SELECT g, g % 1000, g / 7.0, md5(g::text), (g % 100000) / 100.0, DATE '2000-01-01' + g % 10000, TIMESTAMP '2020-01-01' + g * INTERVAL '1 second' FROM generate_series(1, ${options.rows}) g`,
    );
    await pg.sql(`VACUUM ANALYZE ${TABLE}`);
    const figures: ScanFigure[] = [];
    for (const format of ['binary', 'text']) {
      figures.push(measure(`psql COPY ... TO STDOUT (FORMAT ${format}) > /dev/null`, options, () => psqlCopy(pg, format)));
    }
    const config = join(folder, 'engine.yaml');
    writeFileSync(config, catalogConfig(pg));
    const single = await startEngineServer({ cliPath: options.cliPath, args: ['--config', config] });
    nodes.push(single);
    for (const splits of [1, options.splits])
      figures.push(await measureEngine(`engine, one node, ${splits} split${splits > 1 ? 's' : ''}`, single.url, splits, options));
    await single.stop();
    nodes.pop();
    nodes.push(...(await startCluster(options.cliPath, options.clusterWorkers, { args: ['--config', config] })));
    for (const splits of [1, options.splits]) {
      figures.push(
        await measureEngine(
          `engine, coordinator + ${options.clusterWorkers} workers, ${splits} split${splits > 1 ? 's' : ''}`,
          nodes[0].url,
          splits,
          options,
        ),
      );
    }
    print(figures);
    mkdirSync(options.resultsDir, { recursive: true });
    const file = join(options.resultsDir, `postgresql-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ rows: options.rows, runs: options.runs, figures }, null, 2));
    console.log(`written to ${file}`);
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await pg.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

function catalogConfig(pg: PostgresServer): string {
  const p = pg.catalogProperties();
  return [
    'catalogs:',
    '  - name: pg',
    '    connector: postgresql',
    '    properties:',
    ...Object.entries(p).map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`),
    '',
  ].join('\n');
}

function psqlCopy(pg: PostgresServer, format: string): void {
  execFileSync(
    'psql',
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(pg.port),
      '-U',
      PostgresServer.user,
      '-d',
      'postgres',
      '-c',
      `COPY ${TABLE} TO STDOUT (FORMAT ${format})`,
    ],
    {
      env: { ...process.env, PGPASSWORD: PostgresServer.password },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

function measure(what: string, options: PostgresSuiteOptions, run: () => void): ScanFigure {
  run();
  const times: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return figure(what, times, options.rows);
}

async function measureEngine(what: string, url: string, splits: number, options: PostgresSuiteOptions): Promise<ScanFigure> {
  const session: StatementSession = {
    user: 'bench',
    source: 'bench',
    catalog: 'pg',
    schema: 'public',
    properties: { 'pg.split_count': String(splits), 'pg.aggregation_pushdown_enabled': 'false' },
  };
  const run = async () => {
    const outcome = await executeStatement(url, FULL_READ, session, { timeoutMillis: 30 * 60 * 1000 });
    if (outcome.error) throw new Error(`${what}: ${outcome.error.message}`);
    if (outcome.rows[0][0] !== options.rows) throw new Error(`${what}: read ${String(outcome.rows[0][0])} rows, not ${options.rows}`);
  };
  // Warm-up: twice, so that every worker of a cluster has read (and compiled its reading of) a split.
  await run();
  await run();
  const times: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return figure(what, times, options.rows);
}

function figure(what: string, times: number[], rows: number): ScanFigure {
  const medianMillis = median(times);
  return { what, medianMillis, rowsPerSecond: rows / (medianMillis / 1000) };
}

function print(figures: ScanFigure[]): void {
  const width = Math.max(...figures.map((f) => f.what.length));
  console.log(`${'read'.padEnd(width)}  median s   rows/s`);
  for (const f of figures)
    console.log(
      `${f.what.padEnd(width)}  ${(f.medianMillis / 1000).toFixed(2).padStart(8)}  ${Math.round(f.rowsPerSecond).toLocaleString('en-US').padStart(11)}`,
    );
}
