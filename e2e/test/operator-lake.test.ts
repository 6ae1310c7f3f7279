// The operator with the data users have, on the test Kubernetes with the real helm and kubectl: an
// EngineCluster whose `lake` catalog (hive connector) lives on a hostPath folder every pod mounts,
// and whose `pg` catalog reaches a throwaway PostgreSQL with a password taken from a Secret. The
// cluster waits for its Secret, saying so; CREATE TABLE AS copies tpch's lineitem into the lake; the
// workers scale in from 3 to 1 while 4 clients scan the lake table (joined with PostgreSQL and tpch),
// and every answer must equal the reference generator's rows; no file of the table may go missing,
// and DuckDB must read the same rows from the files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect } from 'chai';
import { repoRoot } from '../src/kubelet/images.js';
import { TestCluster, eventually } from './support/cluster.js';
import { engineClusters } from './support/engine-clusters.js';
import { PodHistory } from './support/pod-history.js';
import { startPostgres, type ThrowawayPostgres } from './support/postgres.js';
import { lineitemCopyQueries, tblRows, type ReferenceQuery } from './support/tpch-reference.js';
import { expectAnswer, queryLoad, runQuery } from './support/trino-queries.js';

const chart = path.join(repoRoot, 'charts', 'engine');
const name = 'lakehouse';
const table = 'lake.sales.lineitem';

function lakehouse(lakeFolder: string, pgUrl: string, pgUser: string): string {
  return `apiVersion: engine.io/v1alpha1
kind: EngineCluster
metadata: {name: ${name}}
spec:
  catalogs:
    tpch: {connector: tpch}
    lake:
      connector: hive
      properties:
        hive.metastore: file
        hive.metastore.catalog.dir: file:///var/lib/engine/lake
    pg:
      connector: postgresql
      properties:
        connection-url: ${pgUrl}
        connection-user: ${pgUser}
        connection-password: {valueFrom: {secretKeyRef: {name: pg-credentials, key: password}}}
  volumes:
    - {name: lake, hostPath: {path: ${lakeFolder}, type: Directory}}
  volumeMounts:
    - {name: lake, mountPath: /var/lib/engine/lake}
  workers:
    replicas: 3
    drainTimeoutSeconds: 120
`;
}

/** The table's data files (name and size), and the files its commits say each write made. */
function tableFiles(lakeFolder: string): { files: Record<string, number>; committed: Record<string, number> } {
  const folder = path.join(lakeFolder, 'sales', 'lineitem');
  const files = Object.fromEntries(
    fs
      .readdirSync(folder)
      .filter((f) => f.endsWith('.parquet'))
      .sort()
      .map((f) => [f, fs.statSync(path.join(folder, f)).size]),
  );
  const commits = path.join(folder, '.engine', 'commits');
  const committed: Record<string, number> = {};
  for (const c of fs.readdirSync(commits))
    for (const w of JSON.parse(fs.readFileSync(path.join(commits, c), 'utf8')).writes as { writeId: string; files: number }[])
      committed[w.writeId] = w.files;
  return { files, committed };
}

