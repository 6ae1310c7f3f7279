// Dynamic filtering over Parquet lake tables: every kind of join answers as DuckDB does over the
// same files, with the filter on and off, scanning in the main thread and on worker threads —
// NULL keys, keys of several types, keys of different types (a coercion), a build side that is
// empty, left, full and anti joins (whose probe side must not be filtered). EXPLAIN shows the
// filter on the join and on the scan, and EXPLAIN ANALYZE shows the probe scan reading fewer
// row groups with it than without it.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerProcess } from '../../support/server-process.js';
import { query } from '../../support/statement-http.js';
import { duckDbRows, lakeConfigFile } from './lake-fixture.js';

const FACTS = 'CAST(count(*) AS varchar), CAST(sum(f.amount) AS varchar), CAST(min(f.id) AS varchar), CAST(max(f.id) AS varchar)';

/** Queries over facts f and dims d, each answering one summary row. */
const QUERIES: [label: string, sql: string][] = [
  ['inner join on an integer key', `SELECT ${FACTS}, CAST(count(d.name) AS varchar) FROM facts f JOIN dims d ON f.k = d.k`],
  ['inner join whose build side is empty', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.k = d.k WHERE d.name = 'none'`],
  ['inner join on a nullable key (NULL never matches)', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.kn = d.kn`],
  ['inner join on a varchar key', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.s = d.s`],
  ['inner join on a date key', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.day = d.day`],
  ['inner join on a decimal key', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.amount = d.amount`],
  ['inner join on two keys', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.k = d.k AND f.s = d.s`],
  ['inner join on keys of different types (bigint = integer)', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.id = d.k`],
  ['inner join with a residual condition', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.k = d.k AND f.amount > d.amount`],
  ['left join (probe side kept whole)', `SELECT ${FACTS}, CAST(count(d.name) AS varchar) FROM facts f LEFT JOIN dims d ON f.k = d.k`],
  ['right join', `SELECT ${FACTS}, CAST(count(d.name) AS varchar) FROM facts f RIGHT JOIN dims d ON f.k = d.k`],
  ['full join', `SELECT ${FACTS}, CAST(count(d.name) AS varchar) FROM facts f FULL JOIN dims d ON f.k = d.k`],
  ['semi join (IN)', `SELECT ${FACTS} FROM facts f WHERE f.kn IN (SELECT kn FROM dims)`],
  ['semi join (EXISTS)', `SELECT ${FACTS} FROM facts f WHERE EXISTS (SELECT 1 FROM dims d WHERE d.s = f.s)`],
  ['anti join (NOT IN, a NULL among the keys)', `SELECT ${FACTS} FROM facts f WHERE f.k NOT IN (SELECT kn FROM dims)`],
  ['anti join (NOT EXISTS)', `SELECT ${FACTS} FROM facts f WHERE NOT EXISTS (SELECT 1 FROM dims d WHERE d.k = f.k)`],
  ['a semi join in a disjunction', `SELECT ${FACTS} FROM facts f WHERE f.k IN (SELECT k FROM dims) OR f.id < 100`],
  [
    'join with an aggregation grouped by the key on the probe side',
    `SELECT CAST(count(*) AS varchar), CAST(sum(g.total) AS varchar) FROM (SELECT k, sum(amount) AS total FROM facts GROUP BY k) g JOIN dims d ON g.k = d.k`,
  ],
  ['a join under another join', `SELECT ${FACTS} FROM facts f JOIN dims d ON f.k = d.k JOIN dims e ON f.s = e.s`],
];

const SESSIONS: [label: string, session: string][] = [
  ['filter on, worker threads', ''],
  ['filter off, worker threads', 'enable_dynamic_filtering=false'],
  ['filter on, main thread', 'parallel_min_splits=0'],
  ['filter off, main thread', 'enable_dynamic_filtering=false,parallel_min_splits=0'],
];

