// Semi and anti joins (EXISTS, NOT EXISTS, IN, NOT IN) on a coordinator and 2 workers whose small
// probe side is replicated to the tasks of the big build side's scan, marked there against each
// task's part of the build rows, and the marks of each probe row combined (EXPLAIN: distribution =
// PROBE_REPLICATED) give DuckDB's answers over the same Parquet files, with distributed_mark_join on
// and off: NULL keys on both sides, duplicate probe rows (each must come out), keys only one build
// file (so one worker) holds, a build side only one worker reads rows of, empty build and probe
// sides, join filters, two keys, bigint, varchar and decimal keys.

import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

/** 3,000 probe rows of 2,500 distinct ones (the last 500 repeat rows whole): NULL keys, keys only one build file has. */
const PROBE_SIDE = `SELECT (i % 2500)::BIGINT AS id,
    CASE WHEN i % 2500 % 11 = 0 THEN NULL WHEN i % 2500 % 13 = 0 THEN 4294967296 * (i % 2500 % 700)
      WHEN i % 2500 % 5 = 0 THEN 100000 + i % 2500 % 4000 ELSE i % 2500 % 1500 - 200 END::BIGINT AS k,
    CASE WHEN i % 2500 % 9 = 0 THEN NULL ELSE i % 2500 % 40 - 5 END::BIGINT AS small,
    CASE WHEN i % 2500 % 8 = 0 THEN NULL ELSE 'n' || CAST(i % 2500 % 50 AS varchar) END AS name,
    CASE WHEN i % 2500 % 7 = 0 THEN NULL ELSE CAST(i % 2500 % 300 AS decimal(12,2)) / 4 END::decimal(12,2) AS price
  FROM range(3000) r(i)`;

/** 4 files of 50,000 build rows, many per key; some keys (100000 + file * 1000 + ...) in one file only. */
const buildFile = (file: number) => `SELECT i::BIGINT AS id,
    CASE WHEN i % 17 = 0 THEN NULL WHEN i % 19 = 0 THEN 4294967296 * (i * 7 % 700)
      WHEN i % 3 = 0 THEN 100000 + ${file} * 1000 + i % 100 ELSE i * 7 % 1900 - 200 END::BIGINT AS k,
    CASE WHEN i % 10 = 0 THEN NULL ELSE i * 3 % 40 - 5 END::BIGINT AS small,
    CASE WHEN i % 6 = 0 THEN NULL ELSE 'n' || CAST(i * 3 % 70 AS varchar) END AS name,
    CASE WHEN i % 5 = 0 THEN NULL ELSE CAST(i * 3 % 500 AS decimal(12,2)) / 4 END::decimal(12,2) AS price
  FROM range(${file * 50000}, ${file * 50000 + 50000}) r(i)`;

/** No rows, through an expression the estimates do not see through (`small > 1000` they know to be empty from the files' bounds). */
const EMPTY_BUILD = '(SELECT * FROM {build} WHERE small * 2 > 2000)';
/** The rows of the first build file: one worker reads them, the other has an empty part of the build side. */
const ONE_FILE = '(SELECT * FROM {build} WHERE id < 50000)';

/** Probe rows counted by the value of `mark` (TRUE, FALSE or NULL), as text. */
function byMark(mark: string, probe = '{probe}'): string {
  return `SELECT CAST(m AS varchar), CAST(count(*) AS varchar), CAST(sum(id) AS varchar) FROM (SELECT p.id, ${mark} AS m FROM ${probe} p) t GROUP BY m`;
}

const COUNTS = 'SELECT CAST(count(*) AS varchar), CAST(sum(p.id) AS varchar), CAST(max(p.id) AS varchar) FROM {probe} p';

