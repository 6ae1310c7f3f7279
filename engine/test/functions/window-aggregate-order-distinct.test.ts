// Aggregates over windows with ORDER BY and DISTINCT inside the call, containers as results and
// lambdas: Trino's own cases (core/trino-main TestWindow, TestOrderedAggregation, TestAnalyzer)
// with their results and errors, and DuckDB (which has ORDER BY and DISTINCT in window aggregates)
// on generated rows with ties, NULLs and sliding frames.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { formatValueAsText } from '../../src/types/values.js';
import { EngineHarness } from '../support/engine-harness.js';

const engine = new EngineHarness();

async function texts(sql: string): Promise<string[]> {
  const result = await engine.query(sql);
  const types = result.columns.map((c) => c.type);
  return result.rows.map((row) => row.map((v, i) => formatValueAsText(v, types[i])).join(' | '));
}

const ABC = `FROM (VALUES (1, 1, 1), (1, 2, 2), (1, 3, 3), (1, 4, 4), (1, 4, 7), (1, 5, 5),
  (2, 1, 1), (2, 2, 3), (2, 3, 2), (2, 4, 1)) AS t(a, b, c) WINDOW w AS (PARTITION BY a ORDER BY b)`;
const ABCD = `FROM (VALUES (1, 1, 1, 5), (1, 2, 2, 4), (1, 3, 3, 1), (1, 4, 4, 2), (1, 4, 7, 6), (1, 5, 5, 3),
  (2, 1, 1, 4), (2, 2, 3, 3), (2, 3, 2, 2), (2, 4, 1, 1)) AS t(a, b, c, d) WINDOW w AS (PARTITION BY a ORDER BY b)`;