describe('lake: dynamic filtering from join builds into Parquet scans answers as DuckDB does', function () {
  this.timeout(300_000);
  let dir: string;
  let server: ServerProcess;
  let facts: string;
  let dims: string;
  let keys: string;

  const ask = (sql: string, session: string) => query(server.uri, sql, session === '' ? {} : { 'X-Trino-Session': session });
  const duckSql = (sql: string) =>
    sql.replace(/\bfacts\b/g, `read_parquet('${facts}/*.parquet')`).replace(/\bdims\b/g, `read_parquet('${dims}/*.parquet')`);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-dynamic-filter-'));
    facts = join(dir, 'data', 'facts');
    dims = join(dir, 'data', 'dims');
    mkdirSync(facts, { recursive: true });
    mkdirSync(dims, { recursive: true });
    // Two files (two splits: worker threads read them), sorted by k, in row groups of 10,000 rows.
    for (const [file, from] of [
      ['a', 0],
      ['b', 50000],
    ] as const) {
      await duckDbRows(
        `COPY (SELECT i::BIGINT AS id, (i // 10)::INTEGER AS k, CASE WHEN i % 7 = 0 THEN NULL ELSE (i // 10)::INTEGER END AS kn, 'v' || (i % 1000) AS s,
          DATE '1992-01-01' + (i // 100)::INTEGER AS day, ((i % 5000) / 100)::DECIMAL(12,2) AS amount
          FROM range(${from}, ${from + 50000}) r(i)) TO '${join(facts, `${file}.parquet`)}' (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`,
      );
    }
    await duckDbRows(
      `COPY (SELECT * FROM (VALUES (5, 5, 'v50', DATE '1992-01-02', 0.50::DECIMAL(12,2), 'five'), (6, NULL, 'v61', DATE '1992-01-03', 12.34::DECIMAL(12,2), 'six'),
        (2500, 2500, 'v1', DATE '1992-05-01', 20.00::DECIMAL(12,2), 'big'), (9999, 9999, 'v999', DATE '1994-09-26', 49.99::DECIMAL(12,2), 'last'),
        (NULL, NULL, NULL, NULL, NULL, 'nulls')) t(k, kn, s, day, amount, name)) TO '${join(dims, 'a.parquet')}' (FORMAT PARQUET)`,
    );
    // 60,000 ids (past the 50,000 a filter lists, a fifth of their span: a key bitmap), from 1 past the facts' greatest.
    keys = join(dir, 'data', 'keys');
    mkdirSync(keys, { recursive: true });
    await duckDbRows(
      `COPY (SELECT i::BIGINT AS id FROM range(0, 300000) r(i) WHERE i % 5 = 1) TO '${join(keys, 'a.parquet')}' (FORMAT PARQUET)`,
    );
    server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    await query(server.uri, `CREATE TABLE lake.default.facts WITH (external_location = 'file://${facts}/')`);
    await query(server.uri, `CREATE TABLE lake.default.dims WITH (external_location = 'file://${dims}/')`);
    await query(server.uri, `CREATE TABLE lake.default.keys WITH (external_location = 'file://${keys}/')`);
    // The facts again, partitioned by k % 7 (a folder per value).
    await query(
      server.uri,
      `CREATE TABLE lake.default.pfacts WITH (partitioned_by = ARRAY['p']) AS SELECT id, amount, k % 7 AS p FROM lake.default.facts`,
    );
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [label, sql] of QUERIES) {
    it(label, async () => {
      const expected = await duckDbRows(duckSql(sql));
      const engineSql = sql.replace(/\bfacts\b/g, 'lake.default.facts').replace(/\bdims\b/g, 'lake.default.dims');
      for (const [sessionLabel, session] of SESSIONS) {
        expect(await ask(engineSql, session), `${sessionLabel}: ${engineSql}`).to.deep.equal(expected);
      }
    });
  }

  it('a partition whose value no build key has is not read, and the join answers as DuckDB does', async () => {
    const partitionFiles = (p: number) =>
      readdirSync(join(dir, 'catalog', 'default', 'pfacts', `p=${p}`)).filter((f) => !f.startsWith('.')).length;
    const sql = (from: string) =>
      `SELECT CAST(count(*) AS varchar), CAST(sum(f.amount) AS varchar) FROM ${from} f JOIN lake.default.dims d ON f.p = d.k WHERE d.name IN ('five', 'six')`;
    const [expected] = await duckDbRows(
      `SELECT CAST(count(*) AS varchar), CAST(sum(f.amount) AS varchar) FROM read_parquet('${facts}/*.parquet') f JOIN read_parquet('${dims}/*.parquet') d ON f.k % 7 = d.k WHERE d.name IN ('five', 'six')`,
    );
    for (const [sessionLabel, session] of SESSIONS) {
      const rows = await ask(sql('lake.default.pfacts'), session);
      expect(rows, sessionLabel).to.deep.equal([expected]);
      const plan = String((await ask(`EXPLAIN ANALYZE ${sql('lake.default.pfacts')}`, session))[0][0]);
      const filesRead = plan
        .split('\n')
        .filter((line) => line.includes('Connector metrics'))
        .map((line) => Number(/filesRead = (\d+)/.exec(line)?.[1] ?? 0));
      // Keys 5 and 6: the files of partitions 5 and 6 of the seven (and the dims file).
      const partitions = session.includes('enable_dynamic_filtering=false') ? [0, 1, 2, 3, 4, 5, 6] : [5, 6];
      expect(
        filesRead.reduce((a, b) => a + b, 0),
        `${sessionLabel}: ${plan}`,
      ).to.equal(1 + partitions.map(partitionFiles).reduce((a, b) => a + b, 0));
    }
  });

  // The bitmap's range covers the facts' row groups (their statistics prove nothing), yet the reader
  // tests each row against it (parquet-reader.ts), and decodes the other columns only for the rows left.
  it('a build of many keys: the probe scan passes only the rows whose id the bitmap holds', async () => {
    const sql = (f: string, k: string) =>
      `SELECT CAST(count(*) AS varchar), CAST(sum(f.amount) AS varchar), CAST(min(f.s) AS varchar) FROM ${f} f JOIN ${k} x ON f.id = x.id`;
    const [expected] = await duckDbRows(sql(`read_parquet('${facts}/*.parquet')`, `read_parquet('${keys}/*.parquet')`));
    const engineSql = sql('lake.default.facts', 'lake.default.keys');
    for (const [sessionLabel, session] of SESSIONS) {
      expect(await ask(engineSql, session), sessionLabel).to.deep.equal([expected]);
      const plan = String((await ask(`EXPLAIN ANALYZE ${engineSql}`, session))[0][0]);
      const input = Number(/input: (\d+) rows/.exec(plan)?.[1]);
      // The 60,000 keys, and the facts rows the scan passed: with the bitmap, exactly the 20,000 that join.
      const filtered = !session.includes('enable_dynamic_filtering=false');
      expect(input, `${sessionLabel}: ${plan}`).to.equal(60_000 + (filtered ? 20_000 : 100_000));
      if (filtered) expect(plan).to.include('dynamicFilterKeyBitmaps = 1');
    }
  });

  it('EXPLAIN shows the filter on the join and the probe scan; not on a left join', async () => {
    const explain = async (sql: string, session = '') => String((await ask(`EXPLAIN ${sql}`, session))[0][0]);
    const inner = await explain('SELECT f.id FROM lake.default.facts f JOIN lake.default.dims d ON f.k = d.k');
    expect(inner).to.match(/dynamicFilterAssignments = \{k(_\d+)? -> #df_1\}/);
    expect(inner).to.match(/TableScan\[table = lake:default\.facts, [^\n]*dynamicFilters = \{"k" = #df_1\}\]/);
    expect(await explain('SELECT f.id FROM lake.default.facts f LEFT JOIN lake.default.dims d ON f.k = d.k')).not.to.include(
      'dynamicFilter',
    );
    expect(
      await explain('SELECT f.id FROM lake.default.facts f JOIN lake.default.dims d ON f.k = d.k', 'enable_dynamic_filtering=false'),
    ).not.to.include('dynamicFilter');
  });

  it('EXPLAIN ANALYZE shows the probe scan reading fewer row groups with the filter, and the splits it filtered', async () => {
    const sql = `SELECT count(*) FROM lake.default.facts f JOIN lake.default.dims d ON f.k = d.k WHERE d.name IN ('five', 'six')`;
    const scanMetrics = async (session: string) => {
      const plan = String((await ask(`EXPLAIN ANALYZE ${sql}`, session))[0][0]);
      // The facts scan's metrics (on the operator that runs it: the scan, or the worker threads' source): its two files.
      const scan = plan.split('\n').find((line) => line.includes('Connector metrics') && line.includes('filesRead = 2')) ?? '';
      const metric = (name: string) => Number(new RegExp(`\\b${name} = (\\d+)`).exec(scan)?.[1] ?? 0);
      return {
        rowGroupsRead: metric('rowGroupsRead'),
        rowGroupsSkipped: metric('rowGroupsSkipped'),
        splits: metric('dynamicFilterSplitsProcessed'),
        plan,
      };
    };
    for (const threads of ['', 'parallel_min_splits=0']) {
      const on = await scanMetrics(threads);
      const off = await scanMetrics(['enable_dynamic_filtering=false', threads].filter((s) => s !== '').join(','));
      // Keys 5 and 6 are rows 50..69, in the first row group of the first file; the other 9 groups are skipped.
      expect([on.rowGroupsRead, on.rowGroupsSkipped, on.splits], on.plan).to.deep.equal([1, 9, 2]);
      expect([off.rowGroupsRead, off.rowGroupsSkipped, off.splits], off.plan).to.deep.equal([10, 0, 0]);
    }
  });
});
