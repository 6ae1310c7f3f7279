// Views in the memory catalog (issue 19 §4): CREATE [OR REPLACE] VIEW, DROP VIEW, SHOW CREATE VIEW,
// views in SHOW TABLES, DESCRIBE and information_schema, queries of views (in the view's own
// catalog and schema), stale and recursive views, and Trino's errors. Results are checked against
// DuckDB running the same view over the same rows.

import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EngineHarness } from '../support/engine-harness.js';

describe('views in the memory catalog', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;

  beforeEach(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE TABLE orders (orderkey bigint, orderstatus varchar, totalprice double, orderdate date)',
      "INSERT INTO orders VALUES (1, 'O', 100.5, DATE '2024-01-01'), (2, 'F', 20, DATE '2024-01-01'), (3, 'O', 7.25, DATE '2024-01-02'), (4, 'P', NULL, DATE '2024-01-03')",
    );
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run('CREATE TABLE orders (orderkey bigint, orderstatus varchar, totalprice double, orderdate date)');
    await duck.run(
      "INSERT INTO orders VALUES (1, 'O', 100.5, DATE '2024-01-01'), (2, 'F', 20, DATE '2024-01-01'), (3, 'O', 7.25, DATE '2024-01-02'), (4, 'P', NULL, DATE '2024-01-03')",
    );
  });

  afterEach(() => duck.closeSync());

  /** The engine's and DuckDB's rows for the same SQL, sorted, as text. */
  async function sameAsDuckDb(sql: string): Promise<void> {
    const ours = (await h.rows(sql)).map((r) => JSON.stringify(r.map(String))).sort();
    const reader = await duck.runAndReadAll(sql);
    const theirs = reader
      .getRowsJS()
      .map((r) => JSON.stringify(r.map(String)))
      .sort();
    expect(ours, sql).to.deep.equal(theirs);
    expect(ours.length, sql).to.be.greaterThan(0);
  }

  async function failure(sql: string): Promise<{ errorName: string; message: string }> {
    try {
      await h.query(sql);
    } catch (e) {
      const error = e as { errorName: string; message: string };
      return { errorName: error.errorName, message: error.message };
    }
    throw new Error(`expected ${sql} to fail`);
  }

  it("runs the Trino docs' examples and answers as DuckDB does", async () => {
    const views = [
      'CREATE VIEW test AS SELECT orderkey, orderstatus, totalprice / 2 AS half FROM orders',
      "CREATE VIEW test_with_comment COMMENT 'A view to keep track of orders.' AS SELECT orderkey, orderstatus, totalprice FROM orders",
      'CREATE VIEW orders_by_date AS SELECT orderdate, sum(totalprice) AS price FROM orders GROUP BY orderdate',
    ];
    for (const sql of views) {
      expect((await h.query(sql)).result.updateType).to.equal('CREATE VIEW');
      await duck.run(sql.replace(" COMMENT 'A view to keep track of orders.'", ''));
    }
    await sameAsDuckDb('SELECT * FROM test');
    await sameAsDuckDb("SELECT orderkey, totalprice FROM test_with_comment WHERE orderstatus = 'O'");
    await sameAsDuckDb('SELECT CAST(orderdate AS varchar), price FROM orders_by_date');
    await sameAsDuckDb('SELECT t.orderkey, d.price FROM test t JOIN orders_by_date d ON t.orderkey = 1');
    await h.run('CREATE OR REPLACE VIEW test AS SELECT orderkey, orderstatus, totalprice / 4 AS quarter FROM orders');
    await duck.run('CREATE OR REPLACE VIEW test AS SELECT orderkey, orderstatus, totalprice / 4 AS quarter FROM orders');
    await sameAsDuckDb('SELECT quarter, orderkey FROM test');
  });

  it('sees the rows of its tables as they are when queried, and views over views', async () => {
    await h.run(
      "CREATE VIEW open_orders AS SELECT * FROM orders WHERE orderstatus = 'O'",
      'CREATE VIEW open_total AS SELECT count(*) AS n, sum(totalprice) AS total FROM open_orders',
    );
    expect(await h.rows('SELECT n, total FROM open_total')).to.deep.equal([[2n, 107.75]]);
    await h.run("INSERT INTO orders VALUES (5, 'O', 2.25, DATE '2024-01-04')");
    expect(await h.rows('SELECT n, total FROM open_total')).to.deep.equal([[3n, 110]]);
  });

  it("resolves the view's names in the catalog and schema it was created in", async () => {
    await h.run(
      'CREATE SCHEMA s2',
      'CREATE TABLE s2.orders (x integer)',
      'INSERT INTO s2.orders VALUES (42)',
      'CREATE VIEW v AS SELECT orderkey FROM orders',
    );
    await h.run('USE s2');
    expect(await h.rows('SELECT count(*) FROM memory.default.v')).to.deep.equal([[4n]]);
    expect(await h.rows('SELECT x FROM orders')).to.deep.equal([[42]]);
  });

  it('is listed by SHOW TABLES and information_schema, and described by DESCRIBE and SHOW COLUMNS', async () => {
    await h.run("CREATE VIEW v COMMENT 'c' AS SELECT orderkey, CAST(orderstatus AS varchar(1)) AS status FROM orders");
    expect(await h.rows('SHOW TABLES')).to.deep.equal([['orders'], ['v']]);
    expect(await h.rows("SHOW TABLES LIKE 'v%'")).to.deep.equal([['v']]);
    expect(
      await h.rows("SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'default' ORDER BY 1"),
    ).to.deep.equal([
      ['orders', 'BASE TABLE'],
      ['v', 'VIEW'],
    ]);
    expect(await h.rows('SELECT table_schema, table_name, view_definition FROM information_schema.views')).to.deep.equal([
      ['default', 'v', 'SELECT orderkey, CAST(orderstatus AS varchar(1)) AS status FROM orders'],
    ]);
    expect(
      await h.rows("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'v' ORDER BY ordinal_position"),
    ).to.deep.equal([
      ['orderkey', 'bigint'],
      ['status', 'varchar(1)'],
    ]);
    expect(await h.rows('DESCRIBE v')).to.deep.equal([
      ['orderkey', 'bigint', '', ''],
      ['status', 'varchar(1)', '', ''],
    ]);
    expect(await h.rows('SHOW COLUMNS FROM v')).to.deep.equal(await h.rows('DESCRIBE v'));
  });

  it("shows CREATE VIEW in Trino's layout, with the comment and the security mode", async () => {
    await h.run(
      "CREATE VIEW test_with_comment COMMENT 'A view to keep track of orders.' AS SELECT orderkey, orderstatus, totalprice FROM orders",
    );
    await h.run('CREATE VIEW inv SECURITY INVOKER AS SELECT orderkey FROM orders WHERE totalprice > 10');
    expect(await h.rows('SHOW CREATE VIEW test_with_comment')).to.deep.equal([
      [
        "CREATE VIEW memory.default.test_with_comment COMMENT 'A view to keep track of orders.' SECURITY DEFINER AS\nSELECT orderkey, orderstatus, totalprice FROM orders",
      ],
    ]);
    const [[text]] = await h.rows('SHOW CREATE VIEW inv');
    expect(text).to.equal('CREATE VIEW memory.default.inv SECURITY INVOKER AS\nSELECT orderkey FROM orders WHERE totalprice > 10');
    // What SHOW CREATE VIEW prints creates the same view again.
    await h.run('DROP VIEW inv', String(text));
    expect(await h.rows('SELECT orderkey FROM inv ORDER BY 1')).to.deep.equal([[1n], [2n]]);
  });

  it('keeps SQL text that reads back as the same query, for many shapes of query', async () => {
    await h.run(
      'CREATE TABLE t ("my col" bigint, b varchar, d date)',
      "INSERT INTO t VALUES (1, 'it''s', DATE '2024-01-02'), (2, 'x', NULL), (3, 'i%', DATE '2024-02-03')",
    );
    const queries = [
      `SELECT "my col" AS "Weird Name", b || '''q''' AS s FROM t`,
      'WITH c AS (SELECT "my col" AS k FROM t) SELECT k FROM c UNION ALL SELECT 5',
      'SELECT b, row_number() OVER (PARTITION BY b ORDER BY d DESC NULLS FIRST) AS rn FROM t',
      'SELECT count(*) FILTER (WHERE d IS NULL) AS n, array_agg(b ORDER BY b) AS bs FROM t',
      `SELECT CASE WHEN "my col" > 1 THEN 'big' ELSE 'small' END AS size, d + INTERVAL '1' DAY AS next FROM t WHERE b LIKE 'i!%' ESCAPE '!' OR b IN (SELECT b FROM t WHERE d IS NULL)`,
      'SELECT x.k, y.b FROM (SELECT "my col" AS k FROM t) x LEFT JOIN t y ON x.k = y."my col" + 1 ORDER BY 1 LIMIT 5',
      "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s)",
      "SELECT TIMESTAMP '2024-01-01 10:00:00' AS ts, DECIMAL '1.50' AS dec, X'00ff' AS bin, -5 AS neg, 1e3 AS dbl",
    ];
    for (const [i, sql] of queries.entries()) {
      await h.run(`CREATE VIEW v${i} AS ${sql}`);
      const direct = await h.query(sql);
      const viaView = await h.query(`SELECT * FROM v${i}`);
      expect([viaView.types, viaView.rows], sql).to.deep.equal([direct.types, direct.rows]);
    }
  });

  it("renames views (a target without schema is in the view's schema), with Trino's errors", async () => {
    await h.run(
      'CREATE SCHEMA s2',
      'CREATE VIEW s2.v AS SELECT count(*) AS n FROM memory.default.orders',
      'CREATE TABLE s2.taken (x integer)',
      'CREATE VIEW s2.other AS SELECT 1 AS one',
    );
    expect((await h.query('ALTER VIEW s2.v RENAME TO w')).result.updateType).to.equal('RENAME VIEW');
    expect(await h.rows('SHOW TABLES FROM s2')).to.deep.equal([['other'], ['taken'], ['w']]);
    expect(await h.rows('SELECT n FROM s2.w')).to.deep.equal([[4n]]);
    await h.run('ALTER VIEW s2.w RENAME TO default.w2');
    expect(await h.rows('SELECT n FROM w2')).to.deep.equal([[4n]]);
    const cases: [string, string, string][] = [
      ['ALTER VIEW nosuch RENAME TO x', 'TABLE_NOT_FOUND', "line 1:1: View 'memory.default.nosuch' does not exist"],
      [
        'ALTER VIEW orders RENAME TO x',
        'TABLE_NOT_FOUND',
        "line 1:1: View 'memory.default.orders' does not exist, but a table with that name exists. Did you mean ALTER TABLE memory.default.orders RENAME TO ...?",
      ],
      ['ALTER VIEW w2 RENAME TO s2.other', 'GENERIC_USER_ERROR', "line 1:1: Target view 'memory.s2.other' already exists"],
      [
        'ALTER VIEW w2 RENAME TO s2.taken',
        'TABLE_ALREADY_EXISTS',
        "line 1:1: Target view 'memory.s2.taken' does not exist, but a table with that name exists.",
      ],
      ['ALTER VIEW w2 RENAME TO tpch.tiny.x', 'NOT_SUPPORTED', 'line 1:1: View rename across catalogs is not supported'],
      ['ALTER VIEW w2 RENAME TO nosuch.s.x', 'CATALOG_NOT_FOUND', "line 1:1: Target catalog 'nosuch' not found"],
    ];
    for (const [sql, name, message] of cases) expect(await failure(sql), sql).to.deep.equal({ errorName: name, message });
  });

  it('drops views, with IF EXISTS', async () => {
    await h.run('CREATE VIEW v AS SELECT 1 AS one');
    expect((await h.query('DROP VIEW v')).result.updateType).to.equal('DROP VIEW');
    expect(await h.rows('SHOW TABLES')).to.deep.equal([['orders']]);
    await h.run('DROP VIEW IF EXISTS v');
    await h.run('CREATE SCHEMA s', 'CREATE VIEW s.w AS SELECT 1 AS one');
    expect(await failure('DROP SCHEMA s')).to.deep.equal({ errorName: 'SCHEMA_NOT_EMPTY', message: "Cannot drop non-empty schema 's'" });
    await h.run('DROP SCHEMA s CASCADE', 'CREATE SCHEMA s');
    expect(await h.rows('SHOW TABLES FROM s')).to.deep.equal([]);
    expect(await failure('SELECT * FROM v')).to.deep.equal({
      errorName: 'TABLE_NOT_FOUND',
      message: "line 1:15: Table 'memory.default.v' does not exist",
    });
  });

  it('fails as Trino does: names taken, wrong kind of relation, missing views', async () => {
    await h.run('CREATE VIEW v AS SELECT orderkey FROM orders');
    const cases: [string, string, string][] = [
      ['CREATE VIEW v AS SELECT 1 AS x', 'TABLE_ALREADY_EXISTS', "line 1:1: View already exists: 'memory.default.v'"],
      ['CREATE VIEW orders AS SELECT 1 AS x', 'TABLE_ALREADY_EXISTS', "line 1:1: Table already exists: 'memory.default.orders'"],
      ['CREATE OR REPLACE VIEW orders AS SELECT 1 AS x', 'TABLE_ALREADY_EXISTS', "line 1:1: Table already exists: 'memory.default.orders'"],
      ['CREATE TABLE v (x integer)', 'ALREADY_EXISTS', "line 1:14: Table 'memory.default.v' already exists"],
      ['CREATE TABLE v AS SELECT 1 AS x', 'ALREADY_EXISTS', "line 1:14: Table 'memory.default.v' already exists"],
      [
        'DROP VIEW orders',
        'GENERIC_USER_ERROR',
        "line 1:1: View 'memory.default.orders' does not exist, but a table with that name exists. Did you mean DROP TABLE memory.default.orders?",
      ],
      [
        'DROP TABLE v',
        'GENERIC_USER_ERROR',
        "line 1:1: Table 'memory.default.v' does not exist, but a view with that name exists. Did you mean DROP VIEW memory.default.v?",
      ],
      [
        'DROP TABLE IF EXISTS v',
        'GENERIC_USER_ERROR',
        "line 1:1: Table 'memory.default.v' does not exist, but a view with that name exists. Did you mean DROP VIEW memory.default.v?",
      ],
      ['DROP VIEW nosuch', 'GENERIC_USER_ERROR', "line 1:1: View 'memory.default.nosuch' does not exist"],
      ['SHOW CREATE VIEW orders', 'NOT_SUPPORTED', "line 1:1: Relation 'memory.default.orders' is a table, not a view"],
      ['SHOW CREATE VIEW nosuch', 'TABLE_NOT_FOUND', "line 1:1: View 'memory.default.nosuch' does not exist"],
      ['SHOW CREATE TABLE v', 'NOT_SUPPORTED', "line 1:1: Relation 'memory.default.v' is a view, not a table"],
      ['CREATE VIEW w AS SELECT 1', 'MISSING_COLUMN_NAME', 'line 1:1: Column name not specified at position 1'],
      [
        'CREATE VIEW w AS SELECT orderkey, orderkey FROM orders',
        'DUPLICATE_COLUMN_NAME',
        "line 1:1: Column name 'orderkey' specified more than once",
      ],
      ['CREATE VIEW w AS SELECT nosuch FROM orders', 'COLUMN_NOT_FOUND', "line 1:25: Column 'nosuch' cannot be resolved"],
      [
        'CREATE VIEW w WITH (x = 1) AS SELECT 1 AS a',
        'INVALID_VIEW_PROPERTY',
        "line 1:21: Catalog 'memory' view property 'x' does not exist. Catalog 'memory' has no view properties",
      ],
      ['CREATE OR REPLACE VIEW v AS SELECT * FROM v', 'VIEW_IS_RECURSIVE', 'line 1:1: Statement would create a recursive view'],
      ['INSERT INTO v VALUES (1)', 'NOT_SUPPORTED', 'line 1:1: Inserting into views is not supported'],
      ['DELETE FROM v', 'NOT_SUPPORTED', 'line 1:1: Deleting from views is not supported'],
      ['UPDATE v SET orderkey = 1', 'NOT_SUPPORTED', 'line 1:1: Updating views is not supported'],
      ['TRUNCATE TABLE v', 'NOT_SUPPORTED', 'line 1:1: Cannot truncate a view'],
      ['CREATE VIEW information_schema.w AS SELECT 1 AS a', 'NOT_SUPPORTED', 'line 1:1: This connector does not support creating views'],
      ['CREATE VIEW tpch.tiny.w AS SELECT 1 AS a', 'NOT_SUPPORTED', 'line 1:1: This connector does not support creating views'],
    ];
    for (const [sql, name, message] of cases) expect(await failure(sql), sql).to.deep.equal({ errorName: name, message });
    await h.run('PREPARE p FROM CREATE VIEW w AS SELECT ? AS a');
    expect(await failure('EXECUTE p USING 1')).to.deep.equal({
      errorName: 'NOT_SUPPORTED',
      message: 'line 1:1: Parameters are not allowed in views',
    });
  });

  it('is stale when its columns no longer fit, and recursive when it reads itself', async () => {
    await h.run('CREATE TABLE t (a bigint, b varchar)', 'CREATE VIEW v AS SELECT * FROM t', 'CREATE VIEW w AS SELECT a FROM t');
    await h.run('DROP TABLE t', 'CREATE TABLE t (a bigint)');
    expect(await failure('SELECT * FROM v')).to.deep.equal({
      errorName: 'VIEW_IS_STALE',
      message:
        "line 1:15: View 'memory.default.v' is stale or in invalid state: stored view column count (2) does not match column count derived from the view query analysis (1)",
    });
    await h.run('DROP TABLE t', 'CREATE TABLE t (a varchar)');
    expect(await failure('SELECT * FROM w')).to.deep.equal({
      errorName: 'VIEW_IS_STALE',
      message:
        "line 1:15: View 'memory.default.w' is stale or in invalid state: column [a] of type varchar projected from query view at position 0 cannot be coerced to column [a] of type bigint stored in view definition",
    });
    // A type that coerces to the stored one keeps the view working, with the stored type.
    await h.run('DROP TABLE t', 'CREATE TABLE t (a integer)', 'INSERT INTO t VALUES 7');
    const query = await h.query('SELECT a FROM w');
    expect([query.types, query.rows]).to.deep.equal([['bigint'], [[7n]]]);
    await h.run('DROP TABLE t');
    expect(await failure('SELECT * FROM w')).to.deep.equal({
      errorName: 'INVALID_VIEW',
      message: "line 1:15: Failed analyzing stored view 'memory.default.w': line 1:15: Table 'memory.default.t' does not exist",
    });
    // Two views that read each other (made so by replacing one).
    await h.run('CREATE TABLE t (a bigint)', 'CREATE VIEW x AS SELECT a FROM w', 'CREATE OR REPLACE VIEW w AS SELECT a FROM x');
    expect((await failure('SELECT * FROM x')).errorName).to.equal('VIEW_IS_RECURSIVE');
  });
});
