import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import { BIG, TS3, VC, cast, errorOf, evalFn, lit } from '../expression/eval-helpers.js';

const s = (text: string) => [text, VC] as [string, typeof VC];
const n = (value: number) => [BigInt(value), BIG] as [bigint, typeof BIG];
const A_100K = 'a'.repeat(100_000);

describe('regular expressions on the linear-time engine', () => {
  it('regexp_like: RE2 syntax, . stops at newlines unless (?s), inline flags', () => {
    expect(evalFn('regexp_like', s('special pinto requests'), s('special.*requests'))).to.equal(true);
    expect(evalFn('regexp_like', s('requests special'), s('special.*requests'))).to.equal(false);
    expect(evalFn('regexp_like', s('a\nb'), s('a.b'))).to.equal(false);
    expect(evalFn('regexp_like', s('a\nb'), s('(?s)a.b'))).to.equal(true);
    expect(evalFn('regexp_like', s('ABC'), s('(?i)abc'))).to.equal(true);
    expect(evalFn('regexp_like', s('x\ny'), s('(?m)^y$'))).to.equal(true);
    expect(evalFn('regexp_like', s('Ünïcödé'), s('^\\p{L}+$'))).to.equal(true);
    expect(evalFn('regexp_like', s('😀'), s('^.$'))).to.equal(true, '. is one code point');
  });

  it('regexp_replace: $n, ${name} for (?<name>) and (?P<name>), \\ escapes, empty matches between code points', () => {
    expect(evalFn('regexp_replace', s('John Smith'), s('(\\w+) (\\w+)'), s('$2, $1'))).to.equal('Smith, John');
    expect(evalFn('regexp_replace', s('2024-01-15'), s('(?<y>\\d+)-(?P<m>\\d+)-(\\d+)'), s('${m}/$3/${y}'))).to.equal('01/15/2024');
    expect(evalFn('regexp_replace', s('a.b'), s('\\.'), s('\\$0'))).to.equal('a$0b');
    expect(evalFn('regexp_replace', s('a😀'), s(''), s('-'))).to.equal('-a-😀-');
    expect(evalFn('regexp_replace', s('aaa'), s('a*'), s('X'))).to.equal('XX');
    expect(evalFn('regexp_replace', s('abc'), s('(x)?b'), s('[$1]'))).to.equal('a[]c', 'a group that did not take part is empty');
    expect(evalFn('regexp_replace', s('abc'), s('z'), s('$0'))).to.equal('abc');
    expect(errorOf(() => evalFn('regexp_replace', s('abc'), s('(b)'), s('$2')))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Illegal group reference: group 2 does not exist',
    );
    expect(errorOf(() => evalFn('regexp_replace', s('abc'), s('(?<x>b)'), s('${y}')))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Illegal group reference: group y does not exist',
    );
    expect(errorOf(() => evalFn('regexp_replace', s('abc'), s('b'), s('$x')))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Illegal replacement sequence: $x',
    );
  });

  it('regexp_replace reads a replacement with many group references in one pass', () => {
    const replacement = '$1'.repeat(50_000);
    expect(evalFn('regexp_replace', s('xay'), s('(a)'), s(replacement))).to.equal(`x${'a'.repeat(50_000)}y`);
  });

  it('regexp_extract: the match or a group, NULL when no match or the group did not take part', () => {
    expect(evalFn('regexp_extract', s('1a 2b 14m'), s('\\d+[a-z]'), n(0))).to.equal('1a');
    expect(evalFn('regexp_extract', s('b'), s('(a)|b'), n(1))).to.equal(null);
    expect(evalFn('regexp_extract', s('😀x12'), s('x(\\d)(\\d)'), n(2))).to.equal('2');
    expect(errorOf(() => evalFn('regexp_extract', s('abc'), s('(a)(b)'), n(3)))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Pattern has 2 groups. Cannot access group 3',
    );
    expect(errorOf(() => evalFn('regexp_extract', s('abc'), s('a'), n(-1)))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Pattern has 0 groups. Cannot access group -1',
    );
  });

  it('regexp_count counts empty matches once per code point boundary; regexp_position is 1-based in code points', () => {
    expect(evalFn('regexp_count', s('a😀b'), s(''))).to.equal(4n);
    expect(evalFn('regexp_count', s('aaaa'), s('aa'))).to.equal(2n);
    expect(evalFn('regexp_position', s('😀😀ab'), s('b'))).to.equal(4);
    expect(evalFn('regexp_position', s('abc'), s(''))).to.equal(1);
  });

  it('rejects invalid patterns and the Perl constructs a linear-time engine cannot run', () => {
    for (const pattern of ['(', '[z-a]', 'a**', '(?=a)', '(?!a)', '(a)\\1', 'x{1001}']) {
      expect(errorOf(() => evalFn('regexp_like', s('a'), s(pattern)))).to.match(
        /^INVALID_FUNCTION_ARGUMENT: Invalid regular expression: error parsing regexp: /,
        pattern,
      );
    }
  });

  it('answers patterns that backtrack catastrophically in a backtracking engine (100,000 characters)', () => {
    expect(evalFn('regexp_like', s(`${A_100K}b`), s('(a+)+$'))).to.equal(false);
    expect(evalFn('regexp_like', s(`${A_100K}b`), s('(a+)+b$'))).to.equal(true);
    expect(evalFn('regexp_like', s(`${A_100K}!`), s('^(a|aa)+$'))).to.equal(false);
    expect(evalFn('regexp_count', s(`${A_100K}b`), s('(a+)+b'))).to.equal(1n);
    expect(evalFn('regexp_extract', s(`${A_100K}b`), s('(a*)*b'), n(0))).to.have.length(100_001);
    expect(evalFn('regexp_position', s(`${A_100K}b`), s('(a+)+b'))).to.equal(1);
    expect(evalFn('regexp_replace', s(`${A_100K}!`), s('^(a+)+$'), s('x'))).to.have.length(100_001);
  });
});

