import { expect } from 'chai';
import { BIG, INT, VC, errorOf, evalFn, evalRows, fn, input, vc } from '../expression/eval-helpers.js';

const VARBIN = { kind: 'varbinary' } as const;
const s = (text: string) => [text, VC] as [string, typeof VC];
const n = (value: number) => [BigInt(value), BIG] as [bigint, typeof BIG];

describe('string functions', () => {
  it('length counts code points', () => {
    expect(evalFn('length', s('hello'))).to.equal(5n);
    expect(evalFn('length', s('日本語'))).to.equal(3n);
    expect(evalFn('length', s('a😀b'))).to.equal(3n);
    expect(evalFn('length', s(''))).to.equal(0n);
  });

  it('lower and upper map per code point without special casing', () => {
    expect(evalFn('lower', s('HeLLo ÄÖÜ'))).to.equal('hello äöü');
    expect(evalFn('upper', s('straße'))).to.equal('STRAßE');
    expect(evalFn('upper', s('ǆ𐐨'))).to.equal('Ǆ𐐀');
  });

  it('substr is 1-based, counts negative starts from the end, and works on code points', () => {
    expect(evalFn('substr', s('hello'), n(2))).to.equal('ello');
    expect(evalFn('substr', s('hello'), n(2), n(3))).to.equal('ell');
    expect(evalFn('substr', s('hello'), n(-3))).to.equal('llo');
    expect(evalFn('substr', s('hello'), n(-3), n(2))).to.equal('ll');
    expect(evalFn('substr', s('hello'), n(0))).to.equal('');
    expect(evalFn('substr', s('hello'), n(6))).to.equal('');
    expect(evalFn('substr', s('hello'), n(-6))).to.equal('');
    expect(evalFn('substr', s('hello'), n(2), n(0))).to.equal('');
    expect(evalFn('substring', s('a😀b日本'), n(2), n(3))).to.equal('😀b日');
    expect(evalFn('substr', s('a😀b日本'), n(-2))).to.equal('日本');
  });

  it('trim, ltrim, rtrim with whitespace or given characters', () => {
    expect(evalFn('trim', s(' \t a b \n'))).to.equal('a b');
    expect(evalFn('ltrim', s('  ab  '))).to.equal('ab  ');
    expect(evalFn('rtrim', s('  ab  '))).to.equal('  ab');
    expect(evalFn('trim', s('xxabyx'), s('xy'))).to.equal('ab');
    expect(evalFn('ltrim', s('😀😀a😀'), s('😀'))).to.equal('a😀');
    expect(evalFn('rtrim', s('abcc'), s('c'))).to.equal('ab');
  });

  it('concat and ||', () => {
    expect(evalFn('concat', s('a'), s('b'), s('c'))).to.equal('abc');
    expect(
      evalRows(
        fn('concat', input(0, VC), input(1, VC)),
        [VC, VC],
        [
          ['a', null],
          ['a', 'é'],
        ],
      ),
    ).to.deep.equal([null, 'aé']);
    expect(Array.from(evalFn('concat', [new Uint8Array([1]), VARBIN], [new Uint8Array([2, 3]), VARBIN]) as Uint8Array)).to.deep.equal([
      1, 2, 3,
    ]);
  });

  it('replace with two and three arguments', () => {
    expect(evalFn('replace', s('banana'), s('an'))).to.equal('ba');
    expect(evalFn('replace', s('banana'), s('an'), s('AN'))).to.equal('bANANa');
    expect(evalFn('replace', s('abc'), s(''), s('-'))).to.equal('-a-b-c-');
    expect(evalFn('replace', s('a.b.c'), s('.'), s('$&'))).to.equal('a$&b$&c');
  });

  it('strpos finds the n-th occurrence in code points', () => {
    expect(evalFn('strpos', s('high'), s('ig'))).to.equal(2n);
    expect(evalFn('strpos', s('high'), s('x'))).to.equal(0n);
    expect(evalFn('strpos', s('😀a😀a'), s('a'))).to.equal(2n);
    expect(evalFn('strpos', s('abcabc'), s('bc'), n(2))).to.equal(5n);
    expect(evalFn('strpos', s('abcabc'), s('bc'), n(-1))).to.equal(5n);
    expect(evalFn('strpos', s('abcabc'), s('bc'), n(3))).to.equal(0n);
    expect(evalFn('strpos', s('abc'), s(''))).to.equal(1n);
    expect(errorOf(() => evalFn('strpos', s('a'), s('a'), n(0)))).to.match(/^INVALID_FUNCTION_ARGUMENT/);
  });

  it('split_part', () => {
    expect(evalFn('split_part', s('a,b,c'), s(','), n(2))).to.equal('b');
    expect(evalFn('split_part', s('a,b,c'), s(','), n(4))).to.equal(null);
    expect(evalFn('split_part', s('a,,c'), s(','), n(2))).to.equal('');
    expect(evalFn('split_part', s('a😀c'), s(''), n(2))).to.equal('😀');
    expect(errorOf(() => evalFn('split_part', s('a'), s(','), n(0)))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Index must be greater than zero',
    );
  });

  it('lpad and rpad pad or truncate to the size', () => {
    expect(evalFn('lpad', s('7'), n(3), s('0'))).to.equal('007');
    expect(evalFn('rpad', s('ab'), n(5), s('xy'))).to.equal('abxyx');
    expect(evalFn('lpad', s('abcdef'), n(3), s('0'))).to.equal('abc');
    expect(evalFn('rpad', s('日本'), n(3), s('😀'))).to.equal('日本😀');
    expect(errorOf(() => evalFn('lpad', s('a'), n(3), s('')))).to.equal('INVALID_FUNCTION_ARGUMENT: Padding string must not be empty');
    expect(errorOf(() => evalFn('lpad', s('a'), n(-1), s('x')))).to.match(/^INVALID_FUNCTION_ARGUMENT: Target length must be in the range/);
    expect(evalFn('rpad', s('a'), n(7), s('😀x'))).to.equal('a😀x😀x😀x');
    const long = evalFn('lpad', s('z'), n(5_000_001), s('xy')) as string;
    expect([long.length, long.slice(0, 4), long.slice(-3)]).to.deep.equal([5_000_001, 'xyxy', 'xyz']);
  });

  it('reverse, starts_with, chr, codepoint', () => {
    expect(evalFn('reverse', s('a😀b'))).to.equal('b😀a');
    expect(evalFn('starts_with', s('abc'), s('ab'))).to.equal(true);
    expect(evalFn('starts_with', s('abc'), s('b'))).to.equal(false);
    expect(evalFn('chr', n(0x1f600))).to.equal('😀');
    expect(evalFn('chr', n(65))).to.equal('A');
    expect(errorOf(() => evalFn('chr', n(-1)))).to.equal('INVALID_FUNCTION_ARGUMENT: Not a valid Unicode code point: -1');
    expect(evalFn('codepoint', ['é', vc(1)])).to.equal(233);
    expect(errorOf(() => evalFn('codepoint', ['ab', vc(2)]))).to.match(/^FUNCTION_NOT_FOUND/);
  });

  it('to_utf8 and from_utf8', () => {
    expect(Array.from(evalFn('to_utf8', s('é')) as Uint8Array)).to.deep.equal([0xc3, 0xa9]);
    expect(evalFn('from_utf8', [new Uint8Array([0x68, 0xc3, 0xa9]), VARBIN])).to.equal('hé');
    expect(evalFn('from_utf8', [new Uint8Array([0xff]), VARBIN])).to.equal('\ufffd');
    expect(evalFn('length', [new Uint8Array([1, 2]), VARBIN])).to.equal(2n);
  });

  it('propagates NULL arguments', () => {
    expect(evalRows(fn('lower', input(0, VC)), [VC], [[null]])).to.deep.equal([null]);
    expect(evalRows(fn('substr', input(0, VC), input(1, INT)), [VC, INT], [['abc', null]])).to.deep.equal([null]);
  });
});

