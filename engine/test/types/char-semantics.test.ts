// char(n) end to end, against Trino's own expectations (its TestCharOperators, TestCharacterStringCasts,
// TestStringFunctions, LogicalPlanner's INSERT check). Trino here means its current rules: char(n)
// coerces implicitly to varchar(n) and the cast yields the unpadded value, so char vs varchar compares
// as varchar; char vs char compares as if both were padded to the longer length. Values are shown as
// the client receives them (padded to n), through the same JSON conversion the server uses.

import { expect } from 'chai';
import { resultJsonValue } from '../../src/coordinator/result-json.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('char(n) semantics', () => {
  let h: EngineHarness;

  /** The result as a client reads it: column types and JSON values. */
  async function client(sql: string): Promise<{ types: string[]; rows: unknown[][] }> {
    const result = await h.query(sql);
    const types = result.columns.map((c) => c.type);
    return { types: result.types, rows: result.rows.map((row) => row.map((v, i) => resultJsonValue(v, types[i]))) };
  }

  async function value(sql: string): Promise<unknown> {
    return (await client(sql)).rows[0][0];
  }

  before(async () => {
    h = new EngineHarness();
    // Filled with values of the columns' own types (storing other types is tested on its own below).
    await h.run(
      'CREATE TABLE memory.default.c3 (k char(3), v integer)',
      "INSERT INTO memory.default.c3 VALUES (CAST('a' AS char(3)), 1), (CAST('a  ' AS char(3)), 2), (CAST('b' AS char(3)), 3), (CAST(CAST('a' AS char(5)) AS char(3)), 4), (CAST('ab' AS char(3)), 5), (CAST('abc   ' AS char(3)), 6), (NULL, 7)",
      'CREATE TABLE memory.default.c5 (k char(5), w integer)',
      "INSERT INTO memory.default.c5 VALUES (CAST('a' AS char(5)), 10), (CAST('b    ' AS char(5)), 20), (CAST('abc' AS char(5)), 30)",
      'CREATE TABLE memory.default.v5 (k varchar(5), w integer)',
      "INSERT INTO memory.default.v5 VALUES ('a', 100), ('a  ', 200), ('abc', 300)",
    );
  });

  describe('comparison', () => {
    it('compares chars of different lengths as if both were padded to the longer one', async () => {
      expect(await value("SELECT CAST('a' AS char(3)) = CAST('a' AS char(5))")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(2)) = CAST('a ' AS char(2))")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) IS DISTINCT FROM CAST('a' AS char(5))")).to.equal(false);
      expect(await value("SELECT CAST('a' AS char(3)) <> CAST('b' AS char(5))")).to.equal(true);
    });

    it('compares a char with a varchar as varchar, the char unpadded', async () => {
      // Was false: the char was padded to 'a  ' on its way to varchar.
      expect(await value("SELECT CAST('a' AS char(3)) = 'a'")).to.equal(true);
      expect(await value("SELECT CAST('bar' AS char(5)) = 'bar'")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) = CAST('a' AS varchar)")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) <> 'a'")).to.equal(false);
      expect(await value("SELECT CAST('a' AS char(3)) IS DISTINCT FROM 'a'")).to.equal(false);
      // Trailing spaces of the varchar count (Trino: cast('bar' as char(5)) = 'bar   ' is false).
      expect(await value("SELECT CAST('bar' AS char(5)) = 'bar   '")).to.equal(false);
      expect(await value("SELECT CAST('bar' AS char(5)) IS DISTINCT FROM 'bar   '")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) < 'a '")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) BETWEEN 'a' AND 'a'")).to.equal(true);
    });

    it('orders chars as if padded: a space sorts above control characters', async () => {
      expect(await value("SELECT CAST('a' AS char(3)) > CAST('a' || chr(9) AS char(3))")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) < CAST('a!' AS char(3))")).to.equal(true);
      await h.run(
        'CREATE TABLE memory.default.ordered (k char(3), v integer)',
        "INSERT INTO memory.default.ordered VALUES ('a', 1), ('a' || chr(9), 2), ('a' || chr(31) || 'b', 3), ('ab', 4), ('a!', 5)",
      );
      expect(await h.rows('SELECT v FROM memory.default.ordered ORDER BY k')).to.deep.equal([[2], [3], [1], [5], [4]]);
      expect(await h.rows('SELECT v FROM memory.default.ordered ORDER BY k DESC LIMIT 2')).to.deep.equal([[4], [5]]);
      expect(await h.rows('SELECT min_by(v, k), max_by(v, k) FROM memory.default.ordered')).to.deep.equal([[2, 4]]);
      expect(await h.rows('SELECT v, rank() OVER (ORDER BY k) FROM memory.default.ordered ORDER BY v')).to.deep.equal([
        [1, 3n],
        [2, 1n],
        [3, 2n],
        [4, 5n],
        [5, 4n],
      ]);
      expect(
        await h.rows("SELECT v FROM memory.default.ordered WHERE k BETWEEN CAST('a' AS char(1)) AND CAST('a!' AS char(2)) ORDER BY v"),
      ).to.deep.equal([[1], [5]]);
      expect(await value("SELECT greatest(CAST('a' AS char(3)), CAST('a' || chr(9) AS char(3)))")).to.equal('a  ');
    });

    it('orders varchar by code point in comparisons as in ORDER BY', async () => {
      // U+FFFF is below U+1F600 (JS compares UTF-16 units, where the surrogate D83D comes first).
      expect(await value('SELECT chr(65535) < chr(128512)')).to.equal(true);
      expect(await value('SELECT greatest(chr(65535), chr(128512)) = chr(128512)')).to.equal(true);
    });

    it('matches IN lists mixing char and varchar in the common type', async () => {
      expect(await value("SELECT CAST('a' AS char(3)) IN ('a', 'b')")).to.equal(true);
      expect(await value("SELECT 'a' IN (CAST('a' AS char(3)), 'b')")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) IN (CAST('a' AS char(5)), 'b')")).to.equal(true);
      expect(await value("SELECT CAST('a' AS char(3)) IN ('a  ', 'b')")).to.equal(false);
      expect(await h.rows("SELECT v FROM memory.default.c3 WHERE k IN ('a', 'abc') ORDER BY v")).to.deep.equal([[1], [2], [4], [6]]);
    });

    it('filters a char column by a varchar literal as varchar', async () => {
      expect(await h.rows("SELECT v FROM memory.default.c3 WHERE k = 'a' ORDER BY v")).to.deep.equal([[1], [2], [4]]);
      expect(await h.rows("SELECT v FROM memory.default.c3 WHERE k = 'a  ' ORDER BY v")).to.deep.equal([]);
      expect(await h.rows("SELECT v FROM memory.default.c3 WHERE k = CAST('a' AS char(1)) ORDER BY v")).to.deep.equal([[1], [2], [4]]);
      expect(await h.rows("SELECT v FROM memory.default.c3 WHERE k < 'ab' ORDER BY v")).to.deep.equal([[1], [2], [4]]);
    });
  });

  describe('hashing', () => {
    it('groups and deduplicates char keys by their padded value', async () => {
      expect((await client('SELECT k, count(*) FROM memory.default.c3 GROUP BY k ORDER BY k')).rows).to.deep.equal([
        ['a  ', 3],
        ['ab ', 1],
        ['abc', 1],
        ['b  ', 1],
        [null, 1],
      ]);
      expect(await h.rows('SELECT count(DISTINCT k) FROM memory.default.c3')).to.deep.equal([[4n]]);
      expect((await client('SELECT k FROM memory.default.c3 UNION SELECT k FROM memory.default.c5 ORDER BY 1')).rows).to.deep.equal([
        ['a    '],
        ['ab   '],
        ['abc  '],
        ['b    '],
        [null],
      ]);
    });

    it('joins char keys of different lengths, and a char key to a varchar key as varchar', async () => {
      expect(await h.rows('SELECT a.v, b.w FROM memory.default.c3 a JOIN memory.default.c5 b ON a.k = b.k ORDER BY 1, 2')).to.deep.equal([
        [1, 10],
        [2, 10],
        [3, 20],
        [4, 10],
        [6, 30],
      ]);
      // 'a' (char) meets varchar 'a' but not varchar 'a  '.
      expect(await h.rows('SELECT a.v, b.w FROM memory.default.c3 a JOIN memory.default.v5 b ON a.k = b.k ORDER BY 1, 2')).to.deep.equal([
        [1, 100],
        [2, 100],
        [4, 100],
        [6, 300],
      ]);
      expect(await h.rows('SELECT v FROM memory.default.c3 WHERE k IN (SELECT k FROM memory.default.v5) ORDER BY v')).to.deep.equal([
        [1],
        [2],
        [4],
        [6],
      ]);
    });
  });

  describe('functions', () => {
    it('concatenates char || char as char(x + y), the left padded; with a varchar, as varchar', async () => {
      expect(await client("SELECT CAST('a' AS char(3)) || CAST('b' AS char(2))")).to.deep.equal({ types: ['char(5)'], rows: [['a  b ']] });
      expect(await client("SELECT concat(CAST('ab ' AS char(40)), CAST('' AS char(0)))")).to.deep.include({ types: ['char(40)'] });
      // Was 'a  b': the char operand was padded on its way to varchar (Trino: concat('ab ', cast('a' as char(2))) = 'ab a').
      expect(await value("SELECT CAST('a' AS char(3)) || 'b'")).to.equal('ab');
      expect(await value("SELECT concat('ab ', CAST('a' AS char(2)))")).to.equal('ab a');
      expect(await value("SELECT concat('hello na\u00EFve', CAST(' world' AS char(6)))")).to.equal('hello na\u00EFve world');
      expect(await value("SELECT concat(CAST('a' AS char(3)), CAST('b' AS char(2)), CAST('c' AS char(2)))")).to.equal('abc');
      expect((await h.failure("SELECT concat(CAST('ab ' AS char(40000)), CAST('' AS char(40000)))")).message).to.equal(
        'line 1:8: Unknown type: char(80000)',
      );
    });

    it('gives char variants their padded length and char results', async () => {
      expect(await value("SELECT length(CAST('a' AS char(3)))")).to.equal(3);
      expect(await client("SELECT upper(CAST('a' AS char(3))), lower(CAST('AB' AS char(3)))")).to.deep.equal({
        types: ['char(3)', 'char(3)'],
        rows: [['A  ', 'ab ']],
      });
      expect(await value("SELECT upper(CAST('a' AS char(3))) = CAST('A' AS char(1))")).to.equal(true);
      expect(await client("SELECT reverse(CAST(' ab' AS char(4)))")).to.deep.equal({ types: ['char(4)'], rows: [[' ba ']] });
      expect(await client("SELECT substr(CAST('ab' AS char(4)), 2), substr(CAST('ab' AS char(4)), 3, 1)")).to.deep.equal({
        types: ['varchar(4)', 'varchar(4)'],
        rows: [['b  ', ' ']],
      });
      expect(await value("SELECT lpad(CAST('ab' AS char(4)), 6, 'x')")).to.equal('xxab  ');
      expect(await value("SELECT to_utf8(CAST('ab' AS char(4)))")).to.equal(Buffer.from('ab  ').toString('base64'));
    });

    it('trims a char value without padding it first', async () => {
      // Was 'a ': ltrim saw the padded value.
      expect(await client("SELECT ltrim(CAST(' a' AS char(3))), rtrim(CAST(' a' AS char(3))), trim(CAST(' a' AS char(3)))")).to.deep.equal({
        types: ['varchar(3)', 'varchar(3)', 'varchar(3)'],
        rows: [['a', ' a', 'a']],
      });
      // A char set of characters to trim includes its padding (Trino casts char(x) to code points padded).
      expect(await value("SELECT trim('  xa  ', CAST('a' AS char(2)))")).to.equal('x');
      expect(await value("SELECT trim('  xa  ', 'a')")).to.equal('  xa  ');
    });

    it('matches LIKE against the padded char value', async () => {
      expect(await value("SELECT CAST('ab' AS char(4)) LIKE 'ab  '")).to.equal(true);
      expect(await value("SELECT CAST('ab' AS char(4)) LIKE 'ab'")).to.equal(false);
      expect(await value("SELECT CAST('ab' AS char(4)) LIKE '%b %'")).to.equal(true);
    });
  });

  describe('casts', () => {
    it('casts char to varchar unpadded, truncating only to a shorter varchar', async () => {
      expect(await client("SELECT CAST(CAST('bar' AS char(5)) AS varchar(10))")).to.deep.equal({ types: ['varchar(10)'], rows: [['bar']] });
      expect(await value("SELECT CAST(CAST('bar' AS char(5)) AS varchar)")).to.equal('bar');
      expect(await value("SELECT CAST(CAST('b' AS char(5)) AS varchar(2))")).to.equal('b');
      expect(await value("SELECT CAST(CAST('bar' AS char(5)) AS varchar(2))")).to.equal('ba');
      expect(await value("SELECT length(CAST(CAST('bar' AS char(5)) AS varchar))")).to.equal(3);
    });

    it('casts varchar and char to char by truncating and padding, never failing', async () => {
      expect(await client("SELECT CAST('bar  ' AS char(10)), CAST('bar' AS char(2)), CAST('ab   ' AS char(3))")).to.deep.equal({
        types: ['char(10)', 'char(2)', 'char(3)'],
        rows: [['bar       ', 'ba', 'ab ']],
      });
      expect(await client("SELECT CAST(CAST('abcd' AS char(4)) AS char(2)), CAST(CAST('ab' AS char(4)) AS char(6))")).to.deep.equal({
        types: ['char(2)', 'char(6)'],
        rows: [['ab', 'ab    ']],
      });
    });

    it('casts char to numbers after trimming, and to varbinary padded', async () => {
      expect(await value("SELECT CAST(CAST(' 12 ' AS char(5)) AS integer)")).to.equal(12);
      expect(await value("SELECT CAST(CAST('1.5' AS char(5)) AS double)")).to.equal(1.5);
      // Was 'YWI=' ('ab'): Trino's char -> varbinary cast pads.
      expect(await value("SELECT CAST(CAST('ab' AS char(4)) AS varbinary)")).to.equal(Buffer.from('ab  ').toString('base64'));
    });

    it('meets varchar at varchar in CASE, COALESCE, VALUES and UNION, unpadded', async () => {
      expect(await client("SELECT CASE WHEN true THEN CAST('a' AS char(3)) ELSE 'bbbbb' END")).to.deep.equal({
        types: ['varchar(5)'],
        rows: [['a']],
      });
      expect(await value("SELECT coalesce(CAST('a' AS char(3)), 'b')")).to.equal('a');
      expect(await client("SELECT x FROM (VALUES CAST('a' AS char(3)), 'bb') t(x) ORDER BY x")).to.deep.equal({
        types: ['varchar(3)'],
        rows: [['a'], ['bb']],
      });
      expect((await client("SELECT CAST('a' AS char(3)) UNION ALL SELECT 'b'")).rows).to.deep.equal([['a'], ['b']]);
      expect(await client("SELECT CAST('a' AS char(3)) UNION SELECT CAST('a' AS char(5))")).to.deep.equal({
        types: ['char(5)'],
        rows: [['a    ']],
      });
    });
  });

  describe('INSERT into char and bounded varchar columns', () => {
    it('stores shorter values, and longer ones whose extra characters are spaces', async () => {
      // Was TYPE_MISMATCH: a varchar did not coerce to char.
      await h.run(
        'CREATE TABLE memory.default.stored (k char(3), v integer)',
        "INSERT INTO memory.default.stored VALUES ('a', 1), ('a  ', 2), (CAST('b' AS char(5)), 3), ('abc   ', 4), (NULL, 5)",
      );
      expect((await client('SELECT k, v FROM memory.default.stored ORDER BY v')).rows).to.deep.equal([
        ['a  ', 1],
        ['a  ', 2],
        ['b  ', 3],
        ['abc', 4],
        [null, 5],
      ]);
      await h.run(
        'CREATE TABLE memory.default.v3 (s varchar(3))',
        "INSERT INTO memory.default.v3 VALUES ('abc  '), ('ab')",
        'INSERT INTO memory.default.v3 SELECT k FROM memory.default.c5 WHERE w = 10',
      );
      expect(await client('SELECT s FROM memory.default.v3')).to.deep.equal({ types: ['varchar(3)'], rows: [['abc'], ['ab'], ['a']] });
    });

    it('fails rather than cut off non-space characters', async () => {
      const tooLong = await h.failure("INSERT INTO memory.default.stored VALUES ('abcd', 8)");
      expect(tooLong.errorName).to.equal('INVALID_CAST_ARGUMENT');
      expect(tooLong.message).to.equal('Cannot truncate non-space characters when casting from varchar(4) to char(3) on INSERT');
      expect((await h.failure("INSERT INTO memory.default.stored VALUES (CAST('abcd' AS char(4)), 8)")).message).to.equal(
        'Cannot truncate non-space characters when casting from char(4) to char(3) on INSERT',
      );
      expect((await h.failure("INSERT INTO memory.default.v3 VALUES ('abcd')")).message).to.equal(
        'Cannot truncate non-space characters when casting from varchar(4) to varchar(3) on INSERT',
      );
      expect(await h.rows('SELECT count(*) FROM memory.default.stored WHERE v = 8')).to.deep.equal([[0n]]);
      expect((await h.failure('INSERT INTO memory.default.stored VALUES (123, 8)')).errorName).to.equal('TYPE_MISMATCH');
    });
  });
});
