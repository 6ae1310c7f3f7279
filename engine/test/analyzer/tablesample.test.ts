// TABLESAMPLE BERNOULLI and SYSTEM. Samples are random, so the statistical cases bound the counts
// with Hoeffding's inequality, P(|X - np| >= t) <= 2 exp(-2t^2 / n), at a false-failure probability
// of 1e-9 per bound: a correct engine fails them about never, one that ignores the percentage or
// samples the wrong unit fails them always. 0 and 100 are exact.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const FALSE_FAILURE = 1e-9;

/** The interval holding Binomial(n, p) but with probability FALSE_FAILURE. */
function binomialBounds(n: number, p: number): [number, number] {
  const t = Math.sqrt((n * Math.log(2 / FALSE_FAILURE)) / 2);
  return [n * p - t, n * p + t];
}

describe('TABLESAMPLE', function () {
  this.timeout(120_000);
  let engine: EngineHarness;
  const count = async (sql: string) => Number((await engine.rows(sql))[0][0]);

  before(async () => {
    engine = new EngineHarness();
  });

  it('BERNOULLI keeps each row independently with the given probability', async () => {
    const rows = 60175; // tpch.tiny.lineitem
    for (const percentage of [10, 50, 2.5]) {
      const kept = await count(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE BERNOULLI (${percentage})`);
      const [low, high] = binomialBounds(rows, percentage / 100);
      expect(kept, `${percentage}%`).to.be.within(low, high);
    }
    // Independently per row: the rows kept by two samples overlap as independent draws do.
    const both = await count(
      `SELECT count(*) FROM (SELECT l_orderkey, l_linenumber FROM tpch.tiny.lineitem TABLESAMPLE BERNOULLI (50)) a
         JOIN (SELECT l_orderkey, l_linenumber FROM tpch.tiny.lineitem TABLESAMPLE BERNOULLI (50)) b USING (l_orderkey, l_linenumber)`,
    );
    const [low, high] = binomialBounds(rows, 0.25);
    expect(both).to.be.within(low, high);
  });

  it('BERNOULLI keeps whole rows of the relation, a subquery too', async () => {
    const mismatched = await count(
      `SELECT count(*) FROM (SELECT n.n_nationkey, n.n_name, r.r_name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.n_regionkey = r.r_regionkey) s TABLESAMPLE BERNOULLI (50)
         WHERE NOT EXISTS (SELECT 1 FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.n_regionkey = r.r_regionkey WHERE n.n_nationkey = s.n_nationkey AND n.n_name = s.n_name AND r.r_name = s.r_name)`,
    );
    expect(mismatched).to.equal(0);
  });

  it('SYSTEM keeps whole splits: a one-split table comes back whole or empty, about as often as asked', async () => {
    const runs = 200;
    let whole = 0;
    for (let i = 0; i < runs; i++) {
      const kept = await count('SELECT count(*) FROM tpch.tiny.nation TABLESAMPLE SYSTEM (30)');
      expect(kept).to.be.oneOf([0, 25]);
      if (kept === 25) whole++;
    }
    const [low, high] = binomialBounds(runs, 0.3);
    expect(whole).to.be.within(low, high);
  });

  it('SYSTEM over a relation reading several tables samples nothing, as in Trino', async () => {
    const joined =
      'SELECT count(*) FROM (SELECT n.n_name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.n_regionkey = r.r_regionkey) TABLESAMPLE SYSTEM (1)';
    for (let i = 0; i < 5; i++) expect(await count(joined)).to.equal(25);
  });

  it('0 keeps nothing and 100 everything, exactly', async () => {
    for (const type of ['BERNOULLI', 'SYSTEM']) {
      expect(await count(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE ${type} (0)`)).to.equal(0);
      expect(await count(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE ${type} (100)`)).to.equal(60175);
      expect(await count(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE ${type} (25 * 4)`)).to.equal(60175);
    }
  });

  it("refuses a percentage that is not a constant number from 0 to 100, with Trino's errors", async () => {
    const cases: [string, string, string][] = [
      ['l_orderkey', 'EXPRESSION_NOT_CONSTANT', 'Sample percentage cannot contain column references'],
      ["'ten'", 'TYPE_MISMATCH', 'Sample percentage should be a numeric expression'],
      ['NULL', 'INVALID_ARGUMENTS', 'Sample percentage cannot be NULL'],
      ['CAST(NULL AS double)', 'INVALID_ARGUMENTS', 'Sample percentage cannot be NULL'],
      ['-1', 'NUMERIC_VALUE_OUT_OF_RANGE', 'Sample percentage must be greater than or equal to 0'],
      ['100.5', 'NUMERIC_VALUE_OUT_OF_RANGE', 'Sample percentage must be less than or equal to 100'],
    ];
    for (const [percentage, name, message] of cases) {
      const error = await engine.failure(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE BERNOULLI (${percentage})`);
      expect([error.errorName, error.message], percentage).to.deep.equal([name, `line 1:64: ${message}`]);
    }
  });
});
