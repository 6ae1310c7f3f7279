// Writes on a coordinator and 2 workers (real processes) sharing a lake folder and a PostgreSQL
// server: CREATE TABLE AS and INSERT run their writers on both workers (each names its own files)
// and commit once on the coordinator; DuckDB reading the files and PostgreSQL are the oracles. A
// write that fails, is cancelled, or loses a worker leaves no table, no rows and no files behind;
// two INSERTs at once both land.

import { expect } from 'chai';
import { join } from 'node:path';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { PostgresServer } from '../support/postgres-server.js';
import { getJson, postStatement, query, runStatement, type StatementResponse } from '../support/statement-http.js';
import { dataFiles, writeFiles, writersOf } from '../writes/write-files.js';
import { eventually } from './cluster-fixture.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

interface StageJson {
  tasks: { nodeId: string; stats: { pipelines: { operatorSummaries: { operatorType: string; inputPositions: number }[] }[] } }[];
  subStages: StageJson[];
}

const USER = { 'X-Engine-User': 'test' };
const LINEITEM = 'tpch."sf0.1".lineitem';
/** Fails with DIVISION_BY_ZERO on the rows of the last orders only: many rows are written before. */
const FAILING = `SELECT l_orderkey, l_comment, CASE WHEN l_orderkey > 500000 THEN l_orderkey / (l_linenumber - 7) ELSE 0 END AS x FROM ${LINEITEM}`;
/** Figures of lineitem that any change to a row would change. */
const SUMS =
  'SELECT count(*), sum(l_orderkey), CAST(sum(l_quantity) AS varchar), CAST(sum(l_extendedprice) AS varchar), max(l_comment), CAST(max(l_shipdate) AS varchar) FROM';

