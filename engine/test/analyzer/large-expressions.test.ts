// Very long IN lists and operator chains: they run, or fail with an error that names the limit and
// where it was crossed — never a JS stack overflow reported as "too deeply nested".

import { expect } from 'chai';
import { MAX_LOGICAL_CHAIN_TERMS } from '../../src/sql/parser/expression-parser.js';
import { MAX_NESTING_DEPTH } from '../../src/sql/parser/parser-base.js';
import { EngineHarness } from '../support/engine-harness.js';

const numbersUpTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('large expressions', () => {
  const harness = new EngineHarness();

  it('runs a 200,000-item IN list', async () => {
    const items = numbersUpTo(200_000).join(',');
    expect(await harness.rows(`SELECT 1 WHERE 1 IN (${items})`)).to.deep.equal([[1]]);
    expect(await harness.rows(`SELECT count(*) FROM (VALUES 5, 199999, 200001) t(x) WHERE x IN (${items})`)).to.deep.equal([[2n]]);
    expect(await harness.rows(`SELECT count(*) FROM (VALUES 5, 199999, 200001) t(x) WHERE x NOT IN (${items})`)).to.deep.equal([[1n]]);
  });

  it('runs OR and AND chains far longer than the nesting limit, as a shallow tree', async () => {
    const terms = numbersUpTo(5_000);
    expect(
      await harness.rows(`SELECT count(*) FROM (VALUES 7, 9000) t(x) WHERE ${terms.map((i) => `x = ${i}`).join(' OR ')}`),
    ).to.deep.equal([[1n]]);
    expect(
      await harness.rows(`SELECT count(*) FROM (VALUES 7, 9000) t(x) WHERE ${terms.map((i) => `x <> ${i}`).join(' AND ')}`),
    ).to.deep.equal([[1n]]);
  });

  it('refuses a 200,000-term OR chain naming the limit, at the first OR', async () => {
    const error = await harness.failure(
      `SELECT 1 WHERE ${numbersUpTo(200_000)
        .map((i) => `1 = ${i}`)
        .join(' OR ')}`,
    );
    expect(error.errorName).to.equal('SYNTAX_ERROR');
    expect(error.message).to.equal(
      `line 1:22: OR chain has 200000 terms; at most ${MAX_LOGICAL_CHAIN_TERMS} are supported (for many values of one expression, use IN (...), which has no such limit)`,
    );
  });

  it('refuses a 200,000-term 1+1+... chain naming the depth limit, at the operator that crosses it', async () => {
    const error = await harness.failure(`SELECT ${Array(200_000).fill('1').join('+')}`);
    expect(error.errorName).to.equal('SYNTAX_ERROR');
    // The 1,001st operator (SELECT 1+1+...: operator k at column 7 + 2k).
    expect(error.location).to.deep.equal({ line: 1, column: 2009 });
    expect(error.message).to.equal(
      `line 1:2009: Statement is nested too deeply: more than ${MAX_NESTING_DEPTH} levels of parentheses, function calls, CASE, operators, NOT, signs or subqueries; at most ${MAX_NESTING_DEPTH} are supported`,
    );
    expect(await harness.rows(`SELECT ${Array(1001).fill('1').join('+')}`)).to.deep.equal([[1001]]);
  });
});
