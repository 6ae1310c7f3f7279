// The lexer: token kinds, decoded values, positions, and its errors.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { tokenize } from '../../src/sql/parser/lexer.js';

function kinds(sql: string): string[] {
  return tokenize(sql).map((t) => `${t.kind}:${t.value}`);
}

function lexError(sql: string): string {
  try {
    tokenize(sql);
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'SYNTAX_ERROR') return e.message;
    throw e;
  }
  throw new Error(`no lexer error for ${sql}`);
}

describe('parser: lexer', () => {
  it('lower-cases unquoted identifiers and keeps quoted ones, with "" as an escaped quote', () => {
    expect(kinds('SeLeCt Foo, "Bar ""x"""')).to.deep.equal([
      'identifier:select',
      'identifier:foo',
      'symbol:,',
      'quotedIdentifier:Bar "x"',
      'eof:',
    ]);
    expect(tokenize('SeLeCt')[0].keyword).to.equal('SELECT');
  });

  it("reads strings with '' escapes, binary and Unicode literals", () => {
    expect(kinds("'it''s' X'0a ff' U&'\\0041\\+01F600x'")).to.deep.equal(["string:it's", 'binary:0a ff', 'string:A😀x', 'eof:']);
    expect(kinds("U&'#0041##' UESCAPE '#'")).to.deep.equal(['string:A#', 'eof:']);
  });

  it('tells integer, decimal and double literals apart and keeps their text', () => {
    expect(kinds('1 12345678901234567890 1.5 .5 1. 12345678901234567890.123 1e3 1.5E-2 .5e+1')).to.deep.equal([
      'integer:1',
      'integer:12345678901234567890',
      'decimal:1.5',
      'decimal:.5',
      'decimal:1.',
      'decimal:12345678901234567890.123',
      'double:1e3',
      'double:1.5E-2',
      'double:.5e+1',
      'eof:',
    ]);
  });

  it('reads every operator, the longest first', () => {
    expect(kinds('= <> != < <= > >= + - * / % || ( ) , . ; ?').filter((k) => k !== 'eof:')).to.deep.equal(
      ['=', '<>', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '||', '(', ')', ',', '.', ';']
        .map((s) => `symbol:${s}`)
        .concat('parameter:?'),
    );
  });

  it('reads the symbols of branches, static methods and row patterns, and $$ bodies', () => {
    expect(kinds('@ :: : | ^ $ {- -} { } -> =>').filter((k) => k !== 'eof:')).to.deep.equal(
      ['@', '::', ':', '|', '^', '$', '{-', '-}', '{', '}', '->', '=>'].map((s) => `symbol:${s}`),
    );
    expect(kinds("AS $$ x = 'a'; $ $$ x")).to.deep.equal(['identifier:as', "dollarString: x = 'a'; $ ", 'identifier:x', 'eof:']);
    expect(lexError('AS $$ body')).to.equal("line 1:4: unterminated dollar-quoted string at: '$$ body'");
  });

  it('reads integers in base 16, 8 and 2 and digits separated by _, as BigInt reads them', () => {
    expect(kinds('0x1F 0XfF 0o17 0B101 1_000 1_0.5_0 0x_A')).to.deep.equal([
      'integer:0x1F',
      'integer:0xfF',
      'integer:0o17',
      'integer:0b101',
      'integer:1000',
      'decimal:10.50',
      'integer:0xA',
      'eof:',
    ]);
    expect(lexError('SELECT 0x')).to.equal('line 1:8: identifiers must not start with a digit; surround the identifier with double quotes');
    expect(lexError('SELECT 1__0')).to.equal(
      'line 1:8: identifiers must not start with a digit; surround the identifier with double quotes',
    );
  });

  it('numbers parameters in textual order', () => {
    expect(
      tokenize('? + ? , ?')
        .filter((t) => t.kind === 'parameter')
        .map((t) => t.parameterIndex),
    ).to.deep.equal([0, 1, 2]);
  });

  it('skips comments and whitespace and tracks 1-based line:column', () => {
    const tokens = tokenize("SELECT -- note\n  a, /* multi\nline */ 'x\ny'\n\t b");
    expect(tokens.map((t) => [t.value, t.line, t.column])).to.deep.equal([
      ['select', 1, 1],
      ['a', 2, 3],
      [',', 2, 4],
      ['x\ny', 3, 9],
      ['b', 5, 3],
      ['', 5, 4],
    ]);
  });

  it('reports unterminated strings, quoted identifiers and comments at their start', () => {
    expect(lexError("SELECT\n  'abc")).to.equal("line 2:3: unterminated string literal at: ''abc'");
    expect(lexError('SELECT "abc')).to.equal(`line 1:8: unterminated quoted identifier at: '"abc'`);
    expect(lexError('SELECT 1 /* abc')).to.equal("line 1:10: unterminated comment at: '/* abc'");
  });

  it('reports unknown characters as Trino does', () => {
    expect(lexError('SELECT #')).to.equal("line 1:8: token recognition error at: '#'");
    expect(lexError('SELECT 1a')).to.equal('line 1:8: identifiers must not start with a digit; surround the identifier with double quotes');
    expect(lexError('SELECT ""')).to.equal('line 1:8: Zero-length delimited identifier not allowed');
    expect(lexError('SELECT `a`')).to.match(/^line 1:8: backquoted identifiers are not supported/);
  });
});
