// An unknown function is FUNCTION_NOT_FOUND naming it, wherever it is called: also next to
// aggregates, where its arguments used to be checked first ("'x' must be an aggregate expression").

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('an unknown function is FUNCTION_NOT_FOUND naming it', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run('CREATE TABLE t (a integer, b integer)', 'INSERT INTO t VALUES (1, 2), (1, 3), (2, 5)');
  });

  it('next to another aggregate (the issue: stddev(x), corr(x, y) when corr was missing)', async () => {
    const e = await h.failure('SELECT stddev(l_quantity), nosuch(l_quantity, l_tax) FROM tpch.tiny.lineitem');
    expect([e.errorName, e.message]).to.deep.equal(['FUNCTION_NOT_FOUND', "line 1:28: Function 'nosuch' not registered"]);
  });

  it('in the select list, HAVING, ORDER BY, GROUP BY, over a window and in a subquery of an aggregation', async () => {
    const cases: [string, string][] = [
      ['SELECT max(a) + nosuch(b) FROM t', "line 1:17: Function 'nosuch' not registered"],
      ['SELECT a, count(*) FROM t GROUP BY a HAVING nosuch(b) > 1', "line 1:45: Function 'nosuch' not registered"],
      ['SELECT a, count(*) FROM t GROUP BY a ORDER BY nosuch(b)', "line 1:47: Function 'nosuch' not registered"],
      ['SELECT b, max(a) FROM t GROUP BY ROLLUP (b) HAVING nosuch(a) > 0', "line 1:52: Function 'nosuch' not registered"],
      ['SELECT a FROM t GROUP BY a, nosuch(b)', "line 1:29: Function 'nosuch' not registered"],
      ['SELECT sum(a), nosuch(b) OVER (ORDER BY a) FROM t', "line 1:16: Function 'nosuch' not registered"],
      ['SELECT sum(a) OVER (PARTITION BY nosuch(b)) FROM t GROUP BY a', "line 1:34: Function 'nosuch' not registered"],
      ['SELECT (SELECT max(a) + nosuch(b) FROM t)', "line 1:25: Function 'nosuch' not registered"],
      ['SELECT max(a), system.nosuch(b) FROM t', "line 1:16: Function 'system.nosuch' not registered"],
      ['SELECT max(a), nosuch(DISTINCT b) FROM t', "line 1:16: Function 'nosuch' not registered"],
      ['SELECT max(a) FROM t WHERE nosuch(b) > 0', "line 1:28: Function 'nosuch' not registered"],
      ['SELECT a FROM t JOIN t u ON nosuch(t.a) = u.a', "line 1:29: Function 'nosuch' not registered"],
    ];
    for (const [sql, message] of cases) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal(['FUNCTION_NOT_FOUND', message]);
    }
  });

  it('leaves table errors first and known special functions working', async () => {
    expect((await h.failure('SELECT max(a), nosuch(b) FROM nowhere')).errorName).to.equal('TABLE_NOT_FOUND');
    const rows = await h.rows(
      'SELECT a, count(*), coalesce(max(b), 0), if(a > 1, 1, 0), try(a / 1), grouping(a) FROM t GROUP BY a ORDER BY a',
    );
    expect(rows).to.deep.equal([
      [1, 2n, 3, 0, 1, 0n],
      [2, 1n, 5, 1, 2, 0n],
    ]);
    expect((await h.failure('SELECT a, max(b) FROM t')).errorName).to.equal('EXPRESSION_NOT_AGGREGATE');
  });
});
