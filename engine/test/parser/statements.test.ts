// Every statement kind: its AST and its round trip through the formatter.

import { expect } from 'chai';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { expectStatementRoundTrip, stripLocations } from './helpers.js';

function ast(sql: string): unknown {
  return stripLocations(parseStatement(sql));
}

const id = (value: string, quoted = false) => ({ kind: 'Identifier', value, quoted });
const name = (...parts: string[]) => ({ kind: 'QualifiedName', parts: parts.map((p) => id(p)) });

describe('parser: statements', () => {
  it('reads EXPLAIN with ANALYZE, VERBOSE and options', () => {
    expect(ast('EXPLAIN SELECT 1')).to.deep.include({ kind: 'Explain', analyze: false, verbose: false });
    expect(ast('EXPLAIN ANALYZE VERBOSE SELECT 1')).to.deep.include({ analyze: true, verbose: true });
    expect(ast('EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT 1')).to.deep.include({ type: 'DISTRIBUTED', format: 'JSON' });
    expect(ast('EXPLAIN (FORMAT GRAPHVIZ) SELECT 1')).to.deep.include({ format: 'GRAPHVIZ' });
    expect(ast('EXPLAIN (TYPE IO) SELECT 1')).to.deep.include({ type: 'IO' });
    expect((ast('EXPLAIN (SELECT 1)') as { statement: { kind: string } }).statement.kind).to.equal('QueryStatement');
  });

  it('reads the SHOW statements with FROM / IN and LIKE ... ESCAPE', () => {
    expect(ast('SHOW CATALOGS')).to.deep.equal({ kind: 'ShowCatalogs' });
    expect(ast("SHOW CATALOGS LIKE 't%' ESCAPE '\\'")).to.deep.equal({ kind: 'ShowCatalogs', like: 't%', escape: '\\' });
    expect(ast("SHOW SCHEMAS FROM tpch LIKE 's%'")).to.deep.equal({ kind: 'ShowSchemas', catalog: id('tpch'), like: 's%' });
    expect(ast('SHOW SCHEMAS IN memory')).to.deep.equal({ kind: 'ShowSchemas', catalog: id('memory') });
    expect(ast('SHOW TABLES')).to.deep.equal({ kind: 'ShowTables' });
    expect(ast("SHOW TABLES FROM tpch.tiny LIKE 'n%'")).to.deep.equal({ kind: 'ShowTables', schema: name('tpch', 'tiny'), like: 'n%' });
    expect(ast('SHOW COLUMNS FROM nation')).to.deep.equal({ kind: 'ShowColumns', table: name('nation') });
    expect(ast('SHOW COLUMNS IN tpch.tiny.nation')).to.deep.equal({ kind: 'ShowColumns', table: name('tpch', 'tiny', 'nation') });
    expect(ast("SHOW FUNCTIONS LIKE 'abs'")).to.deep.equal({ kind: 'ShowFunctions', like: 'abs' });
    expect(ast('SHOW SESSION')).to.deep.equal({ kind: 'ShowSession' });
    expect(ast('SHOW CREATE TABLE a.b')).to.deep.equal({ kind: 'ShowCreateTable', table: name('a', 'b') });
  });

  it('reads DESCRIBE / DESC as SHOW COLUMNS and DESCRIBE INPUT / OUTPUT', () => {
    expect(ast('DESCRIBE nation')).to.deep.equal({ kind: 'ShowColumns', table: name('nation') });
    expect(ast('DESC tpch.tiny.nation')).to.deep.equal({ kind: 'ShowColumns', table: name('tpch', 'tiny', 'nation') });
    expect(ast('DESCRIBE INPUT q1')).to.deep.equal({ kind: 'DescribeInput', name: id('q1') });
    expect(ast('DESCRIBE OUTPUT q1')).to.deep.equal({ kind: 'DescribeOutput', name: id('q1') });
    expect(ast('DESCRIBE input')).to.deep.equal({ kind: 'ShowColumns', table: name('input') });
  });

  it('reads USE, SET SESSION and RESET SESSION', () => {
    expect(ast('USE tiny')).to.deep.equal({ kind: 'Use', schema: id('tiny') });
    expect(ast('USE tpch.tiny')).to.deep.equal({ kind: 'Use', catalog: id('tpch'), schema: id('tiny') });
    expect(ast("SET SESSION query_max_memory = '1GB'")).to.deep.equal({
      kind: 'SetSession',
      name: name('query_max_memory'),
      value: { kind: 'StringLiteral', value: '1GB' },
    });
    expect(ast('SET SESSION tpch.splits = 4')).to.deep.include({ name: name('tpch', 'splits') });
    expect(ast('RESET SESSION tpch.splits')).to.deep.equal({ kind: 'ResetSession', name: name('tpch', 'splits') });
  });

  it('reads PREPARE with the exact statement text, EXECUTE ... USING and DEALLOCATE PREPARE', () => {
    const prepare = parseStatement('PREPARE my_q FROM\n  SELECT * FROM t WHERE a = ?  -- c\n;');
    if (prepare.kind !== 'Prepare') throw new Error('not a PREPARE');
    expect(prepare.name.value).to.equal('my_q');
    expect(prepare.sql).to.equal('SELECT * FROM t WHERE a = ?');
    expect(prepare.statement.kind).to.equal('QueryStatement');
    expect(ast("EXECUTE my_q USING 1, 'a'")).to.deep.equal({
      kind: 'Execute',
      name: id('my_q'),
      parameters: [
        { kind: 'LongLiteral', value: 1n, text: '1' },
        { kind: 'StringLiteral', value: 'a' },
      ],
    });
    expect(ast('EXECUTE my_q')).to.deep.equal({ kind: 'Execute', name: id('my_q'), parameters: [] });
    expect(ast('DEALLOCATE PREPARE my_q')).to.deep.equal({ kind: 'Deallocate', name: id('my_q') });
  });

  it('reads CREATE SCHEMA and DROP SCHEMA', () => {
    expect(ast("CREATE SCHEMA IF NOT EXISTS memory.s WITH (location = 'x')")).to.deep.equal({
      kind: 'CreateSchema',
      name: name('memory', 's'),
      notExists: true,
      properties: [{ kind: 'Property', name: id('location'), value: { kind: 'StringLiteral', value: 'x' } }],
    });
    expect(ast('DROP SCHEMA IF EXISTS s CASCADE')).to.deep.equal({ kind: 'DropSchema', name: name('s'), exists: true, cascade: true });
    expect(ast('DROP SCHEMA s RESTRICT')).to.deep.equal({ kind: 'DropSchema', name: name('s'), exists: false, cascade: false });
  });

  it('reads CREATE TABLE with column types, NOT NULL, comments and properties', () => {
    expect(
      ast(
        "CREATE TABLE IF NOT EXISTS t (id bigint NOT NULL COMMENT 'key', name varchar(25), price decimal(12,2)) COMMENT 'tbl' WITH (format = 'ORC')",
      ),
    ).to.deep.equal({
      kind: 'CreateTable',
      name: name('t'),
      notExists: true,
      columns: [
        {
          kind: 'ColumnDefinition',
          name: id('id'),
          type: { kind: 'TypeSpec', name: 'bigint', parameters: [] },
          nullable: false,
          comment: 'key',
        },
        { kind: 'ColumnDefinition', name: id('name'), type: { kind: 'TypeSpec', name: 'varchar', parameters: [25] }, nullable: true },
        { kind: 'ColumnDefinition', name: id('price'), type: { kind: 'TypeSpec', name: 'decimal', parameters: [12, 2] }, nullable: true },
      ],
      properties: [{ kind: 'Property', name: id('format'), value: { kind: 'StringLiteral', value: 'ORC' } }],
      comment: 'tbl',
    });
  });

  it('reads CREATE TABLE AS with column aliases and WITH [NO] DATA', () => {
    const ctas = ast("CREATE TABLE t (a, b) COMMENT 'c' WITH (x = 1) AS SELECT 1, 2 WITH NO DATA") as Record<string, unknown>;
    expect(ctas).to.deep.include({ kind: 'CreateTableAsSelect', notExists: false, withData: false, comment: 'c' });
    expect(ctas.columnAliases).to.deep.equal([id('a'), id('b')]);
    expect(ast('CREATE TABLE t AS SELECT 1 WITH DATA')).to.deep.include({ withData: true });
    expect(ast('CREATE TABLE IF NOT EXISTS t AS (SELECT 1)')).to.deep.include({ notExists: true, withData: true });
  });

  it('reads INSERT, DELETE and DROP TABLE', () => {
    const insert = ast("INSERT INTO t1(e,c,b) VALUES(103,102,100), (1, 2, 'x')") as {
      columns: unknown[];
      query: { body: { kind: string; rows: unknown[] } };
    };
    expect(insert.columns).to.deep.equal([id('e'), id('c'), id('b')]);
    expect(insert.query.body.kind).to.equal('Values');
    expect(insert.query.body.rows).to.have.length(2);
    expect(ast('INSERT INTO s.t SELECT * FROM u')).to.deep.include({ kind: 'Insert', target: name('s', 't') });
    expect((ast('INSERT INTO t (SELECT 1)') as { columns?: unknown }).columns).to.equal(undefined);
    expect(ast('DELETE FROM t')).to.deep.equal({ kind: 'Delete', table: name('t') });
    expect(ast('DELETE FROM t WHERE a = 1')).to.deep.include({ kind: 'Delete' });
    expect(ast('DROP TABLE IF EXISTS a.b')).to.deep.equal({ kind: 'DropTable', name: name('a', 'b'), exists: true });
  });

  it('reads CREATE INDEX and PRIMARY KEY (sqllogictest compatibility only)', () => {
    expect(ast('CREATE UNIQUE INDEX i ON t (a, b DESC)')).to.deep.equal({
      kind: 'CreateIndex',
      name: name('i'),
      table: name('t'),
      columns: [id('a'), id('b')],
      unique: true,
      notExists: false,
    });
    const table = ast('CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER)') as { columns: { constraint?: string }[] };
    expect(table.columns.map((c) => c.constraint)).to.deep.equal(['PRIMARY KEY', undefined]);
  });

  it('accepts one trailing semicolon and numbers parameters in textual order', () => {
    expect(ast('SELECT 1;')).to.deep.equal(ast('SELECT 1'));
    const text = JSON.stringify(ast('SELECT ?, (SELECT ? FROM t WHERE x = ?) FROM t LIMIT ?'), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect([...text.matchAll(/"index":(\d+)/g)].map((m) => Number(m[1]))).to.deep.equal([0, 1, 2, 3]);
  });

  it('gives every node the location of its first token', () => {
    const s = parseStatement('SELECT a,\n  b + 1 AS c\nFROM t x');
    if (s.kind !== 'QueryStatement' || s.query.body.kind !== 'QuerySpecification') throw new Error('unexpected');
    const spec = s.query.body;
    expect(s.location).to.deep.equal({ line: 1, column: 1 });
    const second = spec.select.items[1];
    expect(second.location).to.deep.equal({ line: 2, column: 3 });
    if (second.kind !== 'SelectExpression' || second.expression.kind !== 'ArithmeticBinary') throw new Error('unexpected');
    expect(second.expression.right.location).to.deep.equal({ line: 2, column: 7 });
    expect(second.alias?.location).to.deep.equal({ line: 2, column: 12 });
    expect(spec.from?.location).to.deep.equal({ line: 3, column: 6 });
  });

  it('round-trips every statement kind', () => {
    const statements = [
      'EXPLAIN ANALYZE VERBOSE (TYPE LOGICAL, FORMAT TEXT) SELECT 1',
      'EXPLAIN (TYPE VALIDATE) SELECT * FROM t',
      "SHOW CATALOGS LIKE 'a%' ESCAPE '#'",
      "SHOW SCHEMAS FROM tpch LIKE 't%'",
      'SHOW TABLES FROM tpch.tiny',
      "SHOW COLUMNS FROM t LIKE 'a%'",
      'SHOW FUNCTIONS',
      "SHOW SESSION LIKE 'q%'",
      'SHOW CREATE TABLE memory.default.t',
      'DESCRIBE INPUT q',
      'DESCRIBE OUTPUT q',
      'DESC t',
      'USE tpch.tiny',
      'USE "Tiny"',
      "SET SESSION a.b = 'x' || 'y'",
      'RESET SESSION a',
      'PREPARE q FROM SELECT * FROM t WHERE a = ? AND b = ?',
      "EXECUTE q USING 1, 'two', DATE '2020-01-01'",
      'DEALLOCATE PREPARE q',
      "CREATE SCHEMA IF NOT EXISTS memory.s WITH (a = 1, b = 'x')",
      'DROP SCHEMA IF EXISTS s CASCADE',
      "CREATE TABLE IF NOT EXISTS t (a bigint NOT NULL COMMENT 'k', b varchar(10), c decimal(5,2), d timestamp(3), e char(2), f double, g time(3) with time zone) COMMENT 'x' WITH (p = 1)",
      "CREATE TABLE t (a, b) COMMENT 'c' WITH (x = 1) AS SELECT 1, 2 WITH NO DATA",
      'CREATE TABLE t AS (SELECT 1) UNION SELECT 2',
      'INSERT INTO t (a, b) VALUES (1, 2), (3, 4)',
      'INSERT INTO t SELECT * FROM u',
      'DELETE FROM t WHERE a IN (1, 2)',
      'DROP TABLE IF EXISTS t',
      'CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, b)',
      'CREATE TABLE t (a integer PRIMARY KEY, b integer UNIQUE)',
    ];
    for (const sql of statements) expectStatementRoundTrip(sql);
  });
});
