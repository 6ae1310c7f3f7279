// A join side keeps only the columns the join and the nodes above it read: a column only its filter
// used (TPC-H q13's o_comment) is projected away below the join, inside the scan's threads, so it
// neither crosses from the threads to the main thread nor sits in the probe pages.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('join input pruning', () => {
  const h = new EngineHarness();

  before(async () => {
    await h.query('CREATE TABLE memory.default.orders AS SELECT * FROM tpch.tiny.orders');
    await h.query('CREATE TABLE memory.default.customer AS SELECT * FROM tpch.tiny.customer');
  });

  it("drops a column only a join side's filter reads before the join, in the scan's threads", async () => {
    const result = await h.query(
      `EXPLAIN SELECT c_custkey, count(o_orderkey) FROM memory.default.customer LEFT JOIN memory.default.orders
         ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%' GROUP BY c_custkey`,
    );
    const text = String(result.rows[0][0]);
    const join = text.slice(text.indexOf('Join['));
    const joinLayout = join.slice(join.indexOf('Layout:'), join.indexOf('\n', join.indexOf('Layout:')));
    expect(joinLayout).to.contain('o_orderkey').and.not.contain('o_comment');
    // The projection runs where the filter does: below the threads' GATHER, above the filter.
    expect(text).to.match(
      /LocalExchange\[GATHER\][^\n]*\n\s+└─ Project\[\]\n(?:\s+(?:Layout|Runs):[^\n]*\n)+\s+└─ Filter\[filterPredicate = NOT\(LIKE\(o_comment/,
    );
  });
});
