// Writes on one node (the in-process harness, which runs the same fragments as a cluster): the plan
// writes rows where they are read (TableWriter in the scan's fragment, TableCommit on the
// coordinator); partitioned lake tables get their rows repartitioned so that each partition is
// written by one writer; a CREATE TABLE AS that fails after its writers wrote, and an INSERT that is
// cancelled while its writers write, leave the lake and PostgreSQL as they were; writes of
// coordinator tables (memory) run their writer on the coordinator. DuckDB and PostgreSQL are the
// oracles for what was written.

import { expect } from 'chai';
import { PostgresConnector } from '../../src/connectors/postgresql/postgresql-connector.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';
import { eventually } from '../cluster/cluster-fixture.js';
import { duckDbRows, LakeFixture } from '../connectors/lake/lake-fixture.js';
import { PostgresServer } from '../support/postgres-server.js';
import { dataFiles, writeFiles, writersOf } from './write-files.js';

/** Rows of lineitem at sf0.1 (600,572), enough for writers to be writing when a failure or a cancel comes. */
const LINEITEM = 'tpch."sf0.1".lineitem';
/** Minutes of writing (6 million rows): a cancel comes long before the commit. */
const LONG_WRITE = 'tpch.sf1.lineitem';
/** Fails with DIVISION_BY_ZERO on the rows of the last orders only: many rows are written before. */
const FAILING = `SELECT l_orderkey, l_comment, CASE WHEN l_orderkey > 500000 THEN l_orderkey / (l_linenumber - 7) ELSE 0 END AS x FROM ${LINEITEM}`;

