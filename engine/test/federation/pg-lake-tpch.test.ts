// Federation: one query joining a PostgreSQL table, a lake table over Parquet written by DuckDB and
// a tpch table. DuckDB holds the same rows (our tpch generator's, loaded from its .tbl export) and
// answers the same join; the engine must agree on one node (in process) and on a coordinator with
// 2 workers (real processes, each reading its splits of the Parquet file and of the tpch table).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { HiveConnector } from '../../src/connectors/hive/hive-connector.js';
import { tasksOf, TestCluster } from '../cluster/cluster-fixture.js';
import { startPgFixture, type PgFixture } from '../postgresql/pg-fixture.js';
import { query, runStatement } from '../support/statement-http.js';

/** Every column as text, so that decimals, dates and counts compare exactly with DuckDB's. */
const JOIN = (orders: string, customer: string, nation: string) => `
SELECT n.n_name, CAST(count(*) AS varchar), CAST(sum(o.o_totalprice) AS varchar), CAST(max(c.c_acctbal) AS varchar),
       CAST(min(o.o_orderdate) AS varchar), CAST(sum(o.o_orderkey) AS varchar)
FROM ${orders} o
JOIN ${customer} c ON o.o_custkey = c.c_custkey
JOIN ${nation} n ON c.c_nationkey = n.n_nationkey
WHERE o.o_orderdate >= DATE '1995-03-15' AND c.c_mktsegment <> 'BUILDING' AND n.n_regionkey <> 2
GROUP BY n.n_name
ORDER BY n.n_name`;

const FEDERATED = JOIN('lake.default.orders', 'pg.public.customer', 'tpch.tiny.nation');

describe('a query joining a postgresql table, a lake table over Parquet written by DuckDB and a tpch table', function () {
  this.timeout(300_000);
  let dir: string;
  let duck: DuckDBConnection;
  let fixture: PgFixture;
  let expected: unknown[][];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-federation-'));
    duck = await duckDbWithTpch('tiny', 1);
    mkdirSync(join(dir, 'orders'));
    // Small row groups: several splits, so that both workers of the cluster read some.
    await duck.run(`COPY orders TO '${join(dir, 'orders', 'orders.parquet')}' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)`);
    expected = await duckRows(duck, JOIN('orders', 'customer', 'nation'));
    fixture = await startPgFixture();
    // customer goes into PostgreSQL through the engine from the generator's rows, the rows DuckDB holds.
    await fixture.engine.run('CREATE TABLE pg.public.customer AS SELECT * FROM tpch.tiny.customer');
  });

  after(async () => {
    duck?.closeSync();
    await fixture?.server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers as DuckDB on one node', async () => {
    const lake = new HiveConnector('lake', { catalogDir: `file://${join(dir, 'catalog')}/`, fileSystem: {} });
    fixture.engine.catalogs.register('lake', lake);
    await fixture.engine.run(`CREATE TABLE lake.default.orders WITH (external_location = 'file://${join(dir, 'orders')}/')`);
    const ours = await fixture.engine.rows(FEDERATED);
    expect(expected.length).to.be.greaterThan(10);
    expect(ours).to.deep.equal(expected);
  });

  it('answers as DuckDB on a coordinator and 2 workers', async () => {
    const config = join(dir, 'engine.yaml');
    const pg = fixture.server.catalogProperties();
    writeFileSync(
      config,
      [
        'catalogs:',
        '  - { name: tpch, connector: tpch }',
        '  - name: lake',
        '    connector: hive',
        '    properties:',
        '      hive.metastore: file',
        `      hive.metastore.catalog.dir: file://${join(dir, 'cluster-catalog')}/`,
        '  - name: pg',
        '    connector: postgresql',
        '    properties:',
        ...Object.entries(pg).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
        '',
      ].join('\n'),
    );
    const cluster = await TestCluster.start(2, { config });
    try {
      await cluster.waitForActiveWorkers(2);
      const uri = cluster.coordinator.uri;
      await query(uri, `CREATE TABLE lake.default.orders WITH (external_location = 'file://${join(dir, 'orders')}/')`);
      const run = await runStatement(uri, FEDERATED);
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal(expected);
      // Both workers ran tasks of the query (the lake and tpch splits are theirs).
      for (const [node, worker] of cluster.workers) expect(await tasksOf(worker.uri, run.final.id), node).to.not.be.empty;
    } finally {
      await cluster.stop();
    }
  });
});
