// ORDER BY on a coordinator and two workers sorts in each task of the stage below and merges the
// tasks' sorted streams on the coordinator (a merging exchange, RemoteMerge): EXPLAIN and EXPLAIN
// (TYPE DISTRIBUTED) show it, distributed_sort=false gathers and sorts in one task as before. The
// answers equal DuckDB's in exact order (every query breaks its ties on all its columns): a sort
// over a scan's tasks, NULLS FIRST and LAST, DESC and ASC mixed, varchar keys, a sort after an
// aggregation whose other task has no rows, one task only (a table of one split), tasks that read
// no matching row, no row at all, an OFFSET over the merge, and ORDER BY ... LIMIT. A single-node
// server plans the same (its stages have one task each): the merge passes its one stream on.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { ServerProcess } from '../support/server-process.js';
import { query } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { ...USER, 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const GATHERED = { ...TINY, 'X-Engine-Session': 'distributed_sort=false' };

const BIG_SORT = 'SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_clerk FROM orders ORDER BY o_totalprice DESC, o_orderkey';

describe('distributed sort on a cluster (coordinator + 2 workers) equals DuckDB', function () {
  this.timeout(300_000);
  const cluster = withCluster(2);
  let duck: DuckDBConnection;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  const explain = async (sql: string, headers = TINY): Promise<string> =>
    (await query(cluster.coordinator.uri, sql, headers))[0][0] as string;

  it('plans a sort in each task of the scan stage under a RemoteMerge on the coordinator; distributed_sort=false gathers first', async () => {
    const merged =
      /^Fragment 0 \[SINGLE\][^]*└─ RemoteMerge\[sourceFragmentIds = \[1\], orderBy = \[o_totalprice_\d+ DESC NULLS LAST, o_orderkey_\d+ ASC NULLS LAST\]\][^]*Fragment 1 \[SOURCE\][^]*(MergeSorted|Sort)\[orderBy = \[o_totalprice_\d+ DESC NULLS LAST/;
    expect(await explain(`EXPLAIN ${BIG_SORT}`)).to.match(merged);
    expect(await explain(`EXPLAIN (TYPE DISTRIBUTED) ${BIG_SORT}`)).to.match(merged);
    const gathered = await explain(`EXPLAIN ${BIG_SORT}`, GATHERED);
    expect(gathered).not.to.contain('RemoteMerge');
    expect(gathered).to.match(
      /^Fragment 0 \[SINGLE\][^]*└─ Sort\[orderBy = [^\n]*\n[^\n]*\n\s+└─ RemoteSource\[sourceFragmentIds = \[1\]\]/,
    );
    // After an aggregation, the tasks of its FIXED_HASH stage sort their groups.
    expect(await explain('EXPLAIN SELECT o_orderpriority, count(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1')).to.match(
      /└─ RemoteMerge\[[^]*Fragment 1 \[FIXED_HASH\][^]*└─ Sort\[orderBy/,
    );
  });

  const cases: [string, string, boolean?][] = [
    ['a big sort over the scan tasks', BIG_SORT],
    [
      'NULLS FIRST, DESC and ASC mixed, varchar keys',
      `SELECT o_orderkey, CASE WHEN o_orderkey % 7 = 0 THEN NULL ELSE o_orderpriority END AS p, o_clerk, o_totalprice FROM orders
        ORDER BY p NULLS FIRST, o_clerk DESC, o_totalprice, o_orderkey DESC`,
    ],
    [
      'NULLS LAST descending, on a decimal with NULLs',
      `SELECT o_orderkey, CASE WHEN o_custkey % 5 = 0 THEN NULL ELSE o_totalprice END AS t, o_orderstatus FROM orders
        ORDER BY t DESC NULLS LAST, o_orderstatus, o_orderkey`,
    ],
    [
      'after an aggregation whose other task holds no group',
      `SELECT o_orderstatus, count(*) AS c, sum(o_totalprice) AS s FROM orders WHERE o_orderstatus = 'F' GROUP BY o_orderstatus ORDER BY c DESC, o_orderstatus`,
    ],
    [
      'after an aggregation over both tasks',
      'SELECT l_returnflag, l_linestatus, sum(l_quantity) AS q, count(*) AS c FROM lineitem GROUP BY 1, 2 ORDER BY q DESC, 1, 2',
    ],
    ['one task only (a table of one split)', 'SELECT n_name, n_regionkey FROM nation ORDER BY n_regionkey DESC, n_name'],
    [
      'tasks that read no matching row',
      'SELECT o_orderkey, o_totalprice FROM orders WHERE o_orderkey < 200 ORDER BY o_totalprice, o_orderkey',
    ],
    ['no row at all', 'SELECT o_orderkey, o_totalprice FROM orders WHERE o_totalprice < 0 ORDER BY o_totalprice, o_orderkey', false],
    ['an OFFSET over the merge', 'SELECT o_orderkey, o_totalprice FROM orders ORDER BY o_totalprice DESC, o_orderkey OFFSET 14990 ROWS'],
    ['ORDER BY ... LIMIT', 'SELECT o_orderkey, o_clerk, o_totalprice FROM orders ORDER BY o_clerk DESC, o_totalprice, o_orderkey LIMIT 25'],
  ];
  for (const [name, sql, nonEmpty] of cases) {
    it(`answers as DuckDB in order: ${name}`, async () => {
      await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY, { label: name, nonEmpty: nonEmpty ?? true });
    });
  }

  it('answers as DuckDB with distributed_sort=false too', async () => {
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, BIG_SORT, GATHERED);
  });
});

describe('distributed sort on a single-node server equals DuckDB', function () {
  this.timeout(300_000);
  let server: ServerProcess;
  let duck: DuckDBConnection;

  before(async () => {
    [server, duck] = await Promise.all([ServerProcess.start([]), duckDbWithTpch('tiny', 2)]);
  });
  after(async () => {
    await server?.stop();
  });

  it('merges the one task of the scan stage, to the order DuckDB gives', async () => {
    const [[plan]] = await query(server.uri, `EXPLAIN ${BIG_SORT}`, TINY);
    expect(plan).to.match(/^Fragment 0 \[SINGLE\][^]*└─ RemoteMerge\[sourceFragmentIds = \[1\][^]*Fragment 1 \[SOURCE\]/);
    await expectDuckDbAnswer(server.uri, duck, BIG_SORT, TINY);
    await expectDuckDbAnswer(
      server.uri,
      duck,
      'SELECT o_orderkey, CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_clerk END AS c FROM orders ORDER BY c DESC NULLS FIRST, o_orderkey',
      TINY,
    );
  });
});
