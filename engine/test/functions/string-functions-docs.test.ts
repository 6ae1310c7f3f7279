// functions/string.md: the documented examples of the functions added for issue 19 (translate,
// overlay, trim forms, luhn_check), and those the page describes without an example, checked by
// their description; DuckDB as a second opinion on random strings where it has the same function.

import { expect } from 'chai';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

documentedExamples('functions/string.md', [
  ["SELECT overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4)", 'Thomas'],
  ["SELECT overlay('abc' PLACING 'XYZ' FROM 3)", 'abXYZ'],
  ["SELECT translate('abcd', '', '')", 'abcd'],
  ["SELECT translate('abcd', 'a', 'z')", 'zbcd'],
  ["SELECT translate('abcda', 'a', 'z')", 'zbcdz'],
  ["SELECT translate('Palhoça', 'ç','c')", 'Palhoca'],
  ["SELECT translate('abcd', 'b', U&'\\+01F600')", 'a😀cd'],
  ["SELECT translate('abcd', 'a', '')", 'bcd'],
  ["SELECT translate('abcd', 'a', 'zy')", 'zbcd'],
  ["SELECT translate('abcd', 'ac', 'z')", 'zbd'],
  ["SELECT translate('abcd', 'aac', 'zq')", 'zbd'],
  ["SELECT trim('!' FROM '!foo!')", 'foo'],
  ["SELECT trim(LEADING FROM '  abcd')", 'abcd'],
  ["SELECT trim(BOTH '$' FROM '$var$')", 'var'],
  ["SELECT trim(TRAILING 'ER' FROM upper('worker'))", 'WORK'],
  ["SELECT luhn_check('79927398713')", 'true'],
  ["SELECT luhn_check('79927398714')", 'false'],
  // Described without an example:
  ["SELECT concat_ws(', ', 'a', NULL, 'b')", 'a, b'],
  ["SELECT concat_ws(NULL, 'a', 'b')", 'NULL'],
  ["SELECT concat_ws('-', ARRAY['x', NULL, 'y'])", 'x-y'],
  ["SELECT ends_with('abcd', 'cd')", 'true'],
  ["SELECT hamming_distance('abcde', 'abxyz')", '3'],
  ["SELECT levenshtein_distance('kitten', 'sitting')", '3'],
  ["SELECT soundex('Robert')", 'R163'],
  ["SELECT soundex('Ashcraft')", 'A261'],
  ["SELECT normalize('e' || U&'\\0301') = U&'\\00E9'", 'true'],
  ["SELECT normalize('ﬁ', NFKC)", 'fi'],
  ["SELECT length(normalize(U&'\\00E9', NFD))", '2'],
  ["SELECT from_utf8(X'61ff62', '?')", 'a?b'],
  ["SELECT from_utf8(X'61ff62', 35)", 'a#b'],
  ["SELECT split_to_map('a=1,b=2', ',', '=')", '{a=1, b=2}'],
  ["SELECT split_to_map('', ',', '=')", '{}'],
  ["SELECT split_to_multimap('a=1,b=2,a=3', ',', '=')", '{a=[1, 3], b=[2]}'],
] satisfies DocumentedExample[]);

describe('string functions: the documented soundex query and bad input', () => {
  const engine = new EngineHarness();

  it("soundex finds CHINA for 'CHYNA' among the nations (the page's query on tpch)", async () => {
    const { rows } = await engine.query("SELECT n_name FROM tpch.tiny.nation WHERE soundex(n_name) = soundex('CHYNA')");
    expect(rows).to.deep.equal([['CHINA']]);
  });

  it("normalize takes the form as a keyword, as Trino's grammar: a string or another name is a syntax error", async () => {
    expect((await engine.failure("SELECT normalize('a', 'NFC')")).errorName).to.equal('SYNTAX_ERROR');
    expect((await engine.failure("SELECT normalize('a', NFX)")).errorName).to.equal('SYNTAX_ERROR');
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT hamming_distance('ab', 'abc')", 'The input strings to hamming_distance function must have the same length'],
      ["SELECT luhn_check('12a4')", 'Input contains non-digit character'],
      ["SELECT split_to_map('a=1,a=2', ',', '=')", 'Duplicate keys (a) are not allowed'],
      ["SELECT split_to_map('a=1=2', ',', '=')", "Key-value delimiter must appear exactly once in each entry. Bad input: 'a=1=2'"],
      ["SELECT split_to_multimap('a', ',', '=')", 'Key-value delimiter must appear exactly once in each entry. Bad input: a'],
      ["SELECT split_to_map('a=1', ',', ',')", 'entryDelimiter and keyValueDelimiter must not be the same'],
      ["SELECT overlay('abc' PLACING 'X' FROM 0)", 'OVERLAY start position must be greater than 0, got: 0'],
      ["SELECT from_utf8(X'61', 'ab')", 'Replacement character string must empty or a single character'],
      [
        "SELECT levenshtein_distance(array_join(repeat('a', 1002), ''), array_join(repeat('b', 1002), ''))",
        'The combined inputs for Levenshtein distance are too large',
      ],
    ],
    engine,
  );
});

describe('string functions equal DuckDB on random strings', function () {
  this.timeout(60_000);

  // DuckDB's levenshtein and hamming count bytes: compared on ASCII words (a, b, c); translate,
  // concat_ws and ends_with on words with multi-byte code points (u).
  it('levenshtein, hamming (equal lengths), translate, concat_ws, ends_with', async () => {
    const next = seededRandom(7);
    const word = (length: number, letters: string[]) => Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join('');
    const ascii = ['a', 'b', 'c', 'd'];
    const unicode = ['a', 'b', 'é', '😀'];
    const rows = Array.from({ length: 200 }, (_, id) => {
      const length = Math.floor(next() * 8);
      return `(${id}, '${word(length, ascii)}', '${word(Math.floor(next() * 8), ascii)}', '${word(length, ascii)}', '${word(length, unicode)}')`;
    }).join(', ');
    const engine = new EngineHarness();
    const duck = await openDuckDb(1);
    try {
      await engine.run('CREATE TABLE words (id integer, a varchar, b varchar, c varchar, u varchar)', `INSERT INTO words VALUES ${rows}`);
      await duck.run(`CREATE TABLE words AS SELECT * FROM (VALUES ${rows}) t(id, a, b, c, u)`);
      const ours = await engine.query(
        "SELECT levenshtein_distance(a, b), hamming_distance(a, c), translate(u, 'aé', 'x'), concat_ws('/', u, b), ends_with(u, substr(u, 3)) FROM words ORDER BY id",
      );
      const theirs = await duckRows(
        duck,
        "SELECT levenshtein(a, b), CASE WHEN a = '' THEN 0 ELSE hamming(a, c) END, translate(u, 'aé', 'x'), concat_ws('/', u, b), ends_with(u, substr(u, 3)) FROM words ORDER BY id",
      );
      expect(ours.rows.map((r) => r.map(String))).to.deep.equal(theirs.map((r) => r.map(String)));
    } finally {
      duck.closeSync();
    }
  });
});
