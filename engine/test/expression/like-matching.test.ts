import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BOOL, VC, errorOf, evalRows, input, lit, special } from './eval-helpers.js';

/** LIKE through both code paths (constant pattern, per-row pattern); checks they agree. */
function like(value: string, pattern: string, escape?: string): boolean | null {
  const escapeArg = escape === undefined ? [] : [lit(escape, VC)];
  const constant = evaluateConstant(special('like', BOOL, lit(value, VC), lit(pattern, VC), ...escapeArg));
  const types = escape === undefined ? [VC, VC] : [VC, VC, VC];
  const inputs = types.map((t, c) => input(c, t));
  const [perRow] = evalRows(special('like', BOOL, ...inputs), types, [[value, pattern, ...(escape === undefined ? [] : [escape])]]);
  if (constant !== perRow) throw new Error(`constant pattern gave ${String(constant)}, per-row pattern ${String(perRow)}`);
  return constant as boolean | null;
}

/** An independent oracle for short inputs: the LIKE pattern as an anchored backtracking RegExp over code points. */
function oracle(value: string, pattern: string): boolean {
  const source = [...pattern].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 'su').test(value);
}

describe('LIKE matching without backtracking', () => {
  it('anchors the first segment at the start and the last at the end', () => {
    expect(like('abcabc', 'abc%abc')).to.equal(true);
    expect(like('abc', 'abc%abc')).to.equal(false, 'head and tail must not overlap');
    expect(like('abcab', 'ab%ab')).to.equal(true);
    expect(like('aba', 'ab%ba')).to.equal(false);
    expect(like('xabcx', 'abc%')).to.equal(false);
    expect(like('xabcx', '%abc')).to.equal(false);
    expect(like('xabcx', '%abc%')).to.equal(true);
    expect(like('abc', 'abc')).to.equal(true);
    expect(like('abcd', 'abc')).to.equal(false);
  });

  it('finds middle segments leftmost-first, with _ inside segments', () => {
    expect(like('xaxbxcx', '%a%b%c%')).to.equal(true);
    expect(like('xcxbxax', '%a%b%c%')).to.equal(false);
    expect(like('aXbaYb_end', '%a_b%end')).to.equal(true);
    expect(like('a1b2c', 'a_b_c')).to.equal(true);
    expect(like('ab', '%_%_%')).to.equal(true);
    expect(like('a', '%_%_%')).to.equal(false);
    expect(like('xxabyab', '%ab_ab')).to.equal(true);
    expect(like('mississippi', '%ss%pp%')).to.equal(true);
    expect(like('mississippi', '%pp%ss%')).to.equal(false);
  });

  it('treats the empty pattern, % and %% as SQL does', () => {
    expect(like('', '')).to.equal(true);
    expect(like('a', '')).to.equal(false);
    expect(like('', '%')).to.equal(true);
    expect(like('anything', '%%')).to.equal(true);
    expect(like('ab', 'a%%b')).to.equal(true);
    expect(like('', '_')).to.equal(false);
    expect(like('', '%_%')).to.equal(false);
  });

  it('matches _ against one code point, astral ones and newlines included', () => {
    expect(like('😀', '_')).to.equal(true);
    expect(like('😀', '__')).to.equal(false);
    expect(like('a😀b', 'a_b')).to.equal(true);
    expect(like('😀😁x', '%_x')).to.equal(true);
    expect(like('x😀😁', 'x%_')).to.equal(true);
    expect(like('😀😁', '_😁')).to.equal(true);
    expect(like('a\nb', 'a_b')).to.equal(true);
    expect(like('line1\nline2', '%1_l%')).to.equal(true);
    expect(like('\n', '%')).to.equal(true);
  });

  it('never matches half of a surrogate pair', () => {
    const high = '\uD83D';
    const low = '\uDE00';
    expect(like('😀', `${high}%`)).to.equal(false);
    expect(like('😀', `%${low}`)).to.equal(false);
    expect(like('x😀x', `%${low}%`)).to.equal(false);
    expect(like(`${high}x`, `${high}_`)).to.equal(true, 'a lone surrogate is a code point of its own');
  });

  it('makes %, _ and the escape character itself literal after the escape', () => {
    expect(like('50%', '%0!%', '!')).to.equal(true);
    expect(like('500', '%0!%', '!')).to.equal(false);
    expect(like('a_c', '%!_%', '!')).to.equal(true);
    expect(like('abc', '%!_%', '!')).to.equal(false);
    expect(like('a!b', 'a!!b', '!')).to.equal(true);
    expect(like('%', '%%', '%')).to.equal(true, 'with escape %, %% is a literal %');
    expect(like('x', '%%', '%')).to.equal(false);
    expect(like('😀%', '😀😀%', '😀')).to.equal(true, 'an astral escape character');
    expect(errorOf(() => like('a', '!a', '!'))).to.equal(
      "INVALID_FUNCTION_ARGUMENT: Escape character must be followed by '%', '_' or the escape character itself",
    );
    expect(errorOf(() => like('a', 'a!', '!'))).to.match(/^INVALID_FUNCTION_ARGUMENT: Escape character must be followed by/);
    expect(errorOf(() => like('a', 'a', ''))).to.equal('INVALID_FUNCTION_ARGUMENT: Escape string must be a single character');
  });

  it('is NULL when the value, the pattern or the escape is NULL', () => {
    const e = special('like', BOOL, input(0, VC), input(1, VC), input(2, VC));
    const rows = [
      [null, 'a%', '!'],
      ['abc', null, '!'],
      ['abc', 'a%', null],
      ['abc', 'a%', '!'],
    ];
    expect(evalRows(e, [VC, VC, VC], rows)).to.deep.equal([null, null, null, true]);
    expect(evaluateConstant(special('like', BOOL, lit('a', VC), lit('a', VC), lit(null, VC)))).to.equal(null);
  });

  it('uses the pattern of each row', () => {
    const e = special('like', BOOL, input(0, VC), input(1, VC));
    const rows = [
      ['abc', 'a%'],
      ['abc', '%c'],
      ['abc', '_b_'],
      ['abc', '%d%'],
      ['abc', 'a%'],
    ];
    expect(evalRows(e, [VC, VC], rows)).to.deep.equal([true, true, true, false, true]);
  });

  it('agrees with a backtracking RegExp oracle on many short values and patterns', () => {
    const alphabet = ['a', 'b', '😀', '\n'];
    const patternAlphabet = [...alphabet, '%', '_'];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (letters: string[], max: number) =>
      Array.from({ length: random(max + 1) }, () => letters[random(letters.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const value = word(alphabet, 7);
      const pattern = word(patternAlphabet, 6);
      expect(like(value, pattern)).to.equal(oracle(value, pattern), `'${value}' LIKE '${pattern}'`);
    }
  });

  it('matches chains of literals (head%a%b%tail, TPC-H q13) as the oracle does, overlaps included', () => {
    expect(like('some special foo requests', '%special%requests%')).to.equal(true);
    expect(like('requests special', '%special%requests%')).to.equal(false);
    expect(like('specialrequests', '%special%requests%')).to.equal(true);
    expect(like('abab', 'ab%ab%ab')).to.equal(false, 'head, middle and tail must not overlap');
    expect(like('ababab', 'ab%ab%ab')).to.equal(true);
    expect(like('xaby', 'x%ab%by')).to.equal(false, 'the middle must end before the tail starts');
    expect(like('x😀y😀z', '%😀%😀%')).to.equal(true);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const letters = ['a', 'b', 'ab', '😀', '\n'];
    const word = (min: number, max: number) =>
      Array.from({ length: min + random(max - min + 1) }, () => letters[random(letters.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const value = word(0, 8);
      const pattern = [word(0, 2), ...Array.from({ length: 1 + random(3) }, () => word(1, 2)), word(0, 2)].join('%');
      expect(like(value, pattern)).to.equal(oracle(value, pattern), `'${value}' LIKE '${pattern}'`);
    }
  });

  it('answers patterns that made a backtracking RegExp freeze (100,000 characters)', () => {
    const text = 'a'.repeat(100_000);
    expect(like(text, '%a%a%a%b')).to.equal(false);
    expect(like(`${text}b`, '%a%a%a%b')).to.equal(true);
    expect(like(text, `${'%a'.repeat(50)}%b`)).to.equal(false);
    expect(like(text, `${'%_'.repeat(50)}b`)).to.equal(false);
    expect(like(text, '%aa_a%a_b%')).to.equal(false);
  });
});

describe('SHOW ... LIKE', () => {
  const longName = 'a'.repeat(60);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE SCHEMA memory.patterns',
      `CREATE TABLE memory.patterns.${longName} (x bigint)`,
      'CREATE TABLE memory.patterns."50%_off" (x bigint)',
    );
  });

  it('matches with the same matcher as SQL LIKE, escapes included', async () => {
    expect(await h.rows("SHOW TABLES FROM memory.patterns LIKE '50!%!_%' ESCAPE '!'")).to.deep.equal([['50%_off']]);
    expect(await h.rows("SHOW TABLES FROM memory.patterns LIKE '_0%'")).to.deep.equal([['50%_off']]);
    expect(await h.rows(`SHOW TABLES FROM memory.patterns LIKE '${'%a'.repeat(30)}%'`)).to.deep.equal([[longName]]);
    expect(await h.rows(`SHOW TABLES FROM memory.patterns LIKE '${'%a'.repeat(30)}%b'`)).to.deep.equal([]);
  });
});
