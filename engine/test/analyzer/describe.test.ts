// DESCRIBE INPUT and DESCRIBE OUTPUT against Trino's documented answers (docs/src/main/sphinx/sql/
// describe-input.md and describe-output.md) and Trino's own tests of them
// (AbstractTestEngineOnlyQueries: testDescribeInput*, testDescribeOutput*), on tpch.tiny with
// TPC-H's column names (n_nationkey, ...), which are varchar(25) and bigint as in Trino's tpch.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('DESCRIBE INPUT', () => {
  const h = new EngineHarness();
  const describeInput = async (sql: string) => {
    await h.run(`PREPARE q FROM ${sql}`);
    return h.rows('DESCRIBE INPUT q');
  };

  it("types each parameter from its context, unknown where there is none (Trino's documented example)", async () => {
    await h.run('PREPARE my_select1 FROM SELECT ? FROM tpch.tiny.nation WHERE n_regionkey = ? AND n_name < ?');
    const input = await h.query('DESCRIBE INPUT my_select1');
    expect(input.columns.map((c) => c.name)).to.deep.equal(['Position', 'Type']);
    expect(input.types).to.deep.equal(['bigint', 'varchar']);
    expect(input.rows).to.deep.equal([
      [0n, 'unknown'],
      [1n, 'bigint'],
      [2n, 'varchar(25)'],
    ]);
  });

  it('types LIMIT, OFFSET and FETCH FIRST parameters as bigint', async () => {
    const expected = [
      [0n, 'unknown'],
      [1n, 'bigint'],
      [2n, 'varchar(25)'],
      [3n, 'bigint'],
    ];
    const base = 'SELECT ? FROM tpch.tiny.nation WHERE n_nationkey = ? and n_name < ?';
    expect(await describeInput(`${base} LIMIT ?`)).to.deep.equal(expected);
    expect(await describeInput(`${base} OFFSET ?`)).to.deep.equal(expected);
    expect(await describeInput(`${base} FETCH FIRST ? ROWS ONLY`)).to.deep.equal(expected);
  });

  it('takes the exact types of char, timestamp and decimal columns', async () => {
    const rows = await describeInput(
      "SELECT 1 FROM (VALUES (CHAR 'Pi', TIMESTAMP '2012-03-14 1:59:26.535', TIMESTAMP '2012-03-14 1:59:26.535897', DECIMAL '3.14')) AS t (t_char, t_timestamp, t_timestamp_2, t_decimal) " +
        'WHERE t_char = ? AND t_timestamp = ? AND t_timestamp_2 = ? AND t_decimal = ?',
    );
    expect(rows).to.deep.equal([
      [0n, 'char(2)'],
      [1n, 'timestamp(3)'],
      [2n, 'timestamp(6)'],
      [3n, 'decimal(3,2)'],
    ]);
  });

  it('types parameters inside WITH queries and next to aggregates', async () => {
    expect(
      await describeInput(
        "WITH t2 AS (SELECT * FROM (VALUES 1) AS t2(b) WHERE b = ?) SELECT * FROM (VALUES ('', 1)) AS t1(a, b) JOIN t2 ON t2.b = t1.b WHERE t1.a = ?",
      ),
    ).to.deep.equal([
      [0n, 'integer'],
      [1n, 'varchar(0)'],
    ]);
    expect(await describeInput('SELECT count(*) + ? FROM tpch.tiny.nation')).to.deep.equal([[0n, 'bigint']]);
  });

  it('types the parameters of DELETE and INSERT ... SELECT, and answers no rows for none', async () => {
    await h.run('CREATE TABLE memory.default.d (id bigint, name varchar(10))');
    expect(await describeInput('DELETE FROM memory.default.d WHERE id = ? OR name = ?')).to.deep.equal([
      [0n, 'bigint'],
      [1n, 'varchar(10)'],
    ]);
    expect(
      await describeInput('INSERT INTO memory.default.d SELECT n_nationkey, n_name FROM tpch.tiny.nation WHERE n_regionkey = ?'),
    ).to.deep.equal([[0n, 'bigint']]);
    expect(await describeInput('SELECT * FROM tpch.tiny.nation')).to.deep.equal([]);
  });

  it('fails for a statement that was not prepared', async () => {
    expect((await h.failure('DESCRIBE INPUT nope')).message).to.equal('line 1:16: Prepared statement not found: nope');
  });
});

