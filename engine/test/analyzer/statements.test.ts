import { expect } from 'chai';
import { filterAndProject } from '../../src/exec/operators/filter-and-project.js';
import { tableScan } from '../../src/exec/table-scan.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('metadata, session and EXPLAIN statements', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE SCHEMA memory.shop',
      "CREATE TABLE memory.shop.items (id bigint NOT NULL, name varchar(20) COMMENT 'label', price decimal(8,2))",
    );
  });

  it('lists catalogs, schemas, tables and columns as Trino names them', async () => {
    const catalogs = await h.query('SHOW CATALOGS');
    expect(catalogs.columns.map((c) => c.name)).to.deep.equal(['Catalog']);
    expect(catalogs.rows).to.deep.equal([['memory'], ['tpch']]);
    expect(await h.rows("SHOW SCHEMAS FROM memory LIKE 's%'")).to.deep.equal([['shop']]);
    expect(await h.rows('SHOW TABLES FROM memory.shop')).to.deep.equal([['items']]);
    const columns = await h.query('DESCRIBE memory.shop.items');
    expect(columns.columns.map((c) => c.name)).to.deep.equal(['Column', 'Type', 'Extra', 'Comment']);
    expect(columns.rows).to.deep.equal([
      ['id', 'bigint', '', ''],
      ['name', 'varchar(20)', '', 'label'],
      ['price', 'decimal(8,2)', '', ''],
    ]);
    expect(await h.rows("SHOW TABLES FROM tpch.tiny LIKE 'n%'")).to.deep.equal([['nation']]);
  });

  it('serves information_schema in every catalog', async () => {
    expect(await h.rows("SELECT table_name FROM memory.information_schema.tables WHERE table_schema = 'shop'")).to.deep.equal([['items']]);
    expect(
      await h.rows(
        "SELECT column_name, data_type FROM memory.information_schema.columns WHERE table_name = 'items' ORDER BY ordinal_position",
      ),
    ).to.deep.equal([
      ['id', 'bigint'],
      ['name', 'varchar(20)'],
      ['price', 'decimal(8,2)'],
    ]);
  });

  it('lists functions of every kind', async () => {
    const rows = await h.rows("SHOW FUNCTIONS LIKE 'r%'");
    const byName = new Map(rows.map((r) => [r[0], r[3]]));
    expect(byName.get('round')).to.equal('scalar');
    expect(byName.get('rank')).to.equal('window');
    const sums = await h.rows("SHOW FUNCTIONS LIKE 'sum'");
    expect(sums.every((r) => r[3] === 'aggregate')).to.equal(true);
  });

  // Before: SHOW FUNCTIONS FROM failed with NOT_SUPPORTED. As in Trino, the built-ins are system.builtin's;
  // a schema of a connector lists its own functions, and no connector here stores any.
  it('SHOW FUNCTIONS FROM lists the built-ins from system.builtin, and nothing from other schemas', async () => {
    const all = await h.rows("SHOW FUNCTIONS LIKE 'array%'");
    expect(all.length).to.be.greaterThan(0);
    expect(await h.rows("SHOW FUNCTIONS FROM system.builtin LIKE 'array%'")).to.deep.equal(all);
    expect(await h.rows('SHOW FUNCTIONS FROM memory.default')).to.deep.equal([]);
    expect(await h.rows('SHOW FUNCTIONS FROM example.default')).to.deep.equal([]);
    const error = await h.failure('SHOW FUNCTIONS FROM a.b.c');
    expect([error.errorName, error.rawMessage]).to.deep.equal(['SYNTAX_ERROR', 'Too many parts in schema name: a.b.c']);
  });

  it('explains logical and distributed plans, and EXPLAIN ANALYZE runs the query', async () => {
    const logical = (await h.rows('EXPLAIN (TYPE LOGICAL) SELECT count(*) FROM tpch.tiny.nation WHERE n_regionkey = 1'))[0][0] as string;
    expect(logical).to.match(/Aggregate/);
    expect(logical).to.match(/TableScan\[table = tpch:tiny\.nation, columns = \[n_regionkey\]\]/);
    const distributed = (await h.rows('EXPLAIN SELECT 1'))[0][0] as string;
    expect(distributed).to.match(/^Fragment 0 \[SINGLE\]/);
    const analyzed = (await h.rows('EXPLAIN ANALYZE SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1'))[0][0] as string;
    expect(analyzed).to.match(/Query processed 5 rows/);
    // Each node: what its operator (named after our function) received and made, and its own times.
    const figures = /Output: (\d+) rows, Input: (\d+) rows; CPU: [\d.]+ms, Wall: [\d.]+ms, Blocked: [\d.]+ms; (\w+)/g;
    const nodes = [...analyzed.matchAll(figures)].map((m) => [Number(m[1]), Number(m[2]), m[3]]);
    expect(nodes).to.deep.include.members([
      [25, 25, tableScan.name],
      [5, 25, filterAndProject.name],
    ]);
    expect(await h.rows('EXPLAIN (TYPE VALIDATE) SELECT 1')).to.deep.equal([[true]]);
  });

  it('describes prepared statements', async () => {
    await h.run('PREPARE q FROM SELECT id, name FROM memory.shop.items WHERE price > ?');
    const output = await h.rows('DESCRIBE OUTPUT q');
    expect(output.map((r) => [r[0], r[4]])).to.deep.equal([
      ['id', 'bigint'],
      ['name', 'varchar(20)'],
    ]);
    expect((await h.rows('DESCRIBE INPUT q')).map((r) => r[0])).to.deep.equal([0n]);
    await h.run('DEALLOCATE PREPARE q');
    expect((await h.failure('EXECUTE q')).message).to.equal('line 1:9: Prepared statement not found: q');
  });

  it('enforces NOT NULL and column types on insert', async () => {
    expect((await h.failure("INSERT INTO memory.shop.items VALUES (NULL, 'x', 1.00)")).errorName).to.equal('CONSTRAINT_VIOLATION');
    const mismatch = await h.failure("INSERT INTO memory.shop.items VALUES ('one', 'x', 1.00)");
    expect(mismatch.errorName).to.equal('TYPE_MISMATCH');
    expect(mismatch.message).to.match(
      /Insert query has mismatched column types: Table: \[bigint, varchar\(20\), decimal\(8,2\)\], Query: \[varchar\(3\)/,
    );
    expect(await h.rows("INSERT INTO memory.shop.items (id, name) VALUES (1, 'a'), (2, 'b')")).to.deep.equal([[2n]]);
    expect(await h.rows('SELECT id, price FROM memory.shop.items ORDER BY id')).to.deep.equal([
      [1n, null],
      [2n, null],
    ]);
  });

  it('stores a value of any type that meets the column type, failing only one that does not fit (store assignment)', async () => {
    // Trino's INSERT checks that the types are compatible, not that one coerces to the other: a
    // bigint goes into an integer column, a timestamp into a date column, by a cast that may fail.
    await h.run('CREATE TABLE memory.shop.assigned (i integer, d decimal(3,1), day date)');
    expect(await h.rows("INSERT INTO memory.shop.assigned VALUES (BIGINT '7', 12.34, TIMESTAMP '2020-01-02 10:00:00')")).to.deep.equal([
      [1n],
    ]);
    expect(await h.rows('SELECT i, CAST(d AS varchar), CAST(day AS varchar) FROM memory.shop.assigned')).to.deep.equal([
      [7, '12.3', '2020-01-02'],
    ]);
    const overflow = await h.failure("INSERT INTO memory.shop.assigned (i) VALUES (BIGINT '3000000000')");
    expect([overflow.errorName, overflow.message]).to.deep.equal(['NUMERIC_VALUE_OUT_OF_RANGE', 'Out of range for integer: 3000000000']);
    expect((await h.failure('INSERT INTO memory.shop.assigned (d) VALUES (123.4)')).errorName).to.equal('INVALID_CAST_ARGUMENT');
    expect((await h.failure("INSERT INTO memory.shop.assigned (i) VALUES ('1')")).errorName).to.equal('TYPE_MISMATCH');
    expect(await h.rows('SELECT count(*) FROM memory.shop.assigned')).to.deep.equal([[1n]]);
  });

  it('refuses to drop a non-empty schema, and drops it with CASCADE', async () => {
    await h.run('CREATE SCHEMA memory.tmp', 'CREATE TABLE memory.tmp.x (a integer)');
    expect((await h.failure('DROP SCHEMA memory.tmp')).errorName).to.equal('SCHEMA_NOT_EMPTY');
    await h.run('DROP SCHEMA memory.tmp CASCADE');
    expect(await h.rows("SHOW SCHEMAS FROM memory LIKE 'tmp'")).to.deep.equal([]);
    await h.run('DROP SCHEMA IF EXISTS memory.tmp');
  });

  it('reports runtime errors of expressions with Trino names', async () => {
    expect((await h.failure('SELECT 1 / 0')).errorName).to.equal('DIVISION_BY_ZERO');
    expect((await h.failure('SELECT 2147483647 + 1')).errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
    expect((await h.failure("SELECT CAST('abc' AS integer)")).errorName).to.equal('INVALID_CAST_ARGUMENT');
    expect(await h.rows("SELECT TRY_CAST('abc' AS integer), try(1 / 0)")).to.deep.equal([[null, null]]);
    expect((await h.failure('SELECT nosuch(1)')).message).to.equal("line 1:8: Function 'nosuch' not registered");
  });
});