describe("aggregates with ORDER BY and DISTINCT over windows: Trino's TestWindow", () => {
  // Rows come out in (a, b) order; peers (b = 4 in partition 1) share their frame and value.
  const cases: [string, string[]][] = [
    [
      `SELECT a, array_agg(c ORDER BY c) OVER w ${ABC} ORDER BY a, b, c`,
      ['1 | [1]', '1 | [1, 2]', '1 | [1, 2, 3]', '1 | [1, 2, 3, 4, 7]', '1 | [1, 2, 3, 4, 7]', '1 | [1, 2, 3, 4, 5, 7]'].concat([
        '2 | [1]',
        '2 | [1, 3]',
        '2 | [1, 2, 3]',
        '2 | [1, 1, 2, 3]',
      ]),
    ],
    [
      `SELECT a, array_agg(c ORDER BY c DESC) OVER w ${ABC} ORDER BY a, b, c`,
      ['1 | [1]', '1 | [2, 1]', '1 | [3, 2, 1]', '1 | [7, 4, 3, 2, 1]', '1 | [7, 4, 3, 2, 1]', '1 | [7, 5, 4, 3, 2, 1]'].concat([
        '2 | [1]',
        '2 | [3, 1]',
        '2 | [3, 2, 1]',
        '2 | [3, 2, 1, 1]',
      ]),
    ],
    [
      `SELECT a, array_agg(c ORDER BY d) OVER w ${ABCD} ORDER BY a, b, c`,
      ['1 | [1]', '1 | [2, 1]', '1 | [3, 2, 1]', '1 | [3, 4, 2, 1, 7]', '1 | [3, 4, 2, 1, 7]', '1 | [3, 4, 5, 2, 1, 7]'].concat([
        '2 | [1]',
        '2 | [3, 1]',
        '2 | [2, 3, 1]',
        '2 | [1, 2, 3, 1]',
      ]),
    ],
    [
      `SELECT a, array_agg(c ORDER BY d, c DESC) OVER w
       FROM (VALUES (1, 1, 1, 5), (1, 2, 2, 4), (1, 3, 3, 4), (1, 4, 4, 5), (1, 4, 7, 1), (1, 5, 5, 2)) AS t(a, b, c, d)
       WINDOW w AS (PARTITION BY a ORDER BY b) ORDER BY b, c`,
      ['1 | [1]', '1 | [2, 1]', '1 | [3, 2, 1]', '1 | [7, 3, 2, 4, 1]', '1 | [7, 3, 2, 4, 1]', '1 | [7, 5, 3, 2, 4, 1]'],
    ],
    [
      `SELECT a, array_agg(c ORDER BY b DESC) OVER w
       FROM (VALUES (1, 1, 1), (1, 2, 2), (1, 3, 3), (1, 4, 4), (1, 5, 5)) t(a, b, c)
       WINDOW w AS (PARTITION BY a ORDER BY b GROUPS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) ORDER BY b`,
      ['1 | [3, 2]', '1 | [4, 3]', '1 | [5, 4]', '1 | [5]', '1 | NULL'],
    ],
    [
      `SELECT a, array_agg(DISTINCT c) OVER w
       FROM (VALUES (1, 1, 1), (1, 2, 2), (1, 3, 1), (1, 4, 4), (1, 4, 2), (1, 5, 5),
                    (2, 1, 1), (2, 2, 3), (2, 3, 2), (2, 4, 3)) AS t(a, b, c)
       WINDOW w AS (PARTITION BY a ORDER BY b) ORDER BY a, b, c`,
      ['1 | [1]', '1 | [1, 2]', '1 | [1, 2]', '1 | [1, 2, 4]', '1 | [1, 2, 4]', '1 | [1, 2, 4, 5]'].concat([
        '2 | [1]',
        '2 | [1, 3]',
        '2 | [1, 3, 2]',
        '2 | [1, 3, 2]',
      ]),
    ],
    [
      `SELECT a, array_agg(DISTINCT c ORDER BY c DESC) OVER w
       FROM (VALUES (1, 1, 1), (1, 2, 2), (1, 3, 1), (1, 4, 4), (1, 4, 2), (1, 5, 5),
                    (2, 1, 1), (2, 2, 3), (2, 3, 2), (2, 4, 3)) AS t(a, b, c)
       WINDOW w AS (PARTITION BY a ORDER BY b) ORDER BY a, b, c`,
      ['1 | [1]', '1 | [2, 1]', '1 | [2, 1]', '1 | [4, 2, 1]', '1 | [4, 2, 1]', '1 | [5, 4, 2, 1]'].concat([
        '2 | [1]',
        '2 | [3, 1]',
        '2 | [3, 2, 1]',
        '2 | [3, 2, 1]',
      ]),
    ],
    [
      "SELECT *, count(DISTINCT b) OVER w FROM (VALUES ('x', true), ('x', false)) AS t(a, b) WINDOW w AS (PARTITION BY a) ORDER BY b",
      ['x | false | 2', 'x | true | 2'],
    ],
    // TestOrderedAggregation: over a window after GROUP BY.
    [
      'SELECT array_agg(z ORDER BY z) OVER (PARTITION BY x) FROM (VALUES (1, 2, 3), (1, 2, 1), (2, 1, 3), (2, 1, 4)) t(x, y, z) GROUP BY x, z ORDER BY x',
      ['[1, 3]', '[1, 3]', '[3, 4]', '[3, 4]'],
    ],
    // TestListagg: listagg ... WITHIN GROUP over a window.
    [
      `SELECT a, listagg(c, ',') WITHIN GROUP (ORDER BY c DESC) OVER (PARTITION BY a)
       FROM (VALUES (1, 'a'), (1, 'b'), (2, 'c')) t(a, c) ORDER BY a, c`,
      ['1 | b,a', '1 | b,a', '2 | c'],
    ],
  ];
  for (const [sql, expected] of cases) {
    it(sql.replace(/\s+/g, ' ').slice(0, 110), async () => {
      expect(await texts(sql)).to.deep.equal(expected);
    });
  }
});

describe("window calls Trino refuses, with Trino's errors (TestAnalyzer, StatementAnalyzer)", () => {
  const t = '(VALUES (1, 2)) t(a, b)';
  const cases: [string, string, string][] = [
    [
      `SELECT first_value(a ORDER BY b) OVER () FROM ${t}`,
      'NOT_SUPPORTED',
      'line 1:8: Only aggregation window functions with ORDER BY are supported',
    ],
    [
      `SELECT first_value(DISTINCT a) OVER () FROM ${t}`,
      'NOT_SUPPORTED',
      'line 1:1: Only aggregation window functions with DISTINCT are supported: first_value(DISTINCT a) OVER ()',
    ],
    [`SELECT sum(a) FILTER (WHERE a > 0) OVER () FROM ${t}`, 'NOT_SUPPORTED', 'line 1:1: FILTER is not yet supported for window functions'],
    [`SELECT abs(a) OVER () FROM ${t}`, 'FUNCTION_NOT_WINDOW', 'line 1:1: Not a window function: abs'],
  ];
  for (const [sql, name, message] of cases) {
    it(sql, async () => {
      const e = await engine.failure(sql);
      expect([e.errorName, e.message]).to.deep.equal([name, message]);
    });
  }
});