const QUERIES: Record<string, string> = {
  EXISTS: `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'NOT EXISTS': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'EXISTS, every probe row kept (duplicates too)':
    'SELECT CAST(p.id AS varchar), p.name FROM {probe} p WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)',
  'EXISTS with a filter': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small > p.small)`,
  'NOT EXISTS with a filter on strings': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.name > p.name)`,
  'EXISTS with a filter of <> (as q21)': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small <> p.small)`,
  'EXISTS on two keys': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small = p.small)`,
  'IN on bigint (NULLs on both sides)': byMark('p.k IN (SELECT k FROM {build} WHERE small > 20)'),
  'IN without NULL build keys': byMark('p.k IN (SELECT k FROM {build} WHERE small > 20 AND k IS NOT NULL)'),
  "IN over one worker's rows": byMark(`p.k IN (SELECT k FROM ${ONE_FILE})`),
  "IN over one worker's rows without NULLs": byMark(`p.k IN (SELECT k FROM ${ONE_FILE} WHERE k IS NOT NULL)`),
  "NOT EXISTS over one worker's rows": `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM ${ONE_FILE} b WHERE b.k = p.k)`,
  'IN on varchar': byMark('p.name IN (SELECT name FROM {build} WHERE id % 4 = 0)'),
  'IN on decimal': byMark('p.price IN (SELECT price FROM {build})'),
  'IN on two columns': byMark('(p.k, p.small) IN (SELECT k, small FROM {build})'),
  'NOT IN': `${COUNTS} WHERE p.small NOT IN (SELECT small FROM {build} WHERE small > 20)`,
  'NOT IN with NULL build keys': `${COUNTS} WHERE p.k NOT IN (SELECT k FROM {build} WHERE small > 20)`,
  'IN over an empty build side': byMark(`p.k IN (SELECT k FROM ${EMPTY_BUILD})`),
  'NOT EXISTS over an empty build side': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM ${EMPTY_BUILD} b WHERE b.k = p.k)`,
  'EXISTS over an empty probe side': `${COUNTS} WHERE p.id < 0 AND EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'IN over an empty probe side': byMark('p.k IN (SELECT k FROM {build})', '(SELECT * FROM {probe} WHERE id < 0)'),
};

const ON = { 'X-Trino-Session': 'distributed_mark_join=true' };
const OFF = { 'X-Trino-Session': 'distributed_mark_join=false' };

/** Rows as sorted text, so that NULLs order alike. */
function sorted(rows: unknown[][]): string[] {
  return rows.map((r) => JSON.stringify(r.map((v) => (v === null ? null : String(v))))).sort();
}

describe("semi and anti joins with their probe side replicated to the build side's workers equal DuckDB", function () {
  this.timeout(600_000);
  const lake = withLakeCluster(2, 'engine-probe-replicated-mark-join-');
  const { cluster } = lake;
  let probe = '';
  let build = '';
  const ours = (sql: string) => sql.replaceAll('{probe}', 'lake.default.probe_side').replaceAll('{build}', 'lake.default.build_side');
  const duckDbs = (sql: string) =>
    sql.replaceAll('{probe}', `read_parquet('${probe}/*.parquet')`).replaceAll('{build}', `read_parquet('${build}/*.parquet')`);
  const explain = async (sql: string, headers: Record<string, string>) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN ${ours(sql)}`, headers)).map((r) => r[0]).join('\n'));

  before(async () => {
    probe = join(lake.dir, 'probe_side');
    build = join(lake.dir, 'build_side');
    mkdirSync(probe, { recursive: true });
    mkdirSync(build, { recursive: true });
    await duckDbRows(`COPY (${PROBE_SIDE}) TO '${probe}/a.parquet' (FORMAT PARQUET)`);
    for (let file = 0; file < 4; file++)
      await duckDbRows(`COPY (${buildFile(file)}) TO '${build}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 25000)`);
    for (const [name, folder] of [
      ['probe_side', probe],
      ['build_side', build],
    ])
      await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${name} WITH (external_location = 'file://${folder}/')`);
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: replicated probe side and moved build side both as DuckDB`, async () => {
      const expected = sorted(await duckDbRows(duckDbs(sql)));
      expect(await explain(sql, ON)).to.contain('distribution = PROBE_REPLICATED');
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), ON)), 'probe replicated').to.deep.equal(expected);
      expect(await explain(sql, OFF)).not.to.contain('PROBE_REPLICATED');
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), OFF)), 'build side moved').to.deep.equal(expected);
    });
  }

  it('EXPLAIN shows the probe rows numbered and replicated, the marks combined per number (its only key) after a repartition', async () => {
    const plan = await explain(QUERIES.EXISTS, ON);
    expect(plan).to.match(/AssignUniqueId\[probe_row_\d+\]/);
    expect(plan).to.match(/Output partitioning: BROADCAST \[\]\n\s*└─ AssignUniqueId\[probe_row_\d+\]/);
    expect(plan).to.match(/Output partitioning: HASH \[probe_row_\d+\]/);
    expect(plan).to.match(/max\(mark_code_\d+\)/);
    // Grouped by the number alone (an integer key), the probe row's columns carried beside the mark.
    expect(plan).to.match(/Aggregate\(SINGLE\)\[keys = \[probe_row_\d+\]\]/);
    expect(plan).to.match(/:= arbitrary\(id_\d+\)/);
  });

  it('answers TPC-H q4, q21 and q22 on tiny as DuckDB does, their EXISTS and NOT EXISTS probe-replicated', async () => {
    const duck = await duckDbWithTpch('tiny', 2);
    try {
      for (const [q, replicated] of [
        [4, true],
        [21, true],
        [22, true],
      ] as const) {
        for (const headers of [ON, OFF]) {
          const tiny = { ...headers, 'X-Trino-Catalog': 'tpch', 'X-Trino-Schema': 'tiny' };
          const sql = tpchQuery(q);
          const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, tiny)).map((r) => r[0]).join('\n'));
          expect(plan.includes('PROBE_REPLICATED'), `q${q}`).to.equal(replicated && headers === ON);
          await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, tiny, { label: `q${q}` });
        }
      }
    } finally {
      duck.closeSync();
    }
  });

  it('numbers the probe rows in the tasks that scan them, each apart (4 files of the same rows over both workers), as DuckDB', async () => {
    const split = join(lake.dir, 'probe_split');
    mkdirSync(split, { recursive: true });
    for (let file = 0; file < 4; file++) await duckDbRows(`COPY (${PROBE_SIDE}) TO '${split}/part-${file}.parquet' (FORMAT PARQUET)`);
    await query(cluster.coordinator.uri, `CREATE TABLE lake.default.probe_split WITH (external_location = 'file://${split}/')`);
    for (const sql of [QUERIES['EXISTS, every probe row kept (duplicates too)'], QUERIES['NOT EXISTS with a filter on strings']]) {
      const spread = sql.replaceAll('{probe}', 'lake.default.probe_split');
      const plan = await explain(spread, ON);
      expect(plan).to.match(
        /Fragment \d+ \[SOURCE\]\n[^\n]*\n\s*Output partitioning: BROADCAST \[\]\n\s*└─ AssignUniqueId\[probe_row_\d+\]/,
      );
      const expected = sorted(
        await duckDbRows(
          spread
            .replaceAll('lake.default.probe_split', `read_parquet('${split}/*.parquet')`)
            .replaceAll('{build}', `read_parquet('${build}/*.parquet')`),
        ),
      );
      expect(sorted(await query(cluster.coordinator.uri, ours(spread), ON))).to.deep.equal(expected);
    }
  });

  it('keeps a big probe side to the partitioned join (the build side is not bigger over the nodes)', async () => {
    const sql = 'SELECT count(*) FROM {build} p WHERE EXISTS (SELECT 1 FROM {probe} b WHERE b.k = p.k)';
    expect(await explain(sql, ON)).not.to.contain('PROBE_REPLICATED');
  });
});
