// Pushdown gives the engine's answers: every query runs with pushdown (filters, limits, top-N,
// aggregations) and again with all of it turned off (the engine computing everything over the
// rows), and where PostgreSQL's own semantics are the engine's, against PostgreSQL running the
// same query. The data holds what differs between the two: NaN, -0, NULLs, text whose order under
// the database's (ICU English) collation is not code point order, padded chars, LIKE's specials.

import { expect } from 'chai';
import { canonicalPgRows, canonicalRows, withPgFixture } from './pg-fixture.js';

const OFF = ['filter_pushdown_enabled', 'limit_pushdown_enabled', 'topn_pushdown_enabled', 'aggregation_pushdown_enabled'];

const STRINGS = [
  'apple',
  'Apple',
  'banana',
  'Banana',
  'éclair',
  'zebra',
  'Zebra',
  'a b',
  'ab ',
  '',
  null,
  '😀',
  'ﬀ',
  'a%b',
  'a_b',
  'A\\b',
  'ab',
  'abc',
];

const SETUP = `
CREATE TABLE t (
  id integer PRIMARY KEY, i integer, b bigint, s smallint, d double precision, r real, n numeric(12,3),
  v varchar(20), c char(5), dt date, ts timestamp, tm time, flag boolean, bin bytea);
INSERT INTO t
SELECT g,
  CASE WHEN g % 7 = 0 THEN NULL ELSE (g * 37) % 101 - 50 END,
  (g::bigint * 1000000007) % 1000000000000 * CASE WHEN g % 2 = 0 THEN -1 ELSE 1 END,
  (g % 300)::smallint,
  CASE g % 11 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN NULL WHEN 2 THEN '-0'::float8 WHEN 3 THEN 'Infinity' WHEN 4 THEN '-Infinity' ELSE (g % 23) / 4.0 END,
  CASE g % 13 WHEN 0 THEN 'NaN'::float4 WHEN 1 THEN NULL ELSE (g % 17) / 8.0 END,
  CASE WHEN g % 9 = 0 THEN NULL ELSE ((g * 13) % 2001 - 1000) / 8.0 END,
  (ARRAY[${STRINGS.map((s) => (s === null ? 'NULL' : `'${s.replaceAll("'", "''")}'`)).join(', ')}])[g % ${STRINGS.length} + 1],
  (ARRAY['a', 'ab', 'ab ', 'B', NULL, ''])[g % 6 + 1],
  DATE '2000-01-01' + (g % 500) - 250,
  TIMESTAMP '2020-01-01' + g * INTERVAL '1 hour 1 minute 1.000001 second',
  TIME '00:00:00' + (g % 1440) * INTERVAL '1 minute',
  CASE g % 3 WHEN 0 THEN true WHEN 1 THEN false ELSE NULL END,
  CASE WHEN g % 5 = 0 THEN NULL ELSE decode(lpad(to_hex(g % 256), 2, '0'), 'hex') END