describe('writes on a coordinator and 2 workers', function () {
  this.timeout(300_000);
  let pg: PostgresServer;
  let uri: string;

  before(async () => {
    pg = await PostgresServer.start();
  });

  const lake = withLakeCluster(
    2,
    'engine-writes-cluster-',
    () =>
      `  - name: pg\n    connector: postgresql\n    properties:\n      connection-url: ${pg.connectionUrl}\n      connection-user: ${PostgresServer.user}\n      connection-password: ${PostgresServer.password}\n`,
  );
  const { cluster } = lake;

  before(() => {
    uri = cluster.coordinator.uri;
  });

  after(async () => {
    await pg?.stop();
  });

  const tableDir = (table: string) => join(lake.dir, 'catalog', 'default', table);
  const pgTables = async () =>
    (await pg.sql<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).map((r) => r.tablename);

  /** The nodes whose TableWriter operators wrote rows in the query. */
  async function writerNodes(queryId: string): Promise<string[]> {
    const detail = await getJson<{ outputStage: StageJson }>(`${uri}/v1/query/${queryId}`, { headers: USER });
    const stages = (stage: StageJson): StageJson[] => [stage, ...stage.subStages.flatMap(stages)];
    const writing = stages(detail.body.outputStage)
      .flatMap((s) => s.tasks)
      .filter((t) =>
        t.stats.pipelines.some((p) => p.operatorSummaries.some((o) => o.operatorType === 'tableWriter' && o.inputPositions > 0)),
      );
    return [...new Set(writing.map((t) => t.nodeId))].sort();
  }

  it('CREATE TABLE AS from lineitem sf0.1 writes Parquet files from both workers, which DuckDB reads as the rows of lineitem', async () => {
    const run = await runStatement(uri, `CREATE TABLE lake.default.lineitem AS SELECT * FROM ${LINEITEM}`, USER);
    expect(run.final.error).to.equal(undefined);
    expect(run.rows).to.deep.equal([[600572]]);
    expect(await writerNodes(run.final.id)).to.deep.equal(['worker-1', 'worker-2']);
    const files = dataFiles(tableDir('lineitem'));
    expect(writersOf(files).size, files.join(', ')).to.equal(2);
    const fromFiles = await duckDbRows(`${SUMS} read_parquet('${tableDir('lineitem')}/*.parquet')`);
    const fromTpch = await query(uri, `${SUMS} ${LINEITEM}`);
    expect(fromFiles.map((r) => r.map(String))).to.deep.equal(fromTpch.map((r) => r.map(String)));
    expect(await query(uri, `${SUMS} lake.default.lineitem`)).to.deep.equal(fromTpch);
  });

  it('CREATE TABLE AS into PostgreSQL writes from both workers into one table', async () => {
    const run = await runStatement(
      uri,
      `CREATE TABLE pg.public.lineitem AS SELECT l_orderkey, l_quantity, l_comment FROM ${LINEITEM}`,
      USER,
    );
    expect(run.final.error).to.equal(undefined);
    expect(run.rows).to.deep.equal([[600572]]);
    expect(await writerNodes(run.final.id)).to.deep.equal(['worker-1', 'worker-2']);
    const theirs = await pg.sql('SELECT count(*)::text AS c, sum(l_orderkey)::text AS k, sum(l_quantity)::text AS q FROM lineitem');
    const ours = await query(
      uri,
      `SELECT CAST(count(*) AS varchar), CAST(sum(l_orderkey) AS varchar), CAST(sum(l_quantity) AS varchar) FROM ${LINEITEM}`,
    );
    expect([[theirs[0].c, theirs[0].k, theirs[0].q]]).to.deep.equal(ours);
    expect((await pgTables()).filter((t) => t.startsWith('tmp_engine_'))).to.deep.equal([]);
  });

  for (const format of ['PARQUET', 'CSV'] as const) {
    it(`INSERT ... SELECT into a partitioned ${format} table: one writer per partition, DuckDB reads the same rows`, async () => {
      const table = `flags_${format.toLowerCase()}`;
      await query(
        uri,
        `CREATE TABLE lake.default.${table} (orderkey bigint, price decimal(12,2), comment varchar, flag varchar) WITH (format = '${format}', partitioned_by = ARRAY['flag'])`,
      );
      const run = await runStatement(
        uri,
        `INSERT INTO lake.default.${table} SELECT l_orderkey, l_extendedprice, l_comment, l_returnflag FROM tpch.tiny.lineitem`,
        USER,
      );
      expect(run.final.error).to.equal(undefined);
      expect(run.rows).to.deep.equal([[60175]]);
      const files = dataFiles(tableDir(table));
      for (const flag of ['A', 'N', 'R'])
        expect(writersOf(files.filter((f) => f.startsWith(`flag=${flag}/`))).size, files.join(', ')).to.equal(1);
      const read =
        format === 'PARQUET'
          ? `read_parquet('${tableDir(table)}/*/*.parquet', hive_partitioning = true)`
          : `read_csv('${tableDir(table)}/*/*.csv', header = false, columns = {'orderkey': 'BIGINT', 'price': 'DECIMAL(12,2)', 'comment': 'VARCHAR'}, hive_partitioning = true)`;
      const sums = 'SELECT flag, count(*), sum(orderkey), CAST(sum(price) AS varchar), max(comment) FROM';
      const fromFiles = await duckDbRows(`${sums} ${read} GROUP BY 1 ORDER BY 1`);
      const fromTpch = await query(
        uri,
        `SELECT l_returnflag, count(*), sum(l_orderkey), CAST(sum(l_extendedprice) AS varchar), max(l_comment) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1`,
      );
      expect(fromFiles.map((r) => r.map(String))).to.deep.equal(fromTpch.map((r) => r.map(String)));
    });
  }

  it('two INSERTs at once into one lake table both land', async () => {
    await query(uri, 'CREATE TABLE lake.default.twice (id bigint, name varchar)');
    const runs = await Promise.all(
      [0, 1000].map((offset) =>
        runStatement(uri, `INSERT INTO lake.default.twice SELECT l_orderkey + ${offset}, l_comment FROM tpch.tiny.lineitem`, USER),
      ),
    );
    expect(runs.map((r) => r.final.error)).to.deep.equal([undefined, undefined]);
    const expected = await query(uri, 'SELECT 2 * count(*), 2 * sum(l_orderkey) + 1000 * count(*) FROM tpch.tiny.lineitem');
    expect(await query(uri, 'SELECT count(*), sum(id) FROM lake.default.twice')).to.deep.equal(expected);
  });

  it('a CREATE TABLE AS that fails on a worker after writing leaves no table and no files in the lake, and PostgreSQL as it was', async () => {
    const before = await pgTables();
    for (const [target, folder] of [
      ['lake.default.failed', tableDir('failed')],
      ['pg.public.failed', undefined],
    ] as const) {
      const run = await runStatement(uri, `CREATE TABLE ${target} AS ${FAILING}`, USER);
      expect(run.final.error?.errorName, target).to.equal('DIVISION_BY_ZERO');
      if (folder !== undefined)
        await eventually('no file of the write left', async () => (writeFiles(folder).length === 0 ? true : undefined), 20_000);
    }
    expect((await runStatement(uri, 'SELECT count(*) FROM lake.default.failed', USER)).final.error?.errorName).to.equal('TABLE_NOT_FOUND');
    await eventually('PostgreSQL as it was', async () => ((await pgTables()).join() === before.join() ? true : undefined), 20_000);
  });

  /** Starts a write, waits until its writers are writing files into `folder`; returns its first response. */
  async function startWrite(sql: string, folder: string, filesBefore: number): Promise<StatementResponse> {
    const response = (await postStatement(uri, sql, USER)).body;
    await eventually('writers writing', async () => (writeFiles(folder).length > filesBefore ? true : undefined), 60_000);
    return response;
  }

  it('a cancelled INSERT leaves the table as it was, and its files go', async () => {
    await query(
      uri,
      "CREATE TABLE lake.default.kept WITH (format = 'CSV') AS SELECT l_orderkey, l_comment FROM tpch.tiny.lineitem WHERE l_orderkey < 1000",
    );
    const folder = tableDir('kept');
    const before = writeFiles(folder);
    const counted = await query(uri, 'SELECT count(*), sum(l_orderkey) FROM lake.default.kept');
    // Minutes of writing (6 million rows): the cancel comes long before its end.
    const running = await startWrite(
      'INSERT INTO lake.default.kept SELECT l_orderkey, l_comment FROM tpch.sf1.lineitem',
      folder,
      before.length,
    );
    expect((await fetch(running.nextUri!, { method: 'DELETE', headers: USER })).status).to.equal(204);
    const state = async () =>
      (await getJson<{ state: string; errorCode?: { name: string } }>(`${uri}/v1/query/${running.id}`, { headers: USER })).body;
    const detail = await eventually('the query ended', async () => ((await state()).errorCode === undefined ? undefined : state()), 20_000);
    expect([detail.state, detail.errorCode?.name]).to.deep.equal(['FAILED', 'USER_CANCELED']);
    expect(await query(uri, 'SELECT count(*), sum(l_orderkey) FROM lake.default.kept')).to.deep.equal(counted);
    await eventually(
      'only the files of the CTAS left',
      async () => (writeFiles(folder).join() === before.join() ? true : undefined),
      20_000,
    );
  });

  it('a worker drained while writing finishes its writer: the write lands whole, from both workers', async () => {
    const folder = tableDir('drained');
    const running = await startWrite(`CREATE TABLE lake.default.drained AS SELECT * FROM ${LINEITEM}`, folder, 0);
    const drained = cluster.worker('worker-1');
    const put = await fetch(`${drained.uri}/v1/info/state`, {
      method: 'PUT',
      body: JSON.stringify('SHUTTING_DOWN'),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(put.status).to.equal(200);
    let response = running;
    while (response.nextUri) response = (await getJson<StatementResponse>(response.nextUri, { headers: USER })).body;
    expect(response.error).to.equal(undefined);
    expect(await query(uri, `${SUMS} lake.default.drained`)).to.deep.equal(await query(uri, `${SUMS} ${LINEITEM}`));
    expect(writersOf(dataFiles(folder)).size).to.equal(2);
    // The drained worker leaves once its tasks are done; a fresh one takes its place.
    expect(await drained.waitForExit()).to.equal(0);
    await cluster.startWorker('worker-1');
    await cluster.waitForActiveWorkers(2);
  });

  it('a worker killed while writing fails the write: nothing is committed and no file of it is visible', async () => {
    const folder = tableDir('lost');
    const running = await startWrite('CREATE TABLE lake.default.lost AS SELECT * FROM tpch.sf1.lineitem', folder, 0);
    const victim = cluster.worker('worker-2');
    victim.signal('SIGKILL');
    await victim.waitForExit();
    let response = running;
    while (response.nextUri) response = (await getJson<StatementResponse>(response.nextUri, { headers: USER })).body;
    expect(response.error?.errorName, response.error?.message).to.equal('REMOTE_HOST_GONE');
    expect((await runStatement(uri, 'SELECT count(*) FROM lake.default.lost', USER)).final.error?.errorName).to.equal('TABLE_NOT_FOUND');
    // The coordinator's abort deletes the files named by the write; a file the killed worker had not
    // finished stays hidden (`.tmp-...`), as the file system writes it.
    await eventually('no file of the write left', async () => (dataFiles(folder).length === 0 ? true : undefined), 20_000);
  });
});
