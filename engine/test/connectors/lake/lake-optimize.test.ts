// ALTER TABLE ... EXECUTE optimize on the lake, as BaseHiveConnectorTest's testOptimize* cases check
// Trino's Hive connector: refused until non_transactional_optimize_enabled is set; the small files
// rewritten into fewer (one per partition here), the rows the same multiset (DuckDB reading the files
// before and after is the oracle), a too-low threshold changing nothing, a WHERE on partition columns
// selecting partitions and one on another column refused with Trino's message, "optimize" quoted
// not found; external tables refused as for INSERT; a failed commit (a concurrent rewrite) leaves
// the table as it was.

import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { dataFiles, duckNationRows, LakeFixture } from './lake-fixture.js';

const ENABLE = 'SET SESSION lake.non_transactional_optimize_enabled = true';
const NATION = 'SELECT n_nationkey, n_name, n_comment, n_regionkey FROM tpch.tiny.nation';

describe('lake: ALTER TABLE ... EXECUTE optimize', function () {
  this.timeout(120_000);
  let lake: LakeFixture;
  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  const duckRows = (dir: string, partitioned: boolean) => duckNationRows(dir, partitioned, 'nationkey, name, comment, regionkey');

  it('unpartitioned: refused until enabled, then ten small files become one with the same rows', async () => {
    await lake.harness.query('CREATE TABLE lake.default.t (nationkey bigint, name varchar, comment varchar, regionkey bigint)');
    for (let i = 0; i < 10; i++) await lake.harness.query(`INSERT INTO lake.default.t ${NATION}`);
    const dir = lake.path('catalog/default/t');
    const before = dataFiles(dir);
    expect(before).to.have.length(10);
    const rows = await duckRows(dir, false);
    expect(rows).to.have.length(250);
    expect(await lake.failure("ALTER TABLE lake.default.t EXECUTE optimize(file_size_threshold => '10kB')")).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'OPTIMIZE procedure must be explicitly enabled via non_transactional_optimize_enabled session property',
    });
    expect(dataFiles(dir)).to.deep.equal(before);
    await lake.harness.query(ENABLE);
    await lake.harness.query("ALTER TABLE lake.default.t EXECUTE optimize(file_size_threshold => '16MB')");
    const after = dataFiles(dir);
    expect(after).to.have.length(1);
    expect(after.filter((f) => before.includes(f))).to.deep.equal([]);
    expect(await duckRows(dir, false)).to.deep.equal(rows);
    expect(await lake.rows('SELECT nationkey, name, comment, regionkey FROM lake.default.t ORDER BY 1, 2, 3, 4')).to.deep.equal(rows);
    // A threshold below every file's size: nothing to do.
    await lake.harness.query("ALTER TABLE lake.default.t EXECUTE optimize(file_size_threshold => '10B')");
    expect(dataFiles(dir)).to.deep.equal(after);
    expect(await lake.failure('ALTER TABLE lake.default.t EXECUTE "optimize"')).to.deep.equal({
      name: 'PROCEDURE_NOT_FOUND',
      message: 'line 1:36: Table procedure not registered: optimize',
    });
    await lake.harness.query('ALTER TABLE lake.default.t EXECUTE "OPTIMIZE"');
    expect(await duckRows(dir, false)).to.deep.equal(rows);
  });

  it('partitioned: a WHERE on the partition column selects partitions; on another column it is refused', async () => {
    await lake.harness.query(
      "CREATE TABLE lake.default.p (nationkey bigint, name varchar, comment varchar, regionkey bigint) WITH (partitioned_by = ARRAY['regionkey'])",
    );
    for (let i = 0; i < 3; i++) await lake.harness.query(`INSERT INTO lake.default.p ${NATION}`);
    await lake.harness.query(ENABLE);
    const dir = lake.path('catalog/default/p');
    const initial = dataFiles(dir);
    expect(initial).to.have.length(15);
    const rows = await duckRows(dir, true);
    expect(rows).to.have.length(75);
    expect(
      await lake.failure("ALTER TABLE lake.default.p EXECUTE optimize(file_size_threshold => '10kB') WHERE nationkey = 1"),
    ).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'line 1:92: Unexpected FilterNode found in plan; probably connector was not able to handle provided WHERE expression',
    });
    await lake.harness.query("ALTER TABLE lake.default.p EXECUTE optimize(file_size_threshold => '10kB') WHERE regionkey > 5");
    expect(dataFiles(dir)).to.deep.equal(initial);
    await lake.harness.query("ALTER TABLE lake.default.p EXECUTE optimize('10kB') WHERE regionkey IN (1, 2)");
    expect(dataFiles(dir)).to.have.length(2 + 3 * 3);
    expect(await duckRows(dir, true)).to.deep.equal(rows);
    await lake.harness.query('ALTER TABLE lake.default.p EXECUTE optimize WHERE regionkey > 3');
    expect(dataFiles(dir)).to.have.length(3 + 2 * 3);
    await lake.harness.query("ALTER TABLE lake.default.p EXECUTE optimize(file_size_threshold => '10kB')");
    const compacted = dataFiles(dir);
    expect(compacted).to.have.length(5);
    expect(compacted.filter((f) => initial.includes(f))).to.deep.equal([]);
    expect(await duckRows(dir, true)).to.deep.equal(rows);
    expect(await lake.rows('SELECT count(*), sum(nationkey), count(DISTINCT comment) FROM lake.default.p')).to.deep.equal([
      ['75', '900', '25'],
    ]);
  });

  it('readers during the rewrite see every row once or fail, never a wrong count; two rewrites at once lose and double nothing; SHOW STATS counts the rows once', async () => {
    await lake.harness.query('CREATE TABLE lake.default.t (nationkey bigint, name varchar, comment varchar, regionkey bigint)');
    for (let i = 0; i < 10; i++) await lake.harness.query(`INSERT INTO lake.default.t ${NATION}`);
    await lake.harness.query(ENABLE);
    const dir = lake.path('catalog/default/t');
    const rows = await duckRows(dir, false);
    let done = false;
    const optimizing = Promise.allSettled([
      lake.harness.query('ALTER TABLE lake.default.t EXECUTE optimize'),
      lake.harness.query('ALTER TABLE lake.default.t EXECUTE optimize'),
    ]).finally(() => (done = true));
    // A read either sees all rows once, or (having listed files the rewrite then deleted, as in Trino) fails: never a wrong count.
    const counts = new Set<string>();
    while (!done) {
      const read = await lake.harness.query('SELECT count(*), sum(nationkey) FROM lake.default.t').then(
        (r) => String(r.rows[0]),
        (e: Error) => (/does not exist|was rewritten by ALTER TABLE EXECUTE optimize/.test(e.message) ? 'failed: file deleted' : e.message),
      );
      counts.add(read);
    }
    const outcomes = await optimizing;
    for (const count of counts) expect(count).to.be.oneOf(['250,3000', 'failed: file deleted']);
    // Each either rewrote the files or found another had retired them first.
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect((outcome.reason as { errorName: string }).errorName).to.equal('HIVE_CONCURRENT_MODIFICATION_DETECTED');
    }
    expect(outcomes.some((o) => o.status === 'fulfilled')).to.equal(true);
    expect(await duckRows(dir, false)).to.deep.equal(rows);
    expect(await lake.rows('SELECT nationkey, name, comment, regionkey FROM lake.default.t ORDER BY 1, 2, 3, 4')).to.deep.equal(rows);
    const stats = await lake.rows('SHOW STATS FOR lake.default.t');
    expect(stats[stats.length - 1][4]).to.equal(250);
  });

  it('a rewrite that fails (a file it cannot read) leaves the table as it was', async () => {
    await lake.harness.query("CREATE TABLE lake.default.t (nationkey bigint, name varchar) WITH (format = 'JSON')");
    for (let i = 0; i < 3; i++) await lake.harness.query('INSERT INTO lake.default.t SELECT n_nationkey, n_name FROM tpch.tiny.nation');
    await lake.harness.query(ENABLE);
    const dir = lake.path('catalog/default/t');
    const before = dataFiles(dir);
    lake.file(`catalog/default/t/${before[2]}`, '{"nationkey": 1, "name": "x"}\n{not json\n');
    const commits = readdirSync(lake.path('catalog/default/t/.engine/commits'));
    expect((await lake.failure('ALTER TABLE lake.default.t EXECUTE optimize')).name).to.not.equal(undefined);
    expect(dataFiles(dir)).to.deep.equal(before);
    expect(readdirSync(lake.path('catalog/default/t/.engine/commits'))).to.deep.equal(commits);
  });

  it('an external table is refused as for INSERT; arguments are checked as Trino checks them', async () => {
    const { table } = await lake.duckDbTable('ext', 'i::BIGINT AS id', 'ROW_GROUP_SIZE 1000');
    await lake.harness.query(ENABLE);
    const refused = await lake.failure(`ALTER TABLE ${table} EXECUTE optimize`);
    expect(refused.name).to.equal('NOT_SUPPORTED');
    expect(refused.message).to.contain("Cannot write to external table 'lake.default.ext'");
    await lake.harness.query('CREATE TABLE lake.default.t (id bigint)');
    const refusals: [sql: string, name: string, message: string][] = [
      ["ALTER TABLE lake.default.t EXECUTE optimize('1MB', '2MB')", 'INVALID_ARGUMENTS', 'line 1:1: Too many positional arguments'],
      [
        "ALTER TABLE lake.default.t EXECUTE optimize(file_size_threshold => '1MB', '2MB')",
        'INVALID_ARGUMENTS',
        'line 1:1: Named and positional arguments cannot be mixed',
      ],
      [
        "ALTER TABLE lake.default.t EXECUTE optimize(size => '1MB')",
        'INVALID_PROCEDURE_ARGUMENT',
        "line 1:45: Table procedure 'OPTIMIZE' property 'size' does not exist",
      ],
      [
        'ALTER TABLE lake.default.t EXECUTE optimize(file_size_threshold => 12)',
        'INVALID_PROCEDURE_ARGUMENT',
        "line 1:68: Invalid value for table procedure property 'file_size_threshold': Cannot convert [12] to data size",
      ],
      [
        'ALTER TABLE lake.information_schema.tables EXECUTE optimize',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support table procedures',
      ],
      ['ALTER TABLE tpch.tiny.nation EXECUTE optimize', 'PROCEDURE_NOT_FOUND', 'line 1:38: Table procedure not registered: OPTIMIZE'],
      ['ALTER TABLE lake.default.nosuch EXECUTE optimize', 'TABLE_NOT_FOUND', "line 1:13: Table 'lake.default.nosuch' does not exist"],
    ];
    for (const [sql, name, message] of refusals) expect(await lake.failure(sql), sql).to.deep.equal({ name, message });
  });
});
