// word_stem (functions/string.md): Trino's TestWordStemFunction cases, English by default and the
// other Snowball languages by code, the result typed like the word; English stems as Snowball's
// C stemmer at Lucene 10's revision gives them (snowball-english-stems.ts), the eight languages
// generated from Snowball's sources as that revision's vocabularies say (snowball-lucene-stems.ts);
// an unknown code fails as in Trino.

import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { SNOWBALL_ENGLISH_STEMS } from './snowball-english-stems.js';
import { SNOWBALL_LUCENE_STEMS } from './snowball-lucene-stems.js';

const TRINO_CASES: ReadonlyArray<readonly [word: string, language: string | undefined, stem: string]> = [
  ['', undefined, ''],
  ['x', undefined, 'x'],
  ['abc', undefined, 'abc'],
  ['generally', undefined, 'general'],
  ['useful', undefined, 'use'],
  ['runs', undefined, 'run'],
  ['run', undefined, 'run'],
  ['authorized', 'en', 'author'],
  ['accessories', 'en', 'accessori'],
  ['intensifying', 'en', 'intensifi'],
  ['resentment', undefined, 'resent'],
  ['faithfulness', undefined, 'faith'],
  ['continuerait', 'fr', 'continu'],
  ['torpedearon', 'es', 'torped'],
  ['quilomtricos', 'pt', 'quilomtr'],
  ['pronunziare', 'it', 'pronunz'],
  ['auferstnde', 'de', 'auferstnd'],
  ['ã', 'pt', 'ã'],
  ['bastão', 'pt', 'bastã'],
];

describe('word_stem (functions/string.md)', () => {
  const engine = new EngineHarness();

  it("gives Trino's stems (TestWordStemFunction) in English by default and in the languages named", async () => {
    const calls = TRINO_CASES.map(([word, language]) =>
      language === undefined ? `word_stem('${word}')` : `word_stem('${word}', '${language}')`,
    );
    const [row] = (await engine.query(`SELECT ${calls.join(', ')}`)).rows;
    expect(row).to.deep.equal(TRINO_CASES.map(([, , stem]) => stem));
  });

  it('types the stem like the word, keeps NULL, and stems each row of a column', async () => {
    const [types] = (
      await engine.query(
        "SELECT typeof(word_stem('generally')), typeof(word_stem(CAST('runs' AS varchar))), word_stem(NULL), word_stem('x', NULL)",
      )
    ).rows;
    expect(types).to.deep.equal(['varchar(9)', 'varchar', null, null]);
    // stems as Snowball 2.2's C libstemmer gives them
    const rows = (
      await engine.query(
        "SELECT word_stem(w, l) FROM (VALUES ('running', 'en'), ('académicos', 'es'), ('académicos', 'pt'), ('vakantiehuizen', 'nl'), ('beginnings', 'da'), ('huizen', 'tr')) t(w, l)",
      )
    ).rows;
    expect(rows.map((r) => r[0])).to.deep.equal(['run', 'academ', 'académ', 'vakantiehuiz', 'beginning', 'huize']);
  });

  it("stems English as Snowball's revision in Lucene 10 does, on a sample of its vocabulary and odd spellings", async () => {
    const [row] = (
      await engine.query(`SELECT ARRAY[${SNOWBALL_ENGLISH_STEMS.map(([word]) => `word_stem('${word.replaceAll("'", "''")}')`).join(', ')}]`)
    ).rows;
    const wrong = SNOWBALL_ENGLISH_STEMS.filter(([, stem], i) => (row[0] as string[])[i] !== stem);
    expect(wrong, `${wrong.length} of ${SNOWBALL_ENGLISH_STEMS.length} differ`).to.deep.equal([]);
  });

  it('lists both signatures in SHOW FUNCTIONS', async () => {
    const rows = await engine.rows("SHOW FUNCTIONS LIKE 'word_stem'");
    expect(rows.map((r) => [r[0], r[1], r[2], r[5]])).to.deep.equal([
      ['word_stem', 'varchar(x)', 'varchar(x)', 'Returns the stem of a word in the English language'],
      ['word_stem', 'varchar(x)', 'varchar(x), varchar(x)', 'Returns the stem of a word in the given language'],
    ]);
  });

  it("stems German, Finnish, French, Italian, Lithuanian, Romanian, Russian and Swedish as Snowball's revision in Lucene 10 does", async () => {
    const calls = SNOWBALL_LUCENE_STEMS.map(([language, word]) => `word_stem('${word}', '${language}')`);
    const [row] = (await engine.query(`SELECT ARRAY[${calls.join(', ')}]`)).rows;
    const wrong = SNOWBALL_LUCENE_STEMS.filter(([, , stem], i) => (row[0] as string[])[i] !== stem);
    expect(wrong, `${wrong.length} of ${SNOWBALL_LUCENE_STEMS.length} differ`).to.deep.equal([]);
  });

  failureCases('INVALID_FUNCTION_ARGUMENT', [["SELECT word_stem('test', 'xx')", 'Unknown stemmer language: xx']]);
});
