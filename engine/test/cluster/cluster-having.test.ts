// HAVING on a coordinator and two workers (real processes) equals DuckDB's answers on the same rows
// (tpch.tiny): TPC-H q18, HAVING over NULL aggregates, over count, avg and min, over a group key, an
// empty answer, and a non-deterministic HAVING. The final step runs in a stage of its own above the
// workers' partial steps there, the filter with it.

import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const HEADERS = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };

const QUERIES: Record<string, string> = {
  'TPC-H q18': tpchQuery(18),
  'a HAVING keeping few of many groups':
    'SELECT l_orderkey, sum(l_quantity) FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 250 ORDER BY 1',
  'HAVING on NULL aggregates': `SELECT o_custkey, sum(CASE WHEN o_orderstatus = 'F' THEN o_totalprice END) AS f
    FROM orders GROUP BY o_custkey HAVING sum(CASE WHEN o_orderstatus = 'F' THEN o_totalprice END) IS NULL ORDER BY 1`,
  'HAVING on count, avg and min': `SELECT l_partkey, count(*), min(l_shipdate) FROM lineitem GROUP BY l_partkey
    HAVING count(*) > 35 AND avg(CAST(l_discount AS double)) > 0.05 AND min(l_quantity) > 2 ORDER BY 1`,
  'HAVING referencing a group key': `SELECT l_orderkey, count(*) FROM lineitem GROUP BY l_orderkey
    HAVING l_orderkey % 1000 = 1 OR count(*) > 6 ORDER BY 1`,
  'a non-deterministic HAVING': 'SELECT o_orderpriority, count(*) FROM orders GROUP BY 1 HAVING count(*) > random() ORDER BY 1',
};

describe('HAVING on a coordinator and 2 workers equals DuckDB', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  const duck = duckDbTpchTiny();

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: DuckDB's rows`, async () => {
      await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, HEADERS, { label: name });
    });
  }

  it('an empty answer', async () => {
    const sql = 'SELECT l_orderkey, sum(l_quantity) FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) < 0';
    await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, HEADERS, { nonEmpty: false });
  });
});
