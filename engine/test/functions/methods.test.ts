// Methods on values ('abc'.length()) and on types (varchar::chr(65)): Trino's documented examples
// (language/types.md), the resolution rules of Trino's method calls (a declared set per receiver
// type; a column receiver; precedence and chaining; the errors of Trino's analyzer), and DuckDB's
// plain string functions as a second opinion on random strings.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { documentedExamples, failureCases, typedCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

documentedExamples('language/types.md (VARCHAR methods)', [
  ["SELECT 'Hello, World!'.length()", '13'],
  ["SELECT 'HELLO'.lower()", 'hello'],
  ["SELECT 'hello'.upper()", 'HELLO'],
  ["SELECT 'a.b.c'.replace('.')", 'abc'],
  ["SELECT 'a.b.c'.replace('.', '-')", 'a-b-c'],
  ["SELECT 'Trino'.reverse()", 'onirT'],
  ["SELECT 'a,b,c'.split(',')", '[a, b, c]'],
  ["SELECT 'a,b,c'.split(',', 2)", '[a, b,c]'],
  ["SELECT 'apple'.ends_with('ple')", 'true'],
  ["SELECT 'apple'.starts_with('app')", 'true'],
  ["SELECT 'hello'.strpos('l')", '3'],
  ["SELECT 'hello'.strpos('l', 2)", '4'],
  ["SELECT 'Trino'.substring(2)", 'rino'],
  ["SELECT 'Trino'.substring(2, 2)", 'ri'],
  ["SELECT 'abcd'.translate('ac', 'xy')", 'xbyd'],
  ["SELECT '  hi  '.trim()", 'hi'],
  ["SELECT '##hi##'.trim('#')", 'hi'],
  ["SELECT '7'.lpad(3, '0')", '007'],
  ["SELECT '7'.rpad(3, '0')", '700'],
  ['SELECT varchar::chr(65)', 'A'],
  ["SELECT varchar::from_utf8(X'48656C6C6F')", 'Hello'],
]);

describe('method calls (Trino TestMethodCall, TestStaticMethodCall, TestCharMethods)', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  describe('results and types', () => {
    typedCases(
      [
        // CHAR methods: a char(n) value keeps its padding (its length is n).
        ["CAST('ab' AS char(4)).length()", '4', 'bigint'],
        ["CAST('abc' AS char(3)).reverse()", 'cba', 'char(3)'],
        ["CAST('hello' AS char(5)).substring(2)", 'ello', 'varchar(5)'],
        ["CAST('hello' AS char(5)).substring(2, 3)", 'ell', 'varchar(5)'],
        ["CAST('AbC' AS char(3)).lower()", 'abc', 'char(3)'],
        ["CAST('AbC' AS char(3)).upper()", 'ABC', 'char(3)'],
        ["CAST('hi' AS char(2)).lpad(5, '*')", '***hi', 'varchar'],
        ["CAST('abc' AS char(3)).to_utf8()", '61 62 63', 'varbinary'],
        // The receiver: parenthesized, a function call, a narrower varchar coerced.
        ["('hello').length()", '5', 'bigint'],
        ["upper('ab').length()", '2', 'bigint'],
        ["CAST('hi' AS VARCHAR(2)).length()", '2', 'bigint'],
        // Chains, and a method binds tighter than any operator.
        ["'abc'.upper().length()", '3', 'bigint'],
        ["'  Hi '.trim().lower().reverse()", 'ih', 'varchar(5)'],
        ["-'abc'.length()", '-3', 'bigint'],
        ["'a' || 'b'.upper()", 'aB', 'varchar(2)'],
        ["'abc'.length() * 2 + 1", '7', 'bigint'],
        // Method names are case-insensitive; arguments coerce as a function's do.
        ["'hello'.LENGTH()", '5', 'bigint'],
        ["'abcabc'.strpos('c', TINYINT '2')", '6', 'bigint'],
        ["varchar::from_utf8(X'48FF', '?')", 'H?', 'varchar'],
        ["varchar::from_utf8(X'48FF', 35)", 'H#', 'varchar'],
        ["'x'.to_utf8()", '78', 'varbinary'],
        ["'abc'.ltrim('a')", 'bc', 'varchar(3)'],
        ["'abc '.rtrim()", 'abc', 'varchar(4)'],
      ],
      engine,
    );

    it('a column receiver reads as a method call (s.length() on column s)', async () => {
      expect(await engine.rows("SELECT s.length(), s.trim().upper() FROM (VALUES VARCHAR ' hi') t(s)")).to.deep.equal([[3n, 'HI']]);
    });

    it('a grouping key and an aggregate are receivers', async () => {
      expect(
        await engine.rows("SELECT s.length(), max(s).upper() FROM (VALUES 'ab', 'ab', 'xyz') t(s) GROUP BY s ORDER BY 1"),
      ).to.deep.equal([
        [2n, 'AB'],
        [3n, 'XYZ'],
      ]);
    });

    it('a lambda parameter is a receiver', async () => {
      expect(await engine.rows("SELECT transform(ARRAY['a', 'bc'], x -> x.upper().length())")).to.deep.equal([[[1n, 2n]]]);
    });

    it('a NULL receiver gives NULL', async () => {
      expect(await engine.rows('SELECT CAST(NULL AS varchar).length()')).to.deep.equal([[null]]);
    });
  });

  describe('errors', () => {
    failureCases(
      'FUNCTION_NOT_FOUND',
      [
        ["SELECT 'hello'.nope()", "Function 'nope' not registered"],
        // Methods are declared per receiver type: integer has none, char has no replace.
        ['SELECT (42).length()', "Function 'length' not registered"],
        ["SELECT CAST('x' AS char(1)).replace('x')", "Function 'replace' not registered"],
        ['SELECT NULL.length()', "Function 'length' not registered"],
        // Instance and static methods do not stand in for each other.
        ["SELECT varchar::length('x')", "Function 'length' not registered"],
        ["SELECT 'x'.from_utf8()", "Function 'from_utf8' not registered"],
        ["SELECT bigint::nope('42')", "Function 'nope' not registered"],
        ["SELECT 'hello'.length(1)", 'Unexpected parameters (varchar(5), integer) for function length. Expected: length(varchar(x))'],
        [
          "SELECT 'a'.substring(1, 2, 3)",
          'Unexpected parameters (varchar(1), integer, integer, integer) for function substring. Expected: substring(varchar(x), bigint), substring(varchar(x), bigint, bigint)',
        ],
        // Not a column: a function named x.length.
        ['SELECT x.length() FROM (VALUES 1) t(y)', "Function 'x.length' not registered"],
      ],
      engine,
    );
    it('an unknown method is reported at the start of the call, a parenthesized receiver included', async () => {
      const error = await engine.failure("SELECT 1,\n  'x'.nope()");
      expect([error.errorName, error.location]).to.deep.equal(['FUNCTION_NOT_FOUND', { line: 2, column: 3 }]);
      const parenthesized = await engine.failure('SELECT (42).length()');
      expect([parenthesized.errorName, parenthesized.location]).to.deep.equal(['FUNCTION_NOT_FOUND', { line: 1, column: 8 }]);
    });
    failureCases('TYPE_NOT_FOUND', [["SELECT not_a_type::parse('42')", 'Unknown type: not_a_type']], engine);
    failureCases('INVALID_FUNCTION_ARGUMENT', [['SELECT varchar::chr(-1)', 'Not a valid Unicode code point: -1']], engine);
  });
});

