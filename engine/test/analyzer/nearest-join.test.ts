// NEAREST joins (Trino's as-of join) against DuckDB on the same random rows: DuckDB's ASOF JOIN for
// the forms it shares (an equality key plus one inequality, inner and LEFT, each operator), and
// DuckDB's LATERAL ... ORDER BY ... LIMIT 1 (Trino's documented equivalent) for trades with NULL
// times and a WHERE condition on the left side. (DuckDB's ASOF JOIN matches some trades whose time
// is NULL, which its own LATERAL form and Trino's semantics do not: those trades go to the LATERAL
// oracle.) Quote times are distinct, so the nearest row is unique and both must agree on it.
// Also: the plan is one as-of join keyed on the equality (no per-row subquery), ties keep one of the
// tied rows, and Trino's errors for the forms it refuses, with their positions.

import { expect } from 'chai';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

describe('NEAREST joins', function () {
  this.timeout(120_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    const next = seededRandom(19);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const symbol = () => (next() < 0.05 ? 'NULL' : `'${pick(['A', 'B', 'C', 'D'])}'`);
    const times = Array.from({ length: 400 }, (_, i) => i * 3).sort(() => next() - 0.5);
    const quotes = times.slice(0, 200).map((ts, id) => `(${id}, ${symbol()}, ${next() < 0.05 ? 'NULL' : ts}, ${Math.floor(next() * 100)})`);
    const trades = Array.from(
      { length: 150 },
      (_, id) => `(${id}, ${symbol()}, ${next() < 0.05 ? 'NULL' : Math.floor(next() * 1200)}, ${Math.floor(next() * 10)})`,
    );
    await both.runOnBoth(
      'CREATE TABLE quotes (id integer, symbol varchar, ts integer, price integer)',
      `INSERT INTO quotes VALUES ${quotes.join(', ')}`,
      'CREATE TABLE trades (id integer, symbol varchar, ts integer, qty integer)',
      `INSERT INTO trades VALUES ${trades.join(', ')}`,
      'CREATE TABLE timed_trades AS SELECT * FROM trades WHERE ts IS NOT NULL',
    );
  });

  after(() => both.close());

  /** Our rows of `ours` are DuckDB's of `theirs`. */
  async function expectSame(ours: string, theirs: string): Promise<string[]> {
    const rows = (await engine.rows(ours)).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|')).sort();
    const duck = await both.duck.runAndReadAll(theirs);
    const expected = duck
      .getRowsJS()
      .map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'))
      .sort();
    expect(rows).to.deep.equal(expected, ours);
    return rows;
  }

  it("matches each trade with the latest quote of its symbol at or before it (the documented example, DuckDB's ASOF JOIN)", async () => {
    const rows = await expectSame(
      'SELECT trades.id, quotes.id, quotes.price FROM timed_trades trades CROSS JOIN NEAREST (FROM quotes WHERE quotes.symbol = trades.symbol MATCH quotes.ts <= trades.ts)',
      'SELECT trades.id, quotes.id, quotes.price FROM timed_trades trades ASOF JOIN quotes ON quotes.symbol = trades.symbol AND trades.ts >= quotes.ts',
    );
    expect(rows.length).to.be.greaterThan(100);
  });

  it('keeps trades without a later quote in LEFT JOIN NEAREST ... ON TRUE, with NULLs', async () => {
    const rows = await expectSame(
      'SELECT trades.id, quotes.id FROM timed_trades trades LEFT JOIN NEAREST (FROM quotes WHERE quotes.symbol = trades.symbol MATCH quotes.ts >= trades.ts) ON TRUE',
      'SELECT trades.id, quotes.id FROM timed_trades trades ASOF LEFT JOIN quotes ON quotes.symbol = trades.symbol AND trades.ts <= quotes.ts',
    );
    expect(rows).to.have.length(141);
    expect(rows.filter((r) => r.endsWith('|NULL')).length).to.be.greaterThan(5);
  });

  it('takes the nearest strictly before or after for < and >, with the operands either way round (INNER JOIN ON TRUE, comma join)', async () => {
    await expectSame(
      'SELECT t.id, q.id FROM timed_trades t INNER JOIN NEAREST (FROM quotes WHERE quotes.symbol = t.symbol MATCH quotes.ts < t.ts) q ON TRUE',
      'SELECT t.id, q.id FROM timed_trades t ASOF JOIN quotes q ON q.symbol = t.symbol AND t.ts > q.ts',
    );
    await expectSame(
      'SELECT t.id, n.id FROM timed_trades t, NEAREST (FROM quotes WHERE t.symbol = quotes.symbol MATCH t.ts < quotes.ts) n',
      'SELECT t.id, q.id FROM timed_trades t ASOF JOIN quotes q ON q.symbol = t.symbol AND t.ts < q.ts',
    );
  });

  it('filters candidates by the rest of WHERE before choosing, and matches expressions of either side', async () => {
    await expectSame(
      'SELECT t.id, q.id FROM timed_trades t CROSS JOIN NEAREST (FROM quotes q WHERE q.symbol = t.symbol AND q.price > 50 MATCH q.ts + 10 <= t.ts * 2)',
      'SELECT t.id, q.id FROM timed_trades t ASOF JOIN (SELECT * FROM quotes WHERE price > 50) q ON q.symbol = t.symbol AND t.ts * 2 >= q.ts + 10',
    );
  });

  it('finds the nearest over all candidates without an equality key', async () => {
    await expectSame(
      'SELECT t.id, q.id FROM timed_trades t CROSS JOIN NEAREST (FROM quotes q MATCH q.ts >= t.ts)',
      'SELECT t.id, q.id FROM timed_trades t ASOF JOIN quotes q ON t.ts <= q.ts',
    );
  });

  it('matches no quote to a trade whose time is NULL, and none whose time is NULL to a trade (DuckDB: the documented LATERAL equivalent)', async () => {
    const rows = await expectSame(
      'SELECT t.id, q.id FROM trades t LEFT JOIN NEAREST (FROM quotes q WHERE q.symbol = t.symbol MATCH q.ts > t.ts) ON TRUE',
      'SELECT t.id, q.id FROM trades t LEFT JOIN LATERAL (SELECT * FROM quotes q WHERE q.symbol = t.symbol AND q.ts > t.ts ORDER BY q.ts LIMIT 1) q ON TRUE',
    );
    expect(rows).to.have.length(150);
    await expectSame(
      'SELECT t.id, q.id FROM trades t CROSS JOIN NEAREST (FROM quotes q MATCH q.ts <= t.ts)',
      'SELECT t.id, q.id FROM trades t CROSS JOIN LATERAL (SELECT * FROM quotes q WHERE q.ts <= t.ts ORDER BY q.ts DESC LIMIT 1) q',
    );
  });

  it('applies a WHERE condition on the left side per row in a LEFT join (DuckDB: the documented LATERAL equivalent)', async () => {
    await expectSame(
      'SELECT t.id, q.id FROM trades t LEFT JOIN NEAREST (FROM quotes q WHERE q.symbol = t.symbol AND t.qty > 4 MATCH q.ts <= t.ts) ON TRUE',
      'SELECT t.id, q.id FROM trades t LEFT JOIN LATERAL (SELECT * FROM quotes q WHERE q.symbol = t.symbol AND t.qty > 4 AND q.ts <= t.ts ORDER BY q.ts DESC LIMIT 1) q ON TRUE',
    );
  });

  it('plans one as-of join keyed on the WHERE equality, not a subquery per row', async () => {
    const [[plan]] = await engine.rows(
      'EXPLAIN SELECT t.id, q.id FROM trades t LEFT JOIN NEAREST (FROM quotes q WHERE q.symbol = t.symbol MATCH q.ts <= t.ts) ON TRUE',
    );
    expect(plan).to.match(
      /LeftNearestJoin\[criteria = \(symbol_\d+ = symbol_\d+\), filter = less_than_or_equal\(nearest_key_\d+, nearest_value_\d+\), nearest = nearest_key_\d+ <= nearest_value_\d+/,
    );
    expect(plan).to.not.match(/Apply|Window|TopN/);
  });

  it('never matches NaN, on either side (SQL comparisons with NaN are false)', async () => {
    await engine.run('CREATE TABLE prices AS SELECT * FROM (VALUES (1, 1.0E0), (2, nan()), (3, 5.0E0), (4, infinity())) v(id, p)');
    const nearest = async (match: string, extra = '') =>
      engine.rows(
        `SELECT s.at, q.id FROM (VALUES 0.5E0, 3.0E0, 7.0E0, nan(), infinity()) s(at) LEFT JOIN NEAREST (FROM prices q ${extra} MATCH ${match}) ON TRUE ORDER BY 1`,
      );
    const expected = [
      [0.5, null],
      [3, 1],
      [7, 3],
      [Infinity, 4],
      [NaN, null],
    ];
    expect(await nearest('q.p <= s.at')).to.deep.equal(expected);
    // The same through the filtered path (a WHERE condition on the left side stays in the join's filter).
    expect(await nearest('q.p <= s.at', 'WHERE s.at IS NOT NULL')).to.deep.equal(expected);
    expect(await nearest('q.p > s.at')).to.deep.equal([
      [0.5, 1],
      [3, 3],
      [7, 4],
      [Infinity, null],
      [NaN, null],
    ]);
  });

  it('filters above the join after choosing, never the candidates (a WHERE on the chosen row is not pushed into NEAREST)', async () => {
    await engine.run("CREATE TABLE few_quotes AS SELECT * FROM (VALUES ('A', 0, 10), ('A', 4, 11)) v(symbol, ts, price)");
    const rows = await engine.rows(
      "SELECT s.at, q.price FROM (VALUES ('A', 1), ('A', 5)) s(symbol, at) CROSS JOIN NEAREST (FROM few_quotes q WHERE q.symbol = s.symbol MATCH q.ts <= s.at) WHERE q.price < 11 AND s.at > 0",
    );
    expect(rows).to.deep.equal([[1, 10]]);
  });

  it('keeps one of the rows tied on the match key', async () => {
    await engine.run("CREATE TABLE tied AS SELECT * FROM (VALUES ('A', 5, 1), ('A', 5, 2), ('A', 3, 3)) v(symbol, ts, id)");
    const rows = await engine.rows(
      "SELECT t.ts, t.id FROM (VALUES ('A', 6)) s(symbol, at) CROSS JOIN NEAREST (FROM tied t WHERE t.symbol = s.symbol MATCH t.ts <= s.at)",
    );
    expect(rows).to.have.length(1);
    expect(rows[0][0]).to.equal(5);
    expect([1, 2]).to.include(rows[0][1]);
  });

  it("fails with Trino's errors for the forms it refuses, at their positions", async () => {
    const cases: [string, string][] = [
      [
        'SELECT * FROM NEAREST (FROM quotes MATCH quotes.ts <= 1)',
        'line 1:15: NEAREST is only supported on the right side of CROSS JOIN, INNER JOIN, LEFT JOIN, or an implicit join',
      ],
      [
        'SELECT * FROM trades t RIGHT JOIN NEAREST (FROM quotes q MATCH q.ts <= t.ts) ON TRUE',
        'line 1:15: RIGHT JOIN involving NEAREST is not supported',
      ],
      [
        'SELECT * FROM trades t LEFT JOIN NEAREST (FROM quotes q MATCH q.ts <= t.ts) ON t.id = 1',
        'line 1:85: LEFT JOIN involving NEAREST is only supported with condition ON TRUE',
      ],
      [
        'SELECT * FROM trades t JOIN NEAREST (FROM quotes q MATCH q.ts <= t.ts) USING (id)',
        'JOIN USING involving NEAREST is not supported',
      ],
      ['SELECT * FROM trades t, NEAREST (FROM quotes q MATCH q.ts = t.ts)', 'line 1:59: NEAREST MATCH clause must use <, <=, >, or >='],
      [
        'SELECT * FROM trades t, NEAREST (FROM quotes q MATCH q.ts IS NULL)',
        'line 1:54: NEAREST MATCH clause must be a comparison expression',
      ],
      [
        'SELECT * FROM trades t, NEAREST (FROM quotes q MATCH q.ts < q.price)',
        'NEAREST MATCH clause must compare one FROM relation expression with one non-FROM expression',
      ],
      [
        'SELECT * FROM trades t, NEAREST (FROM quotes q MATCH q.ts - t.ts < 3)',
        'NEAREST MATCH clause must keep FROM relation and non-FROM expressions on opposite sides',
      ],
      [
        'SELECT * FROM trades t, NEAREST (FROM quotes q WHERE q.price MATCH q.ts < t.ts)',
        'line 1:54: NEAREST WHERE clause must evaluate to a boolean: actual type integer',
      ],
    ];
    for (const [sql, message] of cases) {
      const error = await engine.run(sql).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message, sql).to.contain(message);
    }
  });
});
