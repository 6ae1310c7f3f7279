// char(n) keys crossing the Arrow exchange between worker processes keep their semantics: a
// partitioned join of char(3) to char(5) keys meets equal padded values in one partition, a char key
// joined to varchar compares as varchar, a GROUP BY repartitioned on a char key merges values that
// differ only in padding, and the client gets char values padded to n. The oracle is the reference
// nation table of the TPC-H generator, grouped here in plain JavaScript.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const PARTITIONED = { 'X-Engine-User': 'test', 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };

/** How many nations' names start with each two letters. */
function prefixCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of referenceTbl('nation').trim().split('\n')) {
    const prefix = line.split('|')[1].slice(0, 2);
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return counts;
}

describe('char(n) over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const counts = prefixCounts();
  const pairs = [...counts.values()].reduce((sum, n) => sum + n * n, 0);

  it('joins char keys of different lengths, and a char key to varchar, across a repartition', async () => {
    const charJoin = `SELECT count(*) FROM (SELECT CAST(substr(n_name, 1, 2) AS char(3)) AS k FROM tpch.tiny.nation) a
      JOIN (SELECT CAST(substr(n_name, 1, 2) || '  ' AS char(5)) AS k FROM tpch.tiny.nation) b ON a.k = b.k`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN ${charJoin}`, PARTITIONED);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(await query(cluster.coordinator.uri, charJoin, PARTITIONED)).to.deep.equal([[pairs]]);

    const varcharJoin = (
      suffix: string,
    ) => `SELECT count(*) FROM (SELECT CAST(substr(n_name, 1, 2) AS char(3)) AS k FROM tpch.tiny.nation) a
      JOIN (SELECT substr(n_name, 1, 2) || '${suffix}' AS k FROM tpch.tiny.nation) b ON a.k = b.k`;
    expect(await query(cluster.coordinator.uri, varcharJoin(''), PARTITIONED)).to.deep.equal([[pairs]]);
    // The char is not padded on its way to varchar: 'AL' does not equal 'AL '.
    expect(await query(cluster.coordinator.uri, varcharJoin(' '), PARTITIONED)).to.deep.equal([[0]]);
  });

  it('groups on a char key across workers and sends the keys padded, typed char(n)', async () => {
    const sql = `SELECT k, count(*) FROM (
        SELECT CAST(CASE WHEN n_nationkey % 2 = 0 THEN substr(n_name, 1, 2) ELSE substr(n_name, 1, 2) || '   ' END AS char(4)) AS k
        FROM tpch.tiny.nation) GROUP BY k ORDER BY k`;
    const expected = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([prefix, n]) => [`${prefix}  `, n]);
    const run = await runStatement(cluster.coordinator.uri, sql, { 'X-Engine-User': 'test' });
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal(['char(4)', 'bigint']);
    expect(run.rows).to.deep.equal(expected);
  });
});