describe('regular expression functions', () => {
  it('regexp_like searches anywhere in the string', () => {
    expect(evalFn('regexp_like', s('1a 2b 14m'), s('\\d+b'))).to.equal(true);
    expect(evalFn('regexp_like', s('abc'), s('^b'))).to.equal(false);
    expect(evalFn('regexp_like', s('日本'), s('^.本$'))).to.equal(true);
  });

  it('regexp_replace with group references', () => {
    expect(evalFn('regexp_replace', s('1a 2b 14m'), s('\\d+[ab] '))).to.equal('14m');
    expect(evalFn('regexp_replace', s('1a 2b 14m'), s('(\\d+)([ab]) '), s('3c$2 '))).to.equal('3ca 3cb 14m');
    expect(evalFn('regexp_replace', s('abc'), s('(?<x>b)'), s('[${x}]'))).to.equal('a[b]c');
    expect(evalFn('regexp_replace', s('abc'), s('b'), s('\\$'))).to.equal('a$c');
  });

  it('regexp_extract returns the match or a group, NULL when none', () => {
    expect(evalFn('regexp_extract', s('1a 2b 14m'), s('\\d+'))).to.equal('1');
    expect(evalFn('regexp_extract', s('1a 2b 14m'), s('(\\d+)([a-z]+)'), n(2))).to.equal('a');
    expect(evalFn('regexp_extract', s('abc'), s('\\d'))).to.equal(null);
    expect(errorOf(() => evalFn('regexp_extract', s('abc'), s('(a)'), n(2)))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Pattern has 1 groups. Cannot access group 2',
    );
  });

  it('regexp_count and regexp_position', () => {
    expect(evalFn('regexp_count', s('1a 2b 14m'), s('\\d+'))).to.equal(3n);
    expect(evalFn('regexp_position', s('😀a1'), s('\\d'))).to.equal(3);
    expect(evalFn('regexp_position', s('abc'), s('\\d'))).to.equal(-1);
  });

  it('rejects invalid patterns', () => {
    expect(errorOf(() => evalFn('regexp_like', s('a'), s('(')))).to.match(/^INVALID_FUNCTION_ARGUMENT: Invalid regular expression/);
  });
});
