// Every exchange response decoded on the nodes' worker threads (task.exchangeThreadDecodingMinSize
// 0B on the coordinator and the workers): TPC-H queries whose stages exchange strings, decimals and
// dates between the workers and to the coordinator answer as DuckDB does.

import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const EVERY_BODY_ON_A_THREAD = ['--task-exchange-thread-decoding-min-size', '0B'];
const HEADERS = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };

describe('a cluster decoding every exchange response on its worker threads equals DuckDB', function () {
  this.timeout(600_000);
  const cluster = withCluster(2, { coordinatorArgs: EVERY_BODY_ON_A_THREAD, workerArgs: EVERY_BODY_ON_A_THREAD });
  let duck: DuckDBConnection;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  const queries: [string, string][] = [
    ...[3, 9, 13, 18, 21].map((q): [string, string] => [`q${q}`, tpchQuery(q)]),
    [
      'lineitem rows with their comments, dates and prices, repartitioned and gathered',
      `SELECT l.l_orderkey, l.l_linenumber, l.l_comment, l.l_shipdate, l.l_extendedprice, o.o_comment, o.o_orderpriority
       FROM lineitem l JOIN orders o ON o.o_orderkey = l.l_orderkey WHERE l.l_orderkey < 20000 ORDER BY 1, 2`,
    ],
  ];
  for (const [name, sql] of queries) {
    it(name, async () => {
      await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, {
        ...HEADERS,
        'X-Engine-Session': 'join_distribution_type=PARTITIONED',
      });
    });
  }
});