describe('other pattern matching that must stay polynomial', () => {
  it('date_parse with many adjacent variable-width fields', () => {
    const fields = '%d'.repeat(30);
    expect(errorOf(() => evalFn('date_parse', s(`${'1'.repeat(60)}x`), s(fields)))).to.match(/^INVALID_FUNCTION_ARGUMENT: Invalid format/);
    expect(evalFn('date_parse', s('2024-1-15 7:05'), s('%Y-%m-%d %H:%i'))).to.equal(Date.UTC(2024, 0, 15, 7, 5) * 1000);
  });

  it('trim, ltrim and rtrim of long whitespace runs', () => {
    const spaces = ' \t'.repeat(50_000);
    expect(evalFn('rtrim', s(`${spaces}x${spaces}`))).to.equal(`${spaces}x`);
    expect(evalFn('ltrim', s(`${spaces}x${spaces}`))).to.equal(`x${spaces}`);
    expect(evalFn('trim', s(`\u3000${spaces}x\u2028`))).to.equal('x');
    expect(evalFn('rtrim', s(`${spaces}x`))).to.equal(`${spaces}x`);
  });

  it('CAST to timestamp of text with a long run of spaces', () => {
    const padded = `2020-01-02 ${' '.repeat(100_000)}x`;
    expect(errorOf(() => evaluateConstant(cast(lit(padded, VC), TS3)))).to.match(
      /^INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp/,
    );
    expect(evaluateConstant(cast(lit(`  2020-01-02 03:04:05${' '.repeat(1000)}`, VC), TS3))).to.equal(Date.UTC(2020, 0, 2, 3, 4, 5) * 1000);
    expect(evaluateConstant(cast(lit(' 2020-01-02 ', VC), TS3))).to.equal(Date.UTC(2020, 0, 2) * 1000);
  });
});