describe('writes on one node: writers where the rows are, one commit, nothing left by a failed or cancelled write', function () {
  this.timeout(180_000);
  let lake: LakeFixture;
  let pg: PostgresServer;

  before(async () => {
    lake = LakeFixture.create();
    pg = await PostgresServer.start();
    lake.harness.catalogs.register('pg', new PostgresConnector('pg', postgresConfig('pg', pg.catalogProperties())));
  });
  after(async () => {
    lake?.remove();
    await pg?.stop();
  });

  const pgTables = async () =>
    (await pg.sql<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).map((r) => r.tablename);

  it('EXPLAIN shows the writers in the fragment that reads the rows and the commit in fragment 0; a memory table is written on the coordinator', async () => {
    const plan = String((await lake.rows('EXPLAIN CREATE TABLE lake.default.x AS SELECT * FROM tpch.tiny.nation'))[0][0]);
    const fragments = plan.split(/\n(?=Fragment )/);
    expect(fragments[0])
      .to.match(/^Fragment 0 \[SINGLE\]/)
      .and.contain('TableCommit[target = lake:default.x]')
      .and.not.contain('TableWriter');
    expect(fragments[1])
      .to.match(/^Fragment 1 \[SOURCE\]/)
      .and.contain('TableWriter[target = lake:default.x] n_nationkey := ')
      .and.contain('TableScan[table = tpch:tiny.nation');
    // EXPLAIN begins no write: the table is not there. EXPLAIN ANALYZE, which would write, is refused.
    expect(await lake.failure('EXPLAIN ANALYZE CREATE TABLE lake.default.x AS SELECT * FROM tpch.tiny.nation')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'line 1:1: EXPLAIN ANALYZE of CREATE TABLE AS is not supported',
    });
    expect(
      await lake.rows("SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake' AND table_name = 'x'"),
    ).to.deep.equal([['0']]);
    const memory = String((await lake.rows('EXPLAIN CREATE TABLE memory.default.x AS SELECT * FROM tpch.tiny.nation'))[0][0]);
    const [coordinator] = memory.split(/\n(?=Fragment )/);
    expect(coordinator).to.contain('TableCommit[target = memory:default.x]').and.contain('TableWriter[target = memory:default.x]');
    expect(await lake.rows('CREATE TABLE memory.default.x AS SELECT * FROM tpch.tiny.nation')).to.deep.equal([['25']]);
    expect(
      await lake.rows(
        'INSERT INTO memory.default.x (n_name, n_nationkey) SELECT n_name, n_nationkey + 100 FROM tpch.tiny.nation WHERE n_regionkey = 1',
      ),
    ).to.deep.equal([['5']]);
    const expected = await lake.rows(
      'SELECT 30, 25, (SELECT sum(n_nationkey) FROM tpch.tiny.nation) + (SELECT sum(n_nationkey + 100) FROM tpch.tiny.nation WHERE n_regionkey = 1)',
    );
    expect(await lake.rows('SELECT count(*), count(n_regionkey), sum(n_nationkey) FROM memory.default.x')).to.deep.equal(
      expected.map((r) => r.map(String)),
    );
  });

  for (const format of ['PARQUET', 'CSV'] as const) {
    it(`INSERT ... SELECT into a partitioned ${format} table: each partition written by one writer, DuckDB reads the same rows`, async () => {
      const table = `parts_${format.toLowerCase()}`;
      await lake.harness.query(
        `CREATE TABLE lake.default.${table} (orderkey bigint, price decimal(12,2), flag varchar, status varchar) WITH (format = '${format}', partitioned_by = ARRAY['status'])`,
      );
      const select = `SELECT l_orderkey, l_extendedprice, l_returnflag, l_linestatus FROM tpch.tiny.lineitem`;
      const plan = String((await lake.rows(`EXPLAIN INSERT INTO lake.default.${table} ${select}`))[0][0]);
      expect(plan).to.match(/Output partitioning: HASH \[l_linestatus_\d+\]/);
      expect(await lake.rows(`INSERT INTO lake.default.${table} ${select}`)).to.deep.equal([['60175']]);
      expect(await lake.rows(`INSERT INTO lake.default.${table} ${select} WHERE l_orderkey < 100`)).to.deep.equal([['105']]);
      const dir = lake.path(`catalog/default/${table}`);
      const files = dataFiles(dir);
      for (const status of ['F', 'O']) {
        const inFolder = files.filter((f) => f.startsWith(`status=${status}/`));
        // Two inserts, one writer each for the partition, one file each.
        expect(inFolder, files.join(', ')).to.have.length(2);
      }
      const read =
        format === 'PARQUET'
          ? `read_parquet('${dir}/*/*.parquet', hive_partitioning = true)`
          : `read_csv('${dir}/*/*.csv', header = false, columns = {'orderkey': 'BIGINT', 'price': 'DECIMAL(12,2)', 'flag': 'VARCHAR'}, hive_partitioning = true)`;
      const sums = 'SELECT status, flag, count(*), sum(orderkey), CAST(sum(price) AS varchar) FROM';
      const expected = await duckDbRows(`${sums} ${read} GROUP BY 1, 2 ORDER BY 1, 2`);
      expect(await lake.rows(`${sums} lake.default.${table} GROUP BY 1, 2 ORDER BY 1, 2`)).to.deep.equal(expected);
      expect(expected.reduce((n, r) => n + Number(r[2]), 0)).to.equal(60175 + 105);
    });
  }

  it('a CREATE TABLE AS that fails after its writers wrote leaves no table and no files in the lake', async () => {
    const dir = lake.path('catalog/default/failed');
    const seen = new Set<string>();
    let running = true;
    const watch = (async () => {
      for (; running; await new Promise((r) => setTimeout(r, 5))) writeFiles(dir).forEach((f) => seen.add(f));
    })();
    const failure = await lake.failure(`CREATE TABLE lake.default.failed AS ${FAILING}`);
    running = false;
    await watch;
    expect(failure.name).to.equal('DIVISION_BY_ZERO');
    expect(seen.size, 'files were being written when the query failed').to.be.greaterThan(0);
    expect(await lake.failure('SELECT count(*) FROM lake.default.failed')).to.deep.include({ name: 'TABLE_NOT_FOUND' });
    await eventually('no file of the write left', async () => (writeFiles(dir).length === 0 ? true : undefined));
  });

  it('a CREATE TABLE AS that fails after its writers wrote leaves PostgreSQL as it was', async () => {
    const before = await pgTables();
    const failure = await lake.failure(`CREATE TABLE pg.public.failed AS ${FAILING}`);
    expect(failure.name).to.equal('DIVISION_BY_ZERO');
    await eventually('no table of the write left', async () => ((await pgTables()).join() === before.join() ? true : undefined));
  });

  it('a cancelled INSERT leaves a lake table as it was, and its files go', async () => {
    await lake.harness.query(
      "CREATE TABLE lake.default.kept WITH (format = 'CSV') AS SELECT l_orderkey, l_comment FROM tpch.tiny.lineitem WHERE l_orderkey < 10",
    );
    const dir = lake.path('catalog/default/kept');
    const before = dataFiles(dir);
    const cancel = new AbortController();
    const insert = lake.harness.query(`INSERT INTO lake.default.kept SELECT l_orderkey, l_comment FROM ${LONG_WRITE}`, cancel.signal).then(
      () => 'finished',
      (e: Error) => e.message,
    );
    await eventually('the writer writing', async () => (writeFiles(dir).length > before.length ? true : undefined), 60_000);
    cancel.abort();
    expect(await insert).to.not.equal('finished');
    expect(await lake.rows('SELECT count(*) FROM lake.default.kept')).to.deep.equal([['25']]);
    await eventually('only the files of the CTAS left', async () => (writeFiles(dir).join() === before.join() ? true : undefined));
  });

  it('a cancelled INSERT leaves a PostgreSQL table as it was', async () => {
    await lake.harness.query('CREATE TABLE pg.public.kept AS SELECT l_orderkey, l_comment FROM tpch.tiny.lineitem WHERE l_orderkey < 10');
    const before = await pgTables();
    const cancel = new AbortController();
    const insert = lake.harness.query(`INSERT INTO pg.public.kept SELECT l_orderkey, l_comment FROM ${LONG_WRITE}`, cancel.signal).then(
      () => 'finished',
      (e: Error) => e.message,
    );
    // The write's own table, into which its writer COPYs.
    await eventually(
      'the write begun',
      async () => ((await pgTables()).some((t) => t.startsWith('tmp_engine_')) ? true : undefined),
      60_000,
    );
    cancel.abort();
    expect(await insert).to.not.equal('finished');
    expect(await pg.sql('SELECT count(*)::int AS n FROM kept')).to.deep.equal([{ n: 25 }]);
    await eventually('the write table dropped', async () => ((await pgTables()).join() === before.join() ? true : undefined));
  });

  it('two INSERTs at once into a PostgreSQL table both land', async () => {
    await lake.harness.query('CREATE TABLE pg.public.pair (id bigint, name varchar)');
    await Promise.all(
      [0, 100].map((offset) =>
        lake.harness.query(`INSERT INTO pg.public.pair SELECT n_nationkey + ${offset}, n_name FROM tpch.tiny.nation`),
      ),
    );
    expect(await pg.sql('SELECT count(*)::int AS n, count(DISTINCT id)::int AS d, sum(id)::int AS s FROM pair')).to.deep.equal([
      { n: 50, d: 50, s: 300 + 300 + 2500 },
    ]);
    expect((await pgTables()).filter((t) => t.startsWith('tmp_engine_'))).to.deep.equal([]);
  });

  it('CREATE TABLE AS ... WITH NO DATA creates an empty table in the lake and in PostgreSQL', async () => {
    for (const catalog of ['lake', 'pg']) {
      expect(
        await lake.rows(
          `CREATE TABLE ${catalog}.${catalog === 'lake' ? 'default' : 'public'}.empty AS SELECT * FROM tpch.tiny.region WITH NO DATA`,
        ),
      ).to.deep.equal([['0']]);
      expect(await lake.rows(`SELECT count(*) FROM ${catalog}.${catalog === 'lake' ? 'default' : 'public'}.empty`)).to.deep.equal([['0']]);
    }
    expect(writersOf(dataFiles(lake.path('catalog/default/empty'))).size).to.equal(0);
  });
});