describe('aggregates returning containers, and with lambdas, over windows', () => {
  it('map_agg, multimap_agg, histogram and approx_most_frequent over a window', async () => {
    const sql = `SELECT a, map_agg(b, c) OVER w, multimap_agg(a, c) OVER w, histogram(a) OVER w, approx_most_frequent(2, a, 10) OVER w
      FROM (VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 3, 'z')) t(a, b, c) WINDOW w AS (ORDER BY b) ORDER BY b`;
    expect(await texts(sql)).to.deep.equal([
      '1 | {1=x} | {1=[x]} | {1=1} | {1=1}',
      '1 | {1=x, 2=y} | {1=[x, y]} | {1=2} | {1=2}',
      '2 | {1=x, 2=y, 3=z} | {1=[x, y], 2=[z]} | {1=2, 2=1} | {1=2, 2=1}',
    ]);
  });

  it('reduce_agg with its lambdas over a window', async () => {
    const sql = `SELECT reduce_agg(c, 0, (s, x) -> s + x, (s, t) -> s + t) OVER (PARTITION BY a ORDER BY c)
      FROM (VALUES (1, 1), (1, 2), (1, 5), (2, 7)) t(a, c) ORDER BY a, c`;
    expect(await texts(sql)).to.deep.equal(['1', '3', '8', '7']);
  });
});

const ROWS = 150;

/** Rows with ties and NULLs in c and k, three partitions; id makes every order total. */
function generatedRows(): string {
  let seed = 7919;
  const next = (m: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % m;
  const rows: string[] = [];
  for (let id = 0; id < ROWS; id++) {
    const c = next(8) === 0 ? 'NULL' : String(next(12));
    const k = next(10) === 0 ? 'NULL' : String(next(6));
    rows.push(`(${id}, ${next(3)}, ${c}, ${k})`);
  }
  return rows.join(', ');
}

const ORACLE_WINDOWS = [
  'PARTITION BY g ORDER BY id',
  'PARTITION BY g ORDER BY k',
  'ORDER BY id ROWS BETWEEN 4 PRECEDING AND 2 FOLLOWING',
  'PARTITION BY g ORDER BY k GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING',
  'PARTITION BY g',
];

describe('aggregates with ORDER BY and DISTINCT over windows equal DuckDB on generated rows', function () {
  this.timeout(120_000);
  let duck: DuckDBConnection;
  const local = new EngineHarness();

  before(async () => {
    duck = await openDuckDb(1);
    const values = generatedRows();
    await local.run(
      'CREATE TABLE memory.default.wa (id integer, g integer, c integer, k integer)',
      `INSERT INTO memory.default.wa VALUES ${values}`,
    );
    await duck.run('CREATE TABLE wa (id integer, g integer, c integer, k integer)');
    await duck.run(`INSERT INTO wa VALUES ${values}`);
  });
  after(() => duck.closeSync());

  for (const window of ORACLE_WINDOWS) {
    it(window, async () => {
      // Both print arrays as [a, b] and NULL elements as NULL.
      const calls = [
        'array_agg(c ORDER BY k DESC NULLS FIRST, id) OVER w',
        'array_agg(c ORDER BY c NULLS LAST, id DESC) OVER w',
        'count(DISTINCT c) OVER w',
        'sum(DISTINCT k) OVER w',
        'array_agg(DISTINCT c ORDER BY c) OVER w',
      ];
      const sql = `SELECT id, ${calls.join(', ')} FROM wa WINDOW w AS (${window}) ORDER BY id`;
      const ours = await local.query(sql.replace('FROM wa', 'FROM memory.default.wa'));
      const types = ours.columns.map((c) => c.type);
      const theirs = (await duckRows(duck, sql)).map((row) => row.map(duckText).join(' | '));
      expect(ours.rows.map((row) => row.map((v, i) => formatValueAsText(v, types[i])).join(' | '))).to.deep.equal(theirs);
    });
  }
});

function duckText(v: unknown): string {
  if (v === null) return 'NULL';
  if (typeof v === 'object' && v !== null && 'items' in v) return `[${(v as { items: unknown[] }).items.map(duckText).join(', ')}]`;
  return String(v);
}