describe('VARCHAR methods equal DuckDB string functions on random strings', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    const next = seededRandom(19);
    const word = () => Array.from({ length: Math.floor(next() * 7) }, () => 'ab c,é'[Math.floor(next() * 6)]).join('');
    const values = Array.from({ length: 300 }, (_, id) => `(${id}, ${next() < 0.1 ? 'NULL' : `'${word()}'`})`).join(', ');
    engine = new EngineHarness();
    await engine.run('CREATE TABLE w (id integer, s varchar)', `INSERT INTO w VALUES ${values}`);
    duck = await openDuckDb(1);
    await duck.run('CREATE TABLE w (id INTEGER, s VARCHAR)');
    await duck.run(`INSERT INTO w VALUES ${values}`);
  });

  after(() => duck.closeSync());

  const cases: ReadonlyArray<readonly [method: string, duckdb: string]> = [
    ['s.length()', 'length(s)'],
    ['s.lower()', 'lower(s)'],
    ['s.upper()', 'upper(s)'],
    ['s.reverse()', 'reverse(s)'],
    ["s.strpos('b')", "strpos(s, 'b')"],
    ['s.substring(2)', 'substring(s, 2)'],
    ['s.substring(2, 3)', 'substring(s, 2, 3)'],
    ["s.replace('a', 'xy')", "replace(s, 'a', 'xy')"],
    ["s.replace('a')", "replace(s, 'a', '')"],
    ["s.starts_with('a')", "starts_with(s, 'a')"],
    ["s.ends_with('c')", "suffix(s, 'c')"],
    ["s.lpad(4, '-')", "lpad(s, 4, '-')"],
    ["s.rpad(4, '-')", "rpad(s, 4, '-')"],
    ["s.translate('ab', 'x')", "translate(s, 'ab', 'x')"],
    ['s.trim()', 'trim(s)'],
    ["s.trim('a ')", "trim(s, 'a ')"],
    ["s.ltrim('a ')", "ltrim(s, 'a ')"],
    ["s.rtrim('a ')", "rtrim(s, 'a ')"],
  ];
  for (const [method, duckdb] of cases) {
    it(`${method} equals DuckDB ${duckdb}`, async () => {
      const ours = (await engine.query(`SELECT id, ${method} FROM w ORDER BY id`)).rows.map((r) => r.map(String));
      const theirs = (await duckRows(duck, `SELECT id, ${duckdb} FROM w ORDER BY id`)).map((r) => r.map(String));
      expect(ours).to.deep.equal(theirs);
    });
  }
});
