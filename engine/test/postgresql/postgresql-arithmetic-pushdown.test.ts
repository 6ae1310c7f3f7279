// Integer arithmetic in pushed filters (+, -, *, /, %, negation; COALESCE, NULLIF: as Trino's PostgreSQL
// connector pushes them): PostgreSQL narrows the rows, and the answers, errors included, are the engine's. The
// oracle is PostgreSQL running the same condition itself (its integer operators give Trino's values
// wherever nothing overflows or divides by zero; where a condition guards a division, PostgreSQL is
// told the order with CASE), and Trino's documented errors where the arithmetic fails.

import { expect } from 'chai';
import { canonicalRows, withPgFixture } from './pg-fixture.js';

const SETUP = `
CREATE TABLE nums (id integer PRIMARY KEY, a integer, b integer, s smallint, g bigint);
INSERT INTO nums SELECT x,
  CASE WHEN x % 9 = 0 THEN NULL ELSE (x * 37) % 201 - 100 END,
  (x * 7) % 11 - 5,
  ((x * 13) % 401 - 200)::smallint,
  (x::bigint * 1000000007) % 1000000000000 * CASE WHEN x % 2 = 0 THEN -1 ELSE 1 END
FROM generate_series(1, 500) x;
CREATE TABLE edge (id integer PRIMARY KEY, a integer, b integer);
INSERT INTO edge VALUES (1, 2147483647, 1), (2, -2147483648, -1), (3, 5, 0), (4, NULL, 2), (5, 10, 3), (6, -7, 2);`;

/** Conditions PostgreSQL computes without failing on `nums` (no overflow there; divisors are never 0), each with the ids it keeps. */
const FILTERS = [
  'a + 1 > 5',
  'a - b < 0',
  'a * 2 = b + 4',
  'a / 3 = 2',
  'a / -4 > 3',
  'a % 4 = 1',
  'a % -3 = -2',
  '-a > 30',
  '- (a + b) BETWEEN -10 AND 10',
  'a + 1 IN (3, 4, 5)',
  '(a + b) IS NULL',
  's + s > 100',
  's * 100 < -10000',
  'g * 2 > 0',
  'g / 1000 % 7 = 3',
  'CAST(a AS bigint) * 3000000000 > 0',
  'a + 1 > 5 AND b < 0',
  'a + 1 > 5 OR b * b = 16',
  'NOT (a * a > 400)',
  // COALESCE and NULLIF, as Trino pushes them.
  'COALESCE(a, b) + 1 > 3',
  'COALESCE(a, -1000) < -50',
  'NULLIF(b, 0) IS NULL',
  '100 / NULLIF(b, 0) > 20',
];

