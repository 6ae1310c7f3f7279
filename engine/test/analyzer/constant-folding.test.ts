// Constant folding runs while a query is planned, where nothing can interrupt it: it folds what
// stays small and leaves the rest to execution, with the same answers and errors either way.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('constant folding', () => {
  const h = new EngineHarness();
  const plan = async (sql: string) => (await h.rows(`EXPLAIN (TYPE LOGICAL) ${sql}`))[0][0] as string;
  const failure = async (sql: string): Promise<string> => {
    try {
      await h.query(sql);
    } catch (e) {
      expect(e).to.be.instanceOf(EngineError);
      return `${(e as EngineError).errorName}: ${(e as EngineError).message}`;
    }
    throw new Error(`expected ${sql} to fail`);
  };

  it('folds calls over constants whose result is small', async () => {
    const text = await plan("SELECT concat('ab', 'cd'), length(rpad('a', 1000, 'b'))");
    expect(text).to.contain("'abcd'");
    expect(text).to.not.contain('rpad');
  });

  it('leaves a call whose result would be huge to execution, and gets its answer there', async () => {
    // Before: folding built the 100 million characters one at a time, for minutes, then ran out of memory.
    expect(await plan("SELECT length(rpad('a', 100000000, 'a'))")).to.contain('rpad');
    expect(await h.rows("SELECT length(rpad('a', 100000000, 'a')), length(lpad('', 3000000, 'xy'))")).to.deep.equal([
      [100_000_000n, 3_000_000n],
    ]);
  });

  it('leaves a replacement that multiplies lengths to execution', async () => {
    const sql = "SELECT length(replace(rpad('a', 1000, 'a'), '', rpad('b', 1000, 'b')))";
    expect(await plan(sql)).to.contain('replace');
    expect(await h.rows(sql)).to.deep.equal([[1000n + 1000n * 1001n]]);
  });

  it('does not fold a value found too long once computed', async () => {
    const sql = "SELECT length(concat(rpad('a', 30000, 'a'), rpad('b', 30000, 'b'), rpad('c', 30000, 'c')))";
    expect(await plan(sql)).to.contain('concat');
    expect(await h.rows(sql)).to.deep.equal([[90_000n]]);
  });

  it('reports errors of unfolded calls as the query error at run time', async () => {
    expect(await failure("SELECT rpad('a', -1, 'b')")).to.match(/^INVALID_FUNCTION_ARGUMENT: Target length must be in the range/);
    expect(await failure("SELECT length(rpad('a', 600000000, 'ab'))")).to.match(
      /^INVALID_FUNCTION_ARGUMENT: Padded string would be longer than \d+ characters/,
    );
  });
});