describe('the operator with a lake on a shared folder and a catalog password from a Secret', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  let postgres: { server: ThrowawayPostgres; user: string; password: string };
  let lakeFolder: string;
  let pods: PodHistory;
  let server: string;
  let queries: ReferenceQuery[];
  const { status, workerPods, steady, events } = engineClusters(() => cluster, name);

  before(async () => {
    queries = lineitemCopyQueries(table, 'pg.public.nation');
    lakeFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-lake-'));
    [postgres, cluster] = await Promise.all([startPostgres(), TestCluster.startWithNode()]);
    await postgres.server.sql(
      'CREATE TABLE nation (n_nationkey integer PRIMARY KEY, n_name varchar(25) NOT NULL, n_regionkey integer NOT NULL, n_comment varchar(152))',
    );
    for (const n of tblRows('nation'))
      await postgres.server.sql('INSERT INTO nation VALUES ($1, $2, $3, $4)', [Number(n[0]), n[1], Number(n[2]), n[3]]);
    await cluster.helm([
      'install',
      'engine',
      chart,
      '--set',
      'operator.leaderElection.leaseDurationSeconds=3',
      '--wait',
      '--timeout',
      '60s',
    ]);
    pods = await PodHistory.start(cluster.kubeconfigPath, 'default', 'app.kubernetes.io/managed-by=engine-operator');
  });
  after(async () => {
    pods?.stop();
    await cluster?.stop();
    await postgres?.server.stop();
    if (lakeFolder) fs.rmSync(lakeFolder, { recursive: true, force: true });
  });

  it("holds the pods back while the Secret of the catalog's password is missing, saying so; starts them once it exists; the password is nowhere but in the Secret", async () => {
    await cluster.ok(['apply', '-f', '-'], lakehouse(lakeFolder, postgres.server.connectionUrl, postgres.user));
    const missing = `catalog pg, property connection-password: Secret default/pg-credentials not found`;
    await eventually(
      async () =>
        (await status()).conditions?.some(
          (c) => c.type === 'Degraded' && c.status === 'True' && c.reason === 'SecretMissing' && c.message === missing,
        ) ?? false,
      30_000,
    );
    expect((await status()).state).to.equal('Degraded');
    expect(await events('SecretMissing')).to.deep.equal([`the engine pods cannot start until these exist: ${missing}`]);
    await eventually(async () => {
      const waiting = (await cluster.json(['get', 'pods', '-l', `engine.io/cluster=${name}`])).items.map(
        (p: any) => p.status.containerStatuses?.[0]?.state?.waiting?.reason,
      );
      return waiting.length === 4 && waiting.every((r: string) => r === 'CreateContainerConfigError');
    }, 30_000);

    await cluster.ok(['create', 'secret', 'generic', 'pg-credentials', `--from-literal=password=${postgres.password}`]);
    await steady(3, name, 90_000);
    const svc = await cluster.json(['get', 'service', name]);
    server = `http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}`;
    expect(await runQuery(server, 'SELECT count(*), sum(n_nationkey) FROM pg.public.nation')).to.deep.equal({ rows: [[25, 300]] });

    const config = await cluster.json(['get', 'configmap', `${name}-config`]);
    for (const role of ['coordinator.json', 'worker.json']) {
      const pg = JSON.parse(config.data[role]).catalogs.find((c: { name: string }) => c.name === 'pg');
      expect(pg.properties['connection-password'], role).to.equal('${ENV:ENGINE_CATALOG_PG_CONNECTION_PASSWORD}');
    }
    const [operator] = (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/name=engine-operator'])).items;
    const places = {
      configMap: JSON.stringify(config),
      status: JSON.stringify(await status()),
      operatorLog: await cluster.ok(['logs', operator.metadata.name]),
      events: JSON.stringify(await cluster.json(['get', 'events'])),
    };
    for (const [where, text] of Object.entries(places)) expect(text, where).to.not.contain(postgres.password);
  });

  it("copies tpch's lineitem into the lake with CREATE TABLE AS: the files its commit lists are in the folder every pod shares", async () => {
    expect(await runQuery(server, 'CREATE SCHEMA lake.sales')).to.deep.equal({ rows: [] });
    expect(await runQuery(server, `CREATE TABLE ${table} AS SELECT * FROM tpch.tiny.lineitem`)).to.deep.equal({ rows: [[60175]] });
    const { files, committed } = tableFiles(lakeFolder);
    expect(Object.keys(committed)).to.have.length(1);
    expect(Object.keys(files)).to.have.length(Object.values(committed)[0]!);
    console.log(`      CREATE TABLE AS wrote ${Object.keys(files).length} files: ${Object.keys(files).join(', ')}`);
    for (const q of queries) await expectAnswer(server, q);
  });

  it('scales in from 3 workers to 1 while clients scan the lake table: no query fails or answers wrong, no file is lost, DuckDB reads the same rows', async () => {
    const before = tableFiles(lakeFolder);
    const three = await workerPods();
    const load = queryLoad(server, queries, 4);
    await eventually(async () => load.report.run >= 4, 30_000);
    await cluster.ok(['scale', `enginecluster/${name}`, '--replicas=1']);
    const runAtScale = load.report.run;
    await steady(1, name, 90_000);
    const runWhileScaling = load.report.run - runAtScale;
    const report = await load.stop();
    console.log(
      `      lake scans while scaling in 3 -> 1: ${report.run} queries (${runWhileScaling} ended during the scale-in), ${report.failures.length} failed`,
    );
    expect(report.failures).to.deep.equal([]);
    expect(runWhileScaling, 'queries ran through the drains').to.be.greaterThan(0);

    const removed = three.filter((p) => pods.deleted().includes(p));
    expect(removed).to.have.length(2);
    for (const pod of removed) {
      const deleting = pods.atDeletion(pod)!;
      expect(JSON.parse(deleting.metadata!.annotations!['engine.io/drain']).phase, pod).to.equal('ShuttingDown');
      expect(
        deleting.status!.containerStatuses![0].state!.terminated!.exitCode,
        `${pod} drained and exited 0 before it was deleted`,
      ).to.equal(0);
    }
    expect(tableFiles(lakeFolder)).to.deep.equal(before);
    for (const q of queries) await expectAnswer(server, q);

    const duck = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
    const [totals] = (
      await duck.runAndReadAll(
        `SELECT count(*)::INTEGER, sum(l_quantity)::VARCHAR, sum(l_extendedprice)::VARCHAR FROM read_parquet('${lakeFolder}/sales/lineitem/*.parquet')`,
      )
    ).getRows();
    const byFlag = queries[0]!.expected as [string, number, string, string][];
    const cents = (text: string) => BigInt(text.replace('.', ''));
    expect(totals).to.deep.equal([
      byFlag.reduce((a, r) => a + r[1], 0),
      `${byFlag.reduce((a, r) => a + cents(r[2]), 0n)}`.replace(/(\d\d)$/, '.$1'),
      `${byFlag.reduce((a, r) => a + cents(r[3]), 0n)}`.replace(/(\d\d)$/, '.$1'),
    ]);
    duck.closeSync();
  });

  it("kubectl delete enginecluster leaves the lake's files on the shared folder", async () => {
    const files = tableFiles(lakeFolder);
    await cluster.ok(['delete', 'enginecluster', name, '--timeout=60s']);
    await eventually(async () => (await cluster.json(['get', 'pods', '-l', `engine.io/cluster=${name}`])).items.length === 0, 60_000);
    expect(tableFiles(lakeFolder)).to.deep.equal(files);
    await cluster.helm(['uninstall', 'engine', '--wait', '--timeout', '60s']);
  });
});