describe('postgresql connector: integer arithmetic in pushed filters', function () {
  this.timeout(180_000);
  const fixture = withPgFixture(SETUP, { usePublic: true });

  async function pgIds(sql: string): Promise<string[]> {
    const rows = await fixture.server.sql<{ id: number }>(sql);
    return canonicalRows(rows.map((r) => [r.id]));
  }

  for (const filter of FILTERS) {
    it(`WHERE ${filter}: PostgreSQL's rows, the condition pushed`, async () => {
      const sql = `SELECT id FROM nums WHERE ${filter}`;
      const expected = await pgIds(sql);
      expect(expected.length).to.be.greaterThan(0, 'a filter that keeps no row proves little');
      expect(canonicalRows(await fixture.engine.rows(sql))).to.deep.equal(expected);
      const [[plan]] = await fixture.engine.rows(`EXPLAIN ${sql}`);
      expect(String(plan)).to.match(/TableScan\[table = pg:public\.nums, [^\n]*filter = /);
    });
  }

  it('EXPLAIN shows the condition PostgreSQL evaluates, and the engine checking it again', async () => {
    const [[plan]] = await fixture.engine.rows('EXPLAIN SELECT id FROM nums WHERE a + 1 > 5');
    expect(String(plan)).to.include(
      `filter = (CASE WHEN ((CAST("a" AS numeric) + CAST(CAST('1' AS integer) AS numeric)) < -2147483648 OR (CAST("a" AS numeric) + CAST(CAST('1' AS integer) AS numeric)) > 2147483647) THEN TRUE ELSE ((CAST("a" AS numeric) + CAST(CAST('1' AS integer) AS numeric)) > CAST('5' AS integer)) END)`,
    );
    expect(String(plan)).to.match(/Filter\[filterPredicate = greater_than\(add\(a_\d+, 1\), 5\)\]/);
    // Without arithmetic, PostgreSQL's answer is exact: nothing is left to the engine.
    const [[exact]] = await fixture.engine.rows('EXPLAIN SELECT id FROM nums WHERE NULLIF(b, 0) IS NULL');
    expect(String(exact)).to.include(`filter = (NULLIF("b", CAST('0' AS integer)) IS NULL)`);
    expect(String(exact)).not.to.match(/Filter\[/);
  });

  it("an overflow or a division by zero the engine reaches fails with Trino's error", async () => {
    const overflow = await fixture.engine.failure('SELECT id FROM edge WHERE a + 1 > 5');
    expect([overflow.errorName, overflow.message]).to.deep.equal([
      'NUMERIC_VALUE_OUT_OF_RANGE',
      'integer addition overflow: 2147483647 + 1',
    ]);
    const negation = await fixture.engine.failure('SELECT id FROM edge WHERE -a < 0');
    expect([negation.errorName, negation.message]).to.deep.equal(['NUMERIC_VALUE_OUT_OF_RANGE', 'integer negation overflow: -2147483648']);
    const zero = await fixture.engine.failure('SELECT id FROM edge WHERE 100 / b > 1');
    expect([zero.errorName, zero.message]).to.deep.equal(['DIVISION_BY_ZERO', 'Division by zero']);
    // Even where the exact result would not pass the condition, the engine's arithmetic fails.
    const hidden = await fixture.engine.failure('SELECT id FROM edge WHERE a * 2 = 7');
    expect(hidden.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
  });

  it('a condition before the arithmetic that rules out its failing rows keeps the query from failing, as in the engine', async () => {
    const cases = [
      ['b <> 0 AND 100 / b > 1', 'CASE WHEN b <> 0 THEN 100 / b > 1 ELSE false END'],
      // The guard stays in the engine (abs is not pushed); PostgreSQL dividing by the row's 0 would fail.
      ['abs(b) > 0 AND 100 / b > 1', 'CASE WHEN abs(b) > 0 THEN 100 / b > 1 ELSE false END'],
      ['a < 1000 AND a + 1 > 5', 'CASE WHEN a < 1000 THEN a + 1 > 5 ELSE false END'],
      [
        'a BETWEEN -100 AND 100 AND b <> 0 AND -a * 3 < 0 AND a % b = 1',
        'CASE WHEN a BETWEEN -100 AND 100 AND b <> 0 THEN -a * 3 < 0 AND a % b = 1 ELSE false END',
      ],
    ];
    for (const [engineWhere, pgWhere] of cases) {
      const expected = await pgIds(`SELECT id FROM edge WHERE ${pgWhere}`);
      expect(canonicalRows(await fixture.engine.rows(`SELECT id FROM edge WHERE ${engineWhere}`)), engineWhere).to.deep.equal(expected);
    }
  });

  it('a DELETE whose WHERE has arithmetic is made by key, exactly', async () => {
    await fixture.server.sql('CREATE TABLE del AS SELECT * FROM nums; ALTER TABLE del ADD PRIMARY KEY (id)');
    const expected = await pgIds('SELECT id FROM nums WHERE NOT COALESCE(a * 3 - b > 50, false)');
    const result = await fixture.engine.query('DELETE FROM pg.public.del WHERE a * 3 - b > 50');
    expect(result.result.updateCount).to.equal(500 - expected.length);
    expect(await pgIds('SELECT id FROM del')).to.deep.equal(expected);
  });
});
