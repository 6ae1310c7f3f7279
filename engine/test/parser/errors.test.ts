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
    expect(syntaxError('SELCT 1').message).to.match(/^line 1:1: mismatched input 'SELCT'\. Expecting: '\(', 'ALTER', .*'CREATE', .*'SELECT', .*'UPDATE', .*'WITH'$/);
    expect(syntaxError('').message).to.match(/^line 1:1: mismatched input '<EOF>'\. Expecting: /);
  });

  it('rejects reserved words as names, text after the statement, and a second semicolon', () => {
    expect(syntaxError('SELECT a FROM order').message).to.match(/^line 1:15: mismatched input 'order'\. Expecting: '\(', 'JSON_TABLE', 'TABLE', 'UNNEST', <identifier>$/);
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
  const TOO_LARGE = 'line 1:1: statement is too large (stack overflow while parsing)';

  it('parses 900 nested parentheses', () => {
    expect(parseExpression(`${'('.repeat(900)}1${')'.repeat(900)}`).kind).to.equal('LongLiteral');
  });

  it('rejects 10000 nested parentheses, subqueries, signs and NOTs with a clean syntax error', () => {
    const n = 10000;
    const inputs = [
      `SELECT ${'('.repeat(n)}1${')'.repeat(n)}`,
      `SELECT ${'(SELECT '.repeat(n)}1${')'.repeat(n)}`,
      `SELECT ${'- '.repeat(n)}1`,
      `SELECT ${'NOT '.repeat(n)}x`,
      `SELECT * FROM ${'('.repeat(n)}t${')'.repeat(n)}`,
      `SELECT ${'f('.repeat(n)}1${')'.repeat(n)}`,
      `SELECT ${'CASE WHEN '.repeat(n)}1${' THEN 1 END'.repeat(n)}`,
      `${'EXPLAIN '.repeat(n)}SELECT 1`,
      `SELECT ${'x -> '.repeat(n)}1`,
      `SELECT f(a)${'.m(1)'.repeat(n)}`,
      `SELECT * FROM t MATCH_RECOGNIZE (PATTERN (${'('.repeat(n)}a${')'.repeat(n)}) DEFINE a AS true)`,
      `CREATE FUNCTION f() RETURNS int ${'BEGIN '.repeat(n)}RETURN 1;${' END;'.repeat(n - 1)} END`,
    ];
    for (const sql of inputs) {
      const e = syntaxError(sql);
      expect(e.errorName, sql.slice(0, 30)).to.equal('SYNTAX_ERROR');
      expect(e.message, sql.slice(0, 30)).to.equal(TOO_LARGE);
    }
  });

  it('refuses chains of postfix operators deeper than the limit, naming where, and parses shorter ones', () => {
    const chains = ['[1]', '.b', " AT TIME ZONE 'UTC'"];
    for (const link of chains) {
      const e = syntaxError(`SELECT a${link.repeat(20_000)}`);
      expect(e.rawMessage, link).to.match(/^Expression is nested too deeply: operators chained here make it more than 1000 levels deep/);
      expect(parseExpression(`a${link.repeat(500)}`).kind, link).to.not.equal(undefined);
    }
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
