// Routine calls wherever expressions run: projections, filters, join conditions, grouping keys,
// aggregations' arguments, ORDER BY, lambdas (a routine variable captured by a lambda), nested
// routines, and NULL arguments with either null-input characteristic. The oracle is the same
// computation in plain JavaScript over the rows the test creates.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const COLLATZ = `FUNCTION collatz_steps(n bigint) RETURNS bigint
  BEGIN
    DECLARE steps bigint DEFAULT 0;
    WHILE n <> 1 DO
      IF n % 2 = 0 THEN SET n = n / 2; ELSE SET n = 3 * n + 1; END IF;
      SET steps = steps + 1;
    END WHILE;
    RETURN steps;
  END`;

function collatzSteps(n: number): number {
  let steps = 0;
  while (n !== 1) {
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

const N = 500;
const numbers = Array.from({ length: N }, (_, i) => i + 1);

describe('SQL routines wherever expressions run', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  before(async () => {
    await engine.query(`CREATE TABLE numbers AS SELECT n FROM UNNEST(sequence(1, ${N})) AS t(n)`);
  });

  it('in a projection, a filter and ORDER BY', async () => {
    const { rows } = await engine.query(`WITH ${COLLATZ}
      SELECT n, collatz_steps(n) FROM numbers WHERE collatz_steps(n) > 100 ORDER BY collatz_steps(n) DESC, n`);
    const expected = numbers
      .map((n) => [n, collatzSteps(n)])
      .filter(([, s]) => s > 100)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([n, s]) => [BigInt(n), BigInt(s)]);
    expect(expected.length).to.be.greaterThan(10);
    expect(rows).to.deep.equal(expected);
  });

  it("as a grouping key and in aggregations' arguments", async () => {
    const { rows } = await engine.query(`WITH ${COLLATZ}, FUNCTION parity(x bigint) RETURNS varchar RETURN IF(x % 2 = 0, 'even', 'odd')
      SELECT parity(n), sum(collatz_steps(n)), max(collatz_steps(n) * 2) FROM numbers GROUP BY parity(n) ORDER BY 1`);
    const group = (odd: number) => numbers.filter((n) => n % 2 === odd).map(collatzSteps);
    const summary = (steps: number[]) => [BigInt(steps.reduce((a, b) => a + b, 0)), BigInt(Math.max(...steps) * 2)];
    expect(rows).to.deep.equal([
      ['even', ...summary(group(0))],
      ['odd', ...summary(group(1))],
    ]);
  });

  it('in a join condition', async () => {
    const { rows } = await engine.query(`WITH ${COLLATZ}
      SELECT a.n, b.n FROM numbers a JOIN numbers b ON collatz_steps(a.n) = b.n AND a.n < 20 ORDER BY 1`);
    const expected = numbers.filter((n) => n < 20 && collatzSteps(n) >= 1).map((n) => [BigInt(n), BigInt(collatzSteps(n))]);
    expect(rows).to.deep.equal(expected);
  });

  it('with a lambda capturing a routine variable', async () => {
    const { rows } = await engine.query(`WITH FUNCTION scaled(xs array(bigint), k bigint) RETURNS array(bigint)
        BEGIN DECLARE offset bigint DEFAULT k * 10; RETURN transform(xs, x -> x * k + offset); END
      SELECT scaled(ARRAY[1, 2, NULL], 3)`);
    expect(rows).to.deep.equal([[[33n, 36n, null]]]);
  });

  it('RETURNS NULL ON NULL INPUT skips the body; CALLED ON NULL INPUT runs it', async () => {
    const { rows } = await engine.query(`WITH
      FUNCTION strict_f(x bigint) RETURNS varchar RETURNS NULL ON NULL INPUT RETURN coalesce(CAST(x AS varchar), 'was null'),
      FUNCTION lenient_f(x bigint) RETURNS varchar CALLED ON NULL INPUT RETURN coalesce(CAST(x AS varchar), 'was null')
      SELECT strict_f(v), lenient_f(v) FROM (VALUES BIGINT '1', NULL) AS t(v) ORDER BY v NULLS LAST`);
    expect(rows).to.deep.equal([
      ['1', '1'],
      [null, 'was null'],
    ]);
  });

  it('an error raised in a routine fails the query with its name', async () => {
    const error = await engine.failure('WITH FUNCTION inverse(x bigint) RETURNS bigint RETURN 1 / x SELECT inverse(n - 1) FROM numbers');
    expect(error.errorName).to.equal('DIVISION_BY_ZERO');
  });
});