FROM generate_series(1, 3000) g;
ANALYZE t;`;

/** Filters: each as a count and as the ids it keeps. */
const FILTERS = [
  'i > 5',
  'i BETWEEN -10 AND 10',
  'i IN (1, 2, 3, NULL)',
  'i IS NULL',
  'i IS NOT NULL',
  'NOT (i > 5)',
  'NOT (i IN (1, 2))',
  'b < 0 AND s >= 100',
  'i > 5 OR b > 0',
  'i = s',
  'i < s AND i > -20',
  'CAST(i AS bigint) > 10',
  'b > 5000000000',
  'd > 1.0',
  'd >= 0',
  'd < 2',
  'd <= 2',
  'd = 0',
  'd <> 1.5',
  'd IN (0, 1.5)',
  'd BETWEEN 0 AND 3',
  'd IS NULL',
  'd <> nan()',
  'd > -infinity()',
  'd < infinity()',
  'NOT (d > 1)',
  'r > 1',
  'r < 1',
  'n > 1.5',
  'n = 2.25',
  'n BETWEEN -10 AND 10.5',
  "v = 'apple'",
  "v <> 'apple'",
  "v < 'b'",
  "v > 'Zebra'",
  "v >= 'é'",
  "v BETWEEN 'a' AND 'z'",
  "v LIKE 'a%'",
  "v LIKE '%b%'",
  "v LIKE 'a_b'",
  "v LIKE 'a\\_b' ESCAPE '\\'",
  "v LIKE 'A\\b'",
  "v LIKE '%\\%%' ESCAPE '\\'",
  "v NOT LIKE 'a%'",
  "v IN ('apple', 'Apple', '')",
  "v = ''",
  "v < '😀'",
  "c = 'ab'",
  "c > 'a'",
  'c IS NULL',
  "dt < DATE '2000-01-01'",
  "ts >= TIMESTAMP '2020-01-10 00:00:00'",
  "ts < TIMESTAMP '2020-02-01 12:00:00.000001'",
  "tm > TIME '12:00:00'",
  'flag',
  'NOT flag',
  'flag IS NULL',
  "bin = X'0A'",
  'bin IS NULL',
];

/** Queries whose rows are compared (ordered when they say ORDER BY). */
const QUERIES = [
  'SELECT v, count(*) FROM t GROUP BY v',
  'SELECT min(v), max(v), min(i), max(i), min(n), max(n), sum(i), sum(b), sum(n), avg(i), avg(n), count(d), count(*), count(v) FROM t',
  'SELECT flag, sum(b), count(*), min(dt), max(ts), min(tm) FROM t GROUP BY flag',
  'SELECT c, count(*) FROM t GROUP BY c',
  'SELECT d, count(*) FROM t GROUP BY d',
  'SELECT bin, count(*) FROM t GROUP BY bin',
  'SELECT s, avg(n), avg(b) FROM t WHERE i > 0 GROUP BY s',
  'SELECT v, count(*) FROM t GROUP BY v HAVING count(*) > 166',
  'SELECT id, v FROM t ORDER BY v DESC NULLS FIRST, id LIMIT 7',
  'SELECT id, v FROM t ORDER BY v ASC NULLS LAST, id DESC LIMIT 25',
  'SELECT id, d FROM t ORDER BY d, id LIMIT 5',
  'SELECT id, n FROM t ORDER BY n DESC, id LIMIT 5',
  'SELECT id, c FROM t ORDER BY c, id LIMIT 5',
  'SELECT v, count(*) AS k FROM t GROUP BY v ORDER BY k DESC, v LIMIT 3',
  'SELECT count(*) FROM (SELECT * FROM t WHERE i > 0 LIMIT 10)',
  'SELECT count(*) FROM (SELECT * FROM t ORDER BY id LIMIT 10) WHERE i > 0',
  'SELECT sum(i) FROM (SELECT i FROM t ORDER BY id LIMIT 100)',
  'SELECT count(*) FROM t WHERE i > 1000',
  'SELECT sum(i), min(v) FROM t WHERE i > 1000',
  'SELECT v, count(*) FROM t WHERE i > 1000 GROUP BY v',
];

describe("postgresql connector: pushdown gives the engine's answers", function () {
  this.timeout(300_000);
  const fixture = withPgFixture(SETUP, { usePublic: true });

  async function withPushdown(on: boolean, sql: string) {
    for (const name of OFF) await fixture.engine.run(`SET SESSION pg.${name} = ${on}`);
    return fixture.engine.rows(sql);
  }

  async function explain(sql: string): Promise<string> {
    for (const name of OFF) await fixture.engine.run(`RESET SESSION pg.${name}`);
    return String((await fixture.engine.rows(`EXPLAIN ${sql}`))[0][0]);
  }

  for (const filter of FILTERS) {
    it(`WHERE ${filter}`, async () => {
      const sql = `SELECT id FROM t WHERE ${filter}`;
      const pushed = await withPushdown(true, sql);
      const engine = await withPushdown(false, sql);
      expect(canonicalRows(pushed)).to.deep.equal(canonicalRows(engine));
      expect(pushed.length).to.be.greaterThan(0, 'a filter that keeps no row proves little');
    });
  }

  for (const sql of QUERIES) {
    it(sql, async () => {
      const ordered = /ORDER BY/.test(sql) && !/^SELECT count|^SELECT sum/.test(sql);
      const pushed = await withPushdown(true, sql);
      const engine = await withPushdown(false, sql);
      expect(canonicalRows(pushed, ordered)).to.deep.equal(canonicalRows(engine, ordered));
    });
  }

  it('pushes what PostgreSQL evaluates alike, and keeps the rest in the engine', async () => {
    expect(await explain('SELECT count(*) FROM t WHERE i > 5')).to.match(
      /TableScan\[table = pg:public\.t, columns = \[_count_0\], filter = \("i" > CAST\('5' AS integer\)\), aggregates = \[_count_0 := count\(\*\)\]\]/,
    );
    // NaN: > gets an exclusion of NaN; a float key is not grouped there.
    expect(await explain('SELECT id FROM t WHERE d > 1.0')).to.include(
      `filter = (("d" > CAST('1' AS double precision)) AND "d" <> CAST('NaN' AS double precision))`,
    );
    expect(await explain('SELECT d, count(*) FROM t GROUP BY d')).to.match(/Aggregate/);
    // Text compares under COLLATE "C", LIKE with an explicit (empty) escape.
    expect(await explain("SELECT id FROM t WHERE v < 'b'")).to.include(`filter = ("v" COLLATE "C" < CAST('b' AS varchar(20)))`);
    expect(await explain("SELECT id FROM t WHERE v LIKE 'a%'")).to.include(`filter = ("v" COLLATE "C" LIKE 'a%' ESCAPE '')`);
    // char comparisons stay in the engine.
    expect(await explain("SELECT id FROM t WHERE c = 'ab'")).to.match(/Filter\[/);
    expect(await explain('SELECT id, v FROM t ORDER BY v DESC NULLS FIRST, id LIMIT 7')).to.include(
      `orderBy = ["v" COLLATE "C" DESC NULLS FIRST, "id" ASC NULLS LAST], limit = 7`,
    );
    const floatOrder = await explain('SELECT id, d FROM t ORDER BY d, id LIMIT 5');
    expect(
      floatOrder
        .split('\n')
        .filter((l) => l.includes('TableScan'))
        .join('\n'),
    ).not.to.include('orderBy =');
    // A filter over aggregated or limited rows is not a WHERE.
    const having = await explain('SELECT v, count(*) FROM t GROUP BY v HAVING count(*) > 166');
    expect(having).to.match(/Filter\[filterPredicate = greater_than/);
    expect(having).not.to.include('filter =');
  });

  it('SELECT count(*) ... WHERE x > 5 moves one row, not the table', async () => {
    for (const name of OFF) await fixture.engine.run(`RESET SESSION pg.${name}`);
    const plan = String((await fixture.engine.rows('EXPLAIN ANALYZE SELECT count(*) FROM t WHERE i > 5'))[0][0]);
    const scan = plan.split('\n').findIndex((l) => l.includes('TableScan[table = pg:public.t'));
    expect(scan).to.be.greaterThan(-1);
    expect(
      plan
        .split('\n')
        .slice(scan, scan + 3)
        .join('\n'),
    ).to.match(/Output: 1 rows/);
  });

  it("counts the bytes PostgreSQL sent as the scan's bytesRead", async () => {
    for (const name of OFF) await fixture.engine.run(`RESET SESSION pg.${name}`);
    const plan = String((await fixture.engine.rows('EXPLAIN ANALYZE SELECT i FROM t'))[0][0]);
    const bytesRead = Number(/bytesRead = (\d+)/.exec(plan)?.[1]);
    // PostgreSQL's binary COPY of one integer column: a 19-byte header and a 2-byte trailer; per row a
    // 2-byte field count and a 4-byte length, and the 4 bytes of the value unless it is NULL.
    const [{ rows, values }] = await fixture.server.sql<{ rows: string; values: string }>(
      'SELECT count(*) AS rows, count(i) AS values FROM t',
    );
    expect(bytesRead, plan).to.equal(19 + 2 + 6 * Number(rows) + 4 * Number(values));
  });

  it("SHOW STATS: PostgreSQL's row estimate and ANALYZE figures, as Trino's connector reads them", async () => {
    const [{ reltuples }] = await fixture.server.sql<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 't'");
    const sampled = await fixture.server.sql<{ attname: string; null_frac: number; n_distinct: number; avg_width: number }>(
      "SELECT attname, null_frac, n_distinct, avg_width FROM pg_stats WHERE schemaname = 'public' AND tablename = 't'",
    );
    const rows = await fixture.engine.rows('SHOW STATS FOR pg.public.t');
    expect(rows.at(-1)).to.deep.equal([null, null, null, null, Number(reltuples), null, null]);
    const byName = new Map(rows.map((r) => [r[0], r]));
    for (const { attname, null_frac, n_distinct, avg_width } of sampled) {
      const nulls = Math.fround(Number(null_frac));
      const distinct = Math.fround(Number(n_distinct));
      const expected = [
        attname,
        avg_width * Number(reltuples) * (1 - nulls),
        distinct >= 0 ? distinct : -distinct * Number(reltuples),
        nulls,
        null,
        null,
        null,
      ];
      expect(byName.get(attname), attname).to.deep.equal(expected);
    }
    // i is NULL in every 7th row: PostgreSQL sampled all 3,000 rows.
    expect(byName.get('i')![3]).to.equal(Math.fround(428 / 3000));
  });

  it('agrees with PostgreSQL itself where their semantics agree', async () => {
    const pairs: [string, string][] = [
      ['SELECT CAST(count(*) AS varchar) FROM t WHERE i > 5', 'SELECT count(*)::text FROM t WHERE i > 5'],
      ['SELECT CAST(count(*) AS varchar) FROM t WHERE d > 1.0', "SELECT count(*)::text FROM t WHERE d > 1.0 AND d <> 'NaN'"],
      [
        "SELECT v, CAST(count(*) AS varchar) FROM t WHERE v < 'b' GROUP BY v",
        `SELECT v, count(*)::text FROM t WHERE v COLLATE "C" < 'b' GROUP BY v`,
      ],
      ["SELECT CAST(count(*) AS varchar) FROM t WHERE v LIKE 'A\\b'", "SELECT count(*)::text FROM t WHERE v LIKE 'A\\b' ESCAPE ''"],
      [
        'SELECT CAST(sum(i) AS varchar), CAST(sum(b) AS varchar), CAST(sum(n) AS varchar), CAST(min(n) AS varchar), CAST(avg(n) AS varchar), min(v), max(v) FROM t',
        `SELECT sum(i)::text AS c1, sum(b)::text AS c2, sum(n)::text AS c3, min(n)::text AS c4, round(avg(n), 3)::text AS c5, min(v COLLATE "C") AS c6, max(v COLLATE "C") AS c7 FROM t`,
      ],
      [
        'SELECT CAST(id AS varchar), v FROM t ORDER BY v, id LIMIT 20',
        'SELECT id::text AS k, v FROM t ORDER BY v COLLATE "C" NULLS LAST, t.id LIMIT 20',
      ],
      [
        'SELECT CAST(flag AS varchar), CAST(count(*) AS varchar) FROM t GROUP BY flag',
        'SELECT flag::text, count(*)::text FROM t GROUP BY flag',
      ],
    ];
    for (const [ours, theirs] of pairs) {
      const ordered = /ORDER BY/.test(ours);
      expect(canonicalRows(await withPushdown(true, ours), ordered), ours).to.deep.equal(
        canonicalPgRows(await fixture.server.sql(theirs), ordered),
      );
    }
  });

  it('rounds a decimal average HALF_UP exactly as the engine does', async () => {
    await fixture.server.sql(
      `CREATE TABLE halves (k integer, x numeric(5,3)); INSERT INTO halves VALUES (1, 0.001), (1, 0.002), (2, -0.001), (2, -0.002), (3, 0.001), (3, 0.001), (3, 0.002)`,
    );
    const sql = 'SELECT k, avg(x) FROM halves GROUP BY k';
    const pushed = await withPushdown(true, sql);
    expect(canonicalRows(pushed)).to.deep.equal(canonicalRows(await withPushdown(false, sql)));
    expect(canonicalRows(pushed)).to.deep.equal(['1 | 2', '2 | -2', '3 | 1']);
  });

  it('fails a bigint sum that overflows, pushed or not', async () => {
    await fixture.server.sql(`CREATE TABLE huge (x bigint); INSERT INTO huge VALUES (9223372036854775807), (1)`);
    for (const on of [true, false]) {
      for (const name of OFF) await fixture.engine.run(`SET SESSION pg.${name} = ${on}`);
      const error = await fixture.engine.failure('SELECT sum(x) FROM huge');
      expect(error.errorName, `pushdown ${on}`).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
    }
  });
});
