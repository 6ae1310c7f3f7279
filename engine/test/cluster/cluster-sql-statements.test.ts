// WITH RECURSIVE, LATERAL and TABLESAMPLE on a coordinator with 2 workers: the recursion and the
// lateral subquery run in the coordinator's fragment over tables the workers scan, and sampling
// draws over the splits the coordinator hands out. Oracles: the reference TPC-H nation table in
// JavaScript, and for samples 0 and 100 the exact counts.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

describe('WITH RECURSIVE, LATERAL and TABLESAMPLE over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const nations = referenceRows('nation').map((r) => ({ key: Number(r[0]), region: Number(r[2]) }));
  const run = (sql: string) => query(cluster.coordinator.uri, sql, { 'X-Engine-User': 'test' });

  it('walks a chain of nations recursively', async () => {
    const rows = await run(`WITH RECURSIVE walk(k, d) AS (
        SELECT n_nationkey, 0 FROM tpch.tiny.nation WHERE n_regionkey = 0
        UNION ALL
        SELECT n.n_nationkey, w.d + 1 FROM walk w JOIN tpch.tiny.nation n ON n.n_nationkey = w.k + 3 WHERE w.d < 4)
      SELECT d, count(*), sum(k) FROM walk GROUP BY d ORDER BY d`);
    const expected: number[][] = [];
    let level = nations.filter((n) => n.region === 0).map((n) => n.key);
    for (let d = 0; level.length > 0; d++) {
      expected.push([d, level.length, level.reduce((a, b) => a + b, 0)]);
      level = d < 4 ? level.map((k) => k + 3).filter((k) => nations.some((n) => n.key === k)) : [];
    }
    expect(rows).to.deep.equal(expected);
  });

  it('runs a correlated LATERAL query per row', async () => {
    const rows = await run(`SELECT r.r_regionkey, l.c, l.m FROM tpch.tiny.region r
      LEFT JOIN LATERAL (SELECT count(*) AS c, max(n_nationkey) AS m FROM tpch.tiny.nation n WHERE n.n_regionkey = r.r_regionkey AND n.n_nationkey < 20) l ON true
      ORDER BY 1`);
    const expected = [0, 1, 2, 3, 4].map((region) => {
      const keys = nations.filter((n) => n.region === region && n.key < 20).map((n) => n.key);
      return [region, keys.length, keys.length === 0 ? null : Math.max(...keys)];
    });
    expect(rows).to.deep.equal(expected);
  });

  it('samples nothing at 0 and everything at 100, both kinds', async () => {
    for (const kind of ['BERNOULLI', 'SYSTEM']) {
      expect(await run(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE ${kind} (0)`)).to.deep.equal([[0]]);
      expect(await run(`SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE ${kind} (100)`)).to.deep.equal([[60175]]);
    }
    const [[kept]] = (await run('SELECT count(*) FROM tpch.tiny.lineitem TABLESAMPLE SYSTEM (50)')) as number[][];
    expect(kept).to.be.oneOf([0, 60175]); // one split: all of it or none
  });
});
