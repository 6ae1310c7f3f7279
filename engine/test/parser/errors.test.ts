// Syntax errors as Trino words them ("line L:C: mismatched input 'x'. Expecting: ..."), deep nesting,
// and inputs large enough that anything non-linear would show.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import type { Expression } from '../../src/sql/parser/ast.js';
import { parseExpression, parseStatement } from '../../src/sql/parser/parser.js';
import { syntaxError } from './helpers.js';

describe('parser: syntax errors', () => {
  it('reports <EOF> where an expression is missing', () => {
    const e = syntaxError('SELECT 1 FROM t WHERE');
    expect(e.errorName).to.equal('SYNTAX_ERROR');
    expect(e.rawMessage).to.equal("mismatched input '<EOF>'. Expecting: <expression>");
    expect(e.location).to.deep.equal({ line: 1, column: 22 });
    expect(e.message).to.equal("line 1:22: mismatched input '<EOF>'. Expecting: <expression>");
  });

  it('reports a keyword where a select item is missing', () => {
    expect(syntaxError('SELECT a, FROM t').message).to.equal("line 1:11: mismatched input 'FROM'. Expecting: '*', <expression>");
  });

  it('lists the clauses that could follow, sorted, with <EOF> last', () => {
    expect(syntaxError('SELECT * form t').message).to.equal(
      "line 1:10: mismatched input 'form'. Expecting: ',', 'EXCEPT', 'FETCH', 'FROM', 'GROUP', 'HAVING', 'INTERSECT', 'LIMIT', 'OFFSET', 'ORDER', 'UNION', 'WHERE', 'WINDOW', <EOF>",
    );
    // An identifier after an expression is an alias, so the error moves to the token after it.
    expect(syntaxError('SELECT a form t').location).to.deep.equal({ line: 1, column: 15 });
  });

  it('points at the right line and column in multi-line text', () => {
    const e = syntaxError('SELECT a\nFROM t\nWHERE a = = 1');
    expect(e.message).to.equal("line 3:11: mismatched input '='. Expecting: <expression>");
    expect(syntaxError('SELECT a\n  FROM t GROUP a').message).to.equal("line 2:16: mismatched input 'a'. Expecting: 'BY'");
  });

  it('names the statements that could start the text', () => {
    expect(syntaxError('SELCT 1').message).to.match(
      /^line 1:1: mismatched input 'SELCT'\. Expecting: '\(', 'ALTER', .*'CREATE', .*'SELECT', .*'UPDATE', .*'WITH'$/,
    );
    expect(syntaxError('').message).to.match(/^line 1:1: mismatched input '<EOF>'\. Expecting: /);
  });

  it('rejects reserved words as names, text after the statement, and a second semicolon', () => {
    expect(syntaxError('SELECT a FROM order').message).to.match(
      /^line 1:15: mismatched input 'order'\. Expecting: '\(', 'JSON_TABLE', 'TABLE', 'UNNEST', <identifier>$/,
    );
    expect(syntaxError('SELECT 1 2').message).to.match(/^line 1:10: mismatched input '2'/);
    expect(syntaxError('SELECT 1;;').message).to.equal("line 1:10: mismatched input ';'. Expecting: <EOF>");
    expect(syntaxError('SELECT f(a,)').message).to.equal("line 1:12: mismatched input ')'. Expecting: <expression>");
  });

  it('reports lexer errors with their position', () => {
    expect(syntaxError('SELECT #').message).to.equal("line 1:8: token recognition error at: '#'");
    expect(syntaxError("SELECT 'abc").message).to.equal("line 1:8: unterminated string literal at: ''abc'");
  });

  it('parses what the engine does not run (the statement layer refuses it, see analyzer/unsupported-features.test.ts)', () => {
    const sqls = [
      'SELECT CAST(x AS array(bigint))',
      'SELECT * FROM UNNEST(a)',
      'SELECT 1 FETCH FIRST 1 ROWS WITH TIES',
      "SELECT a AT TIME ZONE 'UTC'",
      'SELECT a[1]',
      'SELECT ARRAY[1, 2]',
      'SELECT transform(a, x -> x + 1)',
    ];
    for (const sql of sqls) expect(parseStatement(sql).kind, sql).to.equal('QueryStatement');
  });
});

