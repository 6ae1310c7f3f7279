import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('tpch scans skip to the rows of key predicates', () => {
  const h = new EngineHarness();

  const cases: [string, string][] = [
    ['orders', 'o_orderkey'],
    ['lineitem', 'l_orderkey'],
    ['part', 'p_partkey'],
    ['partsupp', 'ps_partkey'],
    ['customer', 'c_custkey'],
    ['supplier', 's_suppkey'],
    ['nation', 'n_nationkey'],
    ['region', 'r_regionkey'],
  ];
  const predicates = [
    '{k} = 7',
    '{k} = 32',
    '{k} BETWEEN 5 AND 70',
    '{k} > 1000 AND {k} <= 1300',
    '{k} < 3',
    '{k} IN (1, 8, 31, 33, 64, 59999)',
    '{k} >= 59990',
    '{k} = -1',
  ];

  for (const [table, key] of cases) {
    it(`${table}: rows equal those of an unprunable filter`, async () => {
      for (const p of predicates) {
        const pruned = p.replaceAll('{k}', key);
        const opaque = p.replaceAll('{k}', `(${key} + 0)`);
        const sql = (where: string) => `SELECT count(*), sum(${key}), min(${key}), max(${key}) FROM tpch.tiny.${table} WHERE ${where}`;
        const a = await h.rows(sql(pruned));
        const b = await h.rows(sql(opaque));
        expect(a, `${table} WHERE ${pruned}`).to.deep.equal(b);
      }
    });
  }

  it('plans the constraint into the scan and reads only matching splits', async () => {
    const plan = await h.query('EXPLAIN ANALYZE SELECT count(*) FROM tpch.sf1.lineitem WHERE l_orderkey BETWEEN 1000 AND 1100');
    expect(plan.rows[0][0] as string).to.match(/splits: 1, input: \d{2,3} rows/);
    expect(await h.rows('SELECT o_orderkey FROM tpch.sf100.orders WHERE o_orderkey = 600000000')).to.deep.equal([[600000000n]]);
  });
});
