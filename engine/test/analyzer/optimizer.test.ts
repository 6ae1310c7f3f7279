// Plan shapes the optimizer must produce: checked on EXPLAIN text of TPC-H queries over tpch.tiny
// (whose tables report row counts), since the plans decide whether sf1 runs in seconds or hours.

import { expect } from 'chai';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('optimizer plan shapes', () => {
  const h = new EngineHarness();
  h.session.catalog = 'tpch';
  h.session.schema = 'tiny';
  const plan = async (sql: string) =>
    ((await h.rows(`EXPLAIN (TYPE LOGICAL) ${sql}`))[0][0] as string).split('\n').filter((l) => !l.includes('Layout'));

  it('pushes conjunctions implied by an OR down to each relation (Q7 nations, Q19 part)', async () => {
    const lines = await plan(tpchQuery(7));
    const nationFilters = lines.filter((l) =>
      /Filter\[filterPredicate = OR\(equal\(n_name_\d+, '(FRANCE|GERMANY)'\), equal\(n_name_\d+, '(FRANCE|GERMANY)'\)\)\]/.test(l),
    );
    expect(nationFilters).to.have.length(2);
    const q19 = await plan(tpchQuery(19));
    expect(q19.join('\n')).to.match(/InnerJoin\[criteria = \((l_partkey_\d+ = p_partkey_\d+|p_partkey_\d+ = l_partkey_\d+)\)/);
  });

  it('joins through implied equalities instead of multiplying rows (Q5: customer joins nation, never supplier by nation alone)', async () => {
    const lines = await plan(tpchQuery(5));
    expect(
      lines.some((l) =>
        /InnerJoin\[criteria = \(c_nationkey_\d+ = n_nationkey_\d+\)(, probe = parallel)?(, dynamicFilterAssignments = \{[^}]*\})?\]/.test(
          l,
        ),
      ),
    ).to.equal(true);
    expect(lines.some((l) => /InnerJoin\[criteria = \(c_nationkey_\d+ = s_nationkey_\d+\)(, probe = parallel)?\]/.test(l))).to.equal(false);
  });

  it('reduces the aggregation of a decorrelated subquery to the outer keys (Q17)', async () => {
    const text = (await plan(tpchQuery(17))).join('\n');
    // Partial (in the scan's threads, over the semi join probed there) under its final step.
    expect(text).to.match(
      /Aggregate\(PARTIAL\)\[keys = \[l_partkey_\d+\]\][^\n]*\n[^\n]*Project\[\]\n[^\n]*Filter\[filterPredicate = keyseen_\d+\]\n[^\n]*SemiJoin\[mark = keyseen_\d+, criteria/,
    );
  });

  it('makes a LEFT join an inner join under a filter that drops its unmatched rows (Q20), not under one that keeps them', async () => {
    const q20 = (await plan(tpchQuery(20))).join('\n');
    expect(q20).not.to.match(/LeftJoin/);
    expect(q20).to.match(/InnerJoin\[criteria = \(\w+_\d+ = \w+_\d+ AND \w+_\d+ = \w+_\d+\)/);
    const from = 'FROM (VALUES (1, 10), (2, 20), (3, 30)) a(k, v) LEFT JOIN (VALUES (1, 5), (2, 50)) b(k, w) ON a.k = b.k';
    const rejecting = `SELECT a.k ${from} WHERE a.v < b.w * 2 - 1 ORDER BY 1`;
    expect((await plan(rejecting)).join('\n')).not.to.match(/LeftJoin/);
    expect(await h.rows(rejecting)).to.deep.equal([[2]]);
    const keeping = `SELECT a.k ${from} WHERE coalesce(b.w, 0) < a.v ORDER BY 1`;
    expect((await plan(keeping)).join('\n')).to.match(/LeftJoin/);
    expect(await h.rows(keeping)).to.deep.equal([[1], [3]]);
  });

  it('hands key predicates to the scan and keeps the filter', async () => {
    const text = (await plan('SELECT count(*) FROM orders WHERE o_orderkey BETWEEN 10 AND 20')).join('\n');
    expect(text).to.match(/Filter\[filterPredicate = BETWEEN\(o_orderkey_\d+, 10, 20\)\]/);
    // Keys run 1-7, 32-39, 64-71, ...: eight of every 32.
    expect(await h.rows('SELECT count(*) FROM orders WHERE o_orderkey BETWEEN 10 AND 40')).to.deep.equal([[8n]]);
  });
});
