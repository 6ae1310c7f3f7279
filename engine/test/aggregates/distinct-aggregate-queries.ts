// DISTINCT aggregate calls over tpch.tiny, for the one-node and cluster tests that compare their
// answers with DuckDB's on the same rows: one set of distinct arguments (rewritten to a grouped
// aggregation), mixed and several sets (MarkDistinct), NULL arguments, FILTER masks (NULL ones
// too), empty input, grouping sets, HAVING, and over a join. Every query orders its rows fully.

/** Nulls out every third custkey, so that DISTINCT meets NULL arguments. */
const CUSTKEY_OR_NULL = 'CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_custkey % 97 END';

export const DISTINCT_AGGREGATE_QUERIES: readonly string[] = [
  'SELECT count(DISTINCT o_custkey) FROM orders',
  'SELECT count(DISTINCT o_custkey), sum(DISTINCT o_custkey), min(DISTINCT o_orderdate) FROM orders',
  'SELECT o_orderstatus, count(DISTINCT o_custkey), sum(o_totalprice) FROM orders GROUP BY 1 ORDER BY 1',
  `SELECT o_orderpriority, count(DISTINCT ${CUSTKEY_OR_NULL}), sum(DISTINCT ${CUSTKEY_OR_NULL}), count(*) FROM orders GROUP BY 1 ORDER BY 1`,
  `SELECT count(DISTINCT ${CUSTKEY_OR_NULL}), count(${CUSTKEY_OR_NULL}), count(*) FROM orders`,
  'SELECT o_orderstatus, count(DISTINCT o_custkey), count(DISTINCT o_clerk), avg(o_totalprice), max(DISTINCT o_orderdate), count(*) FROM orders GROUP BY 1 ORDER BY 1',
  `SELECT o_orderpriority, count(DISTINCT o_custkey) FILTER (WHERE o_orderstatus = 'F'), count(DISTINCT o_custkey), sum(DISTINCT o_custkey % 10) FILTER (WHERE o_totalprice > 100000), count(*) FILTER (WHERE o_totalprice > 200000)
     FROM orders GROUP BY 1 ORDER BY 1`,
  "SELECT o_orderstatus, count(DISTINCT o_clerk) FILTER (WHERE o_orderpriority LIKE '1%') FROM orders GROUP BY 1 ORDER BY 1",
  'SELECT count(DISTINCT o_custkey) FILTER (WHERE CASE WHEN o_orderkey % 4 = 0 THEN NULL ELSE o_totalprice > 150000 END), count(DISTINCT o_clerk) FROM orders',
  'SELECT count(DISTINCT o_custkey), sum(DISTINCT o_custkey), count(*) FROM orders WHERE o_orderkey < 0',
  'SELECT count(DISTINCT o_custkey), count(DISTINCT o_clerk), sum(o_totalprice) FROM orders WHERE o_orderkey < 0',
  'SELECT o_orderstatus, count(DISTINCT o_custkey), count(o_clerk) FROM orders WHERE o_orderkey < 0 GROUP BY 1',
  `SELECT o_orderstatus, o_orderpriority, count(DISTINCT o_custkey), sum(o_totalprice), grouping(o_orderstatus, o_orderpriority)
     FROM orders GROUP BY GROUPING SETS ((o_orderstatus), (o_orderpriority), ()) ORDER BY 1 NULLS LAST, 2 NULLS LAST`,
  'SELECT o_orderstatus, o_orderpriority, count(DISTINCT o_custkey) FROM orders GROUP BY CUBE (o_orderstatus, o_orderpriority) ORDER BY 1 NULLS LAST, 2 NULLS LAST',
  'SELECT o_custkey, count(*) FROM orders GROUP BY 1 HAVING count(DISTINCT o_orderstatus) > 1 ORDER BY 1',
  'SELECT l_returnflag, count(DISTINCT o_custkey), count(DISTINCT l_suppkey), sum(l_quantity), sum(DISTINCT l_extendedprice) FROM lineitem JOIN orders ON l_orderkey = o_orderkey GROUP BY 1 ORDER BY 1',
  'SELECT l_linestatus, avg(DISTINCT l_discount), sum(DISTINCT l_tax) FROM lineitem GROUP BY 1 ORDER BY 1',
];
