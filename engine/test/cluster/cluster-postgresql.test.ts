// The postgresql connector in real server processes, configured as a user would (a YAML file with
// the password behind ${ENV:...}): a table read by both workers of a cluster in key ranges, and a
// query joining pg, tpch and memory tables, which answer on one node and on the cluster as
// PostgreSQL answers the same join over the same rows.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresServer } from '../support/postgres-server.js';
import { ServerProcess } from '../support/server-process.js';
import { getJson, query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

interface StageJson {
  tasks: { nodeId: string; stats: { pipelines: { operatorSummaries: { operatorType: string; inputPositions: number }[] }[] } }[];
  subStages: StageJson[];
}

const FEDERATED = `
SELECT n.name, CAST(count(*) AS varchar), CAST(sum(o.o_totalprice) AS varchar), CAST(max(c.c_acctbal) AS varchar)
FROM tpch.tiny.orders o
JOIN pg.public.customer c ON o.o_custkey = c.c_custkey
JOIN memory.default.nations n ON c.c_nationkey = n.key
WHERE o.o_orderstatus = 'F' AND c.c_mktsegment <> 'BUILDING'
GROUP BY n.name`;

const FEDERATED_IN_POSTGRES = `
SELECT n.n_name AS name, count(*)::text AS a, sum(o.o_totalprice)::text AS b, max(c.c_acctbal)::text AS c
FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey JOIN nation n ON c.c_nationkey = n.n_nationkey
WHERE o.o_orderstatus = 'F' AND c.c_mktsegment <> 'BUILDING'
GROUP BY n.n_name`;

const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

describe('postgresql connector on a cluster (coordinator + 2 workers) and on one node', function () {
  this.timeout(300_000);
  let pg: PostgresServer;
  let single: ServerProcess;
  let folder: string;
  let config: string;
  const env = { PG_PASSWORD: PostgresServer.password };

  before(async () => {
    pg = await PostgresServer.start();
    folder = mkdtempSync(path.join(tmpdir(), 'engine-pg-config-'));
    config = path.join(folder, 'engine.yaml');
    writeFileSync(
      config,
      [
        'catalogs:',
        '  - { name: tpch, connector: tpch }',
        '  - { name: memory, connector: memory }',
        '  - name: pg',
        '    connector: postgresql',
        '    properties:',
        `      connection-url: postgresql://127.0.0.1:${pg.port}/postgres`,
        `      connection-user: ${PostgresServer.user}`,
        '      connection-password: ${ENV:PG_PASSWORD}',
        '',
      ].join('\n'),
    );
  });

  const cluster = withCluster(2, () => ({ config, env }));

  before(async () => {
    single = await ServerProcess.start(['--config', config], env);
    await pg.sql(
      'CREATE TABLE big (id bigint PRIMARY KEY, x integer, s text); INSERT INTO big SELECT g, g % 100, md5(g::text) FROM generate_series(1, 200000) g',
    );
    // The rows of the join, written by the engine: customer and nation into PostgreSQL (the oracle), nation into memory.
    await query(cluster.coordinator.uri, 'CREATE TABLE pg.public.customer AS SELECT * FROM tpch.tiny.customer');
    await query(cluster.coordinator.uri, 'CREATE TABLE pg.public.orders AS SELECT * FROM tpch.tiny.orders');
    await query(cluster.coordinator.uri, 'CREATE TABLE pg.public.nation AS SELECT * FROM tpch.tiny.nation');
    for (const uri of [cluster.coordinator.uri, single.uri]) {
      await query(uri, 'CREATE TABLE memory.default.nations AS SELECT n_nationkey AS key, n_name AS name FROM tpch.tiny.nation');
    }
  });
  after(async () => {
    await single?.stop();
    await pg?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('reads a table in key ranges on both workers, with the same answer as one split and as PostgreSQL', async () => {
    const sql = 'SELECT x, count(*), sum(id), min(s) FROM pg.public.big GROUP BY x';
    const parallel = { 'X-Engine-Session': 'pg.split_count=4,pg.aggregation_pushdown_enabled=false' };
    const run = await runStatement(cluster.coordinator.uri, sql, parallel);
    expect(run.final.error).to.equal(undefined);
    expect(run.final.stats.totalSplits).to.be.at.least(4);
    const detail = await getJson<{ outputStage: StageJson }>(`${cluster.coordinator.uri}/v1/query/${run.final.id}`);
    const stages = (stage: StageJson): StageJson[] => [stage, ...stage.subStages.flatMap(stages)];
    const readers = new Set(
      stages(detail.body.outputStage)
        .flatMap((s) => s.tasks)
        .filter((t) =>
          t.stats.pipelines.some((p) => p.operatorSummaries.some((o) => o.operatorType === 'tableScan' && o.inputPositions > 0)),
        )
        .map((t) => t.nodeId),
    );
    expect([...readers].sort()).to.deep.equal(['worker-1', 'worker-2']);
    const oneSplit = await query(cluster.coordinator.uri, sql, { 'X-Engine-Session': 'pg.aggregation_pushdown_enabled=false' });
    expect(sorted(run.rows)).to.deep.equal(sorted(oneSplit));
    const theirs = await pg.sql('SELECT x, count(*) AS c, sum(id) AS s, min(s COLLATE "C") AS m FROM big GROUP BY x');
    expect(sorted(run.rows)).to.deep.equal(sorted(theirs.map((r) => [r.x, Number(r.c), Number(r.s), r.m])));
  });

  for (const where of ['cluster', 'single node']) {
    it(`joins pg, tpch and memory tables on the ${where} as PostgreSQL joins the same rows`, async () => {
      const uri = where === 'cluster' ? cluster.coordinator.uri : single.uri;
      const ours = await query(uri, FEDERATED);
      const theirs = (await pg.sql(FEDERATED_IN_POSTGRES)).map((r) => Object.values(r));
      expect(ours.length).to.equal(25);
      expect(sorted(ours)).to.deep.equal(sorted(theirs));
    });
  }
});