describe('DESCRIBE OUTPUT', () => {
  const h = new EngineHarness();
  const describeOutput = async (sql: string) => {
    await h.run(`PREPARE q FROM ${sql}`);
    return h.rows('DESCRIBE OUTPUT q');
  };

  it("names the catalog, schema and table each column reads, its type size and whether it is aliased (Trino's documented example)", async () => {
    const result = await h.query('DESCRIBE OUTPUT (SELECT *, n_name AS "name" FROM tpch.tiny.nation)');
    expect(result.columns.map((c) => c.name)).to.deep.equal(['Column Name', 'Catalog', 'Schema', 'Table', 'Type', 'Type Size', 'Aliased']);
    expect(result.types).to.deep.equal(['varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'boolean']);
    expect(result.rows).to.deep.equal([
      ['n_nationkey', 'tpch', 'tiny', 'nation', 'bigint', 8n, false],
      ['n_name', 'tpch', 'tiny', 'nation', 'varchar(25)', 0n, false],
      ['n_regionkey', 'tpch', 'tiny', 'nation', 'bigint', 8n, false],
      ['n_comment', 'tpch', 'tiny', 'nation', 'varchar(152)', 0n, false],
      ['name', 'tpch', 'tiny', 'nation', 'varchar(25)', 0n, true],
    ]);
    expect(await describeOutput('SELECT * FROM tpch.tiny.nation')).to.deep.equal(result.rows.slice(0, 4));
  });

  it('leaves the origin of expressions empty and counts unnamed columns', async () => {
    expect(await describeOutput('SELECT count(*) as my_count, 1+2 FROM tpch.tiny.nation')).to.deep.equal([
      ['my_count', '', '', '', 'bigint', 8n, true],
      ['_col1', '', '', '', 'integer', 4n, false],
    ]);
    expect(await describeOutput('SELECT 1, n_name, n_regionkey AS my_alias FROM tpch.tiny.nation')).to.deep.equal([
      ['_col0', '', '', '', 'integer', 4n, false],
      ['n_name', 'tpch', 'tiny', 'nation', 'varchar(25)', 0n, false],
      ['my_alias', 'tpch', 'tiny', 'nation', 'bigint', 8n, true],
    ]);
    expect(await describeOutput('SELECT localtimestamp a, localtime c')).to.deep.equal([
      ['a', '', '', '', 'timestamp(3)', 8n, true],
      ['c', '', '', '', 'time(3)', 8n, true],
    ]);
  });

  it('follows a column through subqueries, joins and set operations', async () => {
    expect(
      await describeOutput('SELECT x FROM (SELECT r_name AS x FROM tpch.tiny.region) t JOIN tpch.tiny.nation n ON n.n_name = t.x'),
    ).to.deep.equal([['x', 'tpch', 'tiny', 'region', 'varchar(25)', 0n, false]]);
    expect(
      await describeOutput('SELECT n_nationkey AS k FROM tpch.tiny.nation UNION ALL SELECT r_regionkey FROM tpch.tiny.region'),
    ).to.deep.equal([['k', 'tpch', 'tiny', 'nation', 'bigint', 8n, true]]);
  });

  it('answers a rows column for writes, no columns for DDL, and refuses SHOW statements it cannot describe', async () => {
    expect(await describeOutput('CREATE TABLE memory.default.foo AS SELECT * FROM tpch.tiny.nation')).to.deep.equal([
      ['rows', '', '', '', 'bigint', 8n, false],
    ]);
    expect(await describeOutput('CREATE TABLE memory.default.foo (x bigint)')).to.deep.equal([]);
    expect(await describeOutput('DROP TABLE memory.default.foo')).to.deep.equal([]);
    expect(await describeOutput('CREATE SCHEMA memory.foo')).to.deep.equal([]);
    await h.run('PREPARE q FROM SHOW TABLES');
    const error = await h.failure('DESCRIBE OUTPUT q');
    expect([error.errorName, error.message]).to.deep.equal(['NOT_SUPPORTED', 'line 1:1: DESCRIBE OUTPUT of SHOW TABLES is not supported']);
  });
});