describe('parser: deep nesting and large input', () => {
  const TOO_DEEP =
    'Statement is nested too deeply: more than 1000 levels of parentheses, function calls, CASE, operators, NOT, signs or subqueries; at most 1000 are supported';

  /** Each construct as a statement nesting it `n` levels, and the column of the token opening level n. */
  const CONSTRUCTS: Record<string, { sql: (n: number) => string; opener: (n: number) => number }> = {
    parentheses: { sql: (n) => `SELECT ${'('.repeat(n)}1${')'.repeat(n)}`, opener: (n) => 7 + n },
    'function calls': { sql: (n) => `SELECT ${'abs('.repeat(n)}1${')'.repeat(n)}`, opener: (n) => 8 + 4 * (n - 1) },
    CASE: { sql: (n) => `SELECT ${'CASE WHEN true THEN '.repeat(n)}1${' END'.repeat(n)}`, opener: (n) => 8 + 20 * (n - 1) },
    NOT: { sql: (n) => `SELECT ${'NOT '.repeat(n)}true`, opener: (n) => 8 + 4 * (n - 1) },
    signs: { sql: (n) => `SELECT ${'- '.repeat(n)}1`, opener: (n) => 8 + 2 * (n - 1) },
    'chained +': { sql: (n) => `SELECT 1${' + 1'.repeat(n)}`, opener: (n) => 10 + 4 * (n - 1) },
    'chained ||': { sql: (n) => `SELECT 'a'${" || 'a'".repeat(n)}`, opener: (n) => 12 + 7 * (n - 1) },
    CAST: { sql: (n) => `SELECT ${'CAST('.repeat(n)}1${' AS bigint)'.repeat(n)}`, opener: (n) => 8 + 5 * (n - 1) },
    'IN lists': { sql: (n) => `SELECT ${'1 IN ('.repeat(n)}1${')'.repeat(n)}`, opener: (n) => 13 + 6 * (n - 1) },
    'ARRAY constructors': { sql: (n) => `SELECT ${'ARRAY['.repeat(n)}1${']'.repeat(n)}`, opener: (n) => 8 + 6 * (n - 1) },
    lambdas: { sql: (n) => `SELECT ${'x -> '.repeat(n)}1`, opener: (n) => 8 + 5 * (n - 1) },
    subscripts: { sql: (n) => `SELECT a${'[1]'.repeat(n)}`, opener: (n) => 9 + 3 * (n - 1) },
    EXTRACT: { sql: (n) => `SELECT ${'extract(year FROM '.repeat(n)}x${')'.repeat(n)}`, opener: (n) => 8 + 18 * (n - 1) },
    'array types': { sql: (n) => `SELECT CAST(x AS ${'array('.repeat(n - 1)}int${')'.repeat(n - 1)})`, opener: (n) => 18 + 6 * (n - 1) },
  };

  it('parses 1,000 levels of every nesting construct', () => {
    for (const [name, { sql }] of Object.entries(CONSTRUCTS)) expect(parseStatement(sql(1000)).kind, name).to.equal('QueryStatement');
  });

  it('refuses 1,001 levels naming the limit, at the token that opens level 1,001', () => {
    for (const [name, { sql, opener }] of Object.entries(CONSTRUCTS)) {
      const e = syntaxError(sql(1001));
      expect(e.errorName, name).to.equal('SYNTAX_ERROR');
      expect(e.message, name).to.equal(`line 1:${opener(1001)}: ${TOO_DEEP}`);
    }
  });

  it('refuses 100,000 levels of every construct with the same error', () => {
    for (const [name, { sql, opener }] of Object.entries(CONSTRUCTS))
      expect(syntaxError(sql(100_000)).message, name).to.equal(`line 1:${opener(1001)}: ${TOO_DEEP}`);
    const statements = [
      `${'EXPLAIN '.repeat(10_000)}SELECT 1`,
      `SELECT f(a)${'.m(1)'.repeat(10_000)}`,
      `SELECT * FROM ${'('.repeat(10_000)}t${')'.repeat(10_000)}`,
      `SELECT * FROM t MATCH_RECOGNIZE (PATTERN (${'('.repeat(10_000)}a${')'.repeat(10_000)}) DEFINE a AS true)`,
      `CREATE FUNCTION f() RETURNS int ${'BEGIN '.repeat(10_000)}RETURN 1;${' END;'.repeat(9_999)} END`,
      `SELECT ${'substring('.repeat(10_000)}x FROM 1${')'.repeat(10_000)}`,
      `SELECT ${'trim(BOTH FROM '.repeat(10_000)}x${')'.repeat(10_000)}`,
    ];
    for (const sql of statements) expect(syntaxError(sql).rawMessage, sql.slice(0, 30)).to.equal(TOO_DEEP);
  });

  it('counts the levels a chain builds on a nested operand: ((1 + ... + 1) + 1 + ...) is as deep as its tree', () => {
    // 1 parenthesis + 600 operators inside, then 399 outside: 1,000 levels; one more operator is 1,001.
    const inner = `(1${' + 1'.repeat(600)})`;
    expect(parseExpression(`${inner}${' + 1'.repeat(399)}`).kind).to.equal('ArithmeticBinary');
    const e = syntaxError(`SELECT ${inner}${' + 1'.repeat(400)}`);
    expect(e.message).to.equal(`line 1:${7 + inner.length + 4 * 399 + 2}: ${TOO_DEEP}`);
    // Side by side, operands do not add up: f(500 levels) + g(600 levels) is 601 levels deep.
    expect(parseExpression(`${'abs('.repeat(500)}1${')'.repeat(500)} + ${'abs('.repeat(600)}1${')'.repeat(600)}`).kind).to.equal(
      'ArithmeticBinary',
    );
  });

  it('counts an AND / OR chain as deep as its tree: one level an operator up to 64 terms, log2 of the terms beyond', () => {
    // Each level: parentheses around a left-deep chain of 64 terms whose first term nests further: 64 levels.
    const nest = (n: number) => {
      let sql = 'x';
      for (let i = 0; i < n; i++) sql = `(${sql}${' AND x'.repeat(63)})`;
      return sql;
    };
    expect(parseExpression(nest(15)).kind).to.equal('LogicalBinary');
    expect(syntaxError(`SELECT ${nest(16)}`).rawMessage).to.equal(TOO_DEEP);
    // 10,000 terms make a balanced tree 14 levels deep.
    expect(parseExpression(`${'('.repeat(986)}x${' OR x'.repeat(9_999)}${')'.repeat(986)}`).kind).to.equal('LogicalBinary');
    expect(syntaxError(`SELECT ${'('.repeat(987)}x${' OR x'.repeat(9_999)}${')'.repeat(987)}`).rawMessage).to.equal(TOO_DEEP);
  });

  it('counts EXPLAIN and PREPARE apart from the levels of their statement', () => {
    expect(parseStatement(`EXPLAIN ${CONSTRUCTS.parentheses.sql(1000)}`).kind).to.equal('Explain');
    expect(parseStatement(`PREPARE p FROM ${CONSTRUCTS.parentheses.sql(1000)}`).kind).to.equal('Prepare');
  });

  it('nests queries at most 100 deep, each counting one level', () => {
    const queries: Record<string, (n: number) => string> = {
      'scalar subqueries': (n) => `SELECT ${'(SELECT '.repeat(n)}1${')'.repeat(n)}`,
      'derived tables': (n) => `SELECT * FROM ${'(SELECT * FROM '.repeat(n)}t${') x'.repeat(n)}`,
      EXISTS: (n) => `SELECT ${'EXISTS (SELECT '.repeat(n)}1${')'.repeat(n)}`,
      'WITH queries': (n) => `${'WITH a AS ('.repeat(n)}SELECT 1${') SELECT 1'.repeat(n)}`,
      'query terms': (n) => `${'('.repeat(n)}SELECT 1${')'.repeat(n)}`,
    };
    for (const [name, sql] of Object.entries(queries)) {
      expect(parseStatement(sql(100)).kind, name).to.equal('QueryStatement');
      const e = syntaxError(sql(101));
      expect(e.rawMessage, name).to.equal('Query is nested too deeply: more than 100 levels of subqueries; at most 100 are supported');
      expect(syntaxError(sql(10_000)).message, name).to.equal(e.message);
    }
    // A subquery is one level: 100 subqueries in 900 parentheses make 1,000.
    expect(parseStatement(`SELECT ${'('.repeat(900)}${queries['scalar subqueries'](100).slice(7)}${')'.repeat(900)}`).kind).to.equal(
      'QueryStatement',
    );
    expect(syntaxError(`SELECT ${'('.repeat(901)}${queries['scalar subqueries'](100).slice(7)}${')'.repeat(901)}`).rawMessage).to.equal(
      TOO_DEEP,
    );
  });

  it('parses an IN list of 100,000 items', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => String(i)).join(', ');
    const s = parseStatement(`SELECT * FROM t WHERE x IN (${items})`);
    if (s.kind !== 'QueryStatement' || s.query.body.kind !== 'QuerySpecification') throw new Error('unexpected');
    const where = s.query.body.where;
    expect(where?.kind === 'InList' && where.list.length).to.equal(100_000);
  });

  it('parses a 10 MB statement and 10,000 ORs (as a shallow tree), and refuses 100,000 ORs naming the limit', () => {
    const items = Array.from({ length: 400_000 }, (_, i) => `a${i} + 'string ${i}'`);
    const sql = `SELECT ${items.join(',\n')} FROM t`;
    expect(sql.length).to.be.greaterThan(10_000_000);
    const s = parseStatement(sql);
    if (s.kind !== 'QueryStatement' || s.query.body.kind !== 'QuerySpecification') throw new Error('unexpected');
    expect(s.query.body.select.items).to.have.length(400_000);
    expect(s.query.body.select.items[399_999].location.line).to.equal(400_000);
    const ors = (n: number) => Array.from({ length: n }, (_, i) => `a = ${i}`).join(' OR ');
    const depth = (e: Expression): number => (e.kind === 'LogicalBinary' ? 1 + Math.max(depth(e.left), depth(e.right)) : 0);
    expect(depth(parseExpression(ors(10_000)))).to.equal(14);
    expect(() => parseExpression(ors(100_000))).to.throw(EngineError, 'line 1:7: OR chain has 100000 terms; at most 10000 are supported');
  });
});
