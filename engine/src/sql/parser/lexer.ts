// The SQL lexer: turns the statement text into an array of tokens in one linear pass. Every token
// keeps its source offsets and 1-based line:column so the parser can point at it in errors.

import { EngineError } from '../../errors/engine-error.js';

export type TokenKind =
  | 'identifier' // unquoted word; also every keyword (the parser decides by `keyword`)
  | 'quotedIdentifier'
  | 'string'
  | 'binary'
  | 'integer'
  | 'decimal'
  | 'double'
  | 'symbol'
  | 'parameter'
  | 'dollarString' // $$...$$: the body of a function written in another language
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Decoded value: identifier lower-cased, quoted identifier / string contents, symbol text, number text (without `_` separators). */
  value: string;
  /** Upper-cased word for unquoted identifiers (used for keyword matching); '' otherwise. */
  keyword: string;
  start: number; // offset of the first character
  end: number; // offset after the last character
  line: number;
  column: number;
  /** For `?` tokens: the 0-based parameter index in textual order. */
  parameterIndex: number;
}

// Multi-character symbols first so `<=` wins over `<`. `{-`, `-}`, `|`, `^` and `$` only occur in row patterns.
const SYMBOLS = [
  '<>',
  '!=',
  '<=',
  '>=',
  '||',
  '->',
  '=>',
  '::',
  '{-',
  '-}',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
  ';',
  '[',
  ']',
  ':',
  '@',
  '|',
  '^',
  '$',
  '{',
  '}',
];

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || (c > '\x7f' && IDENT_START.test(c));
}
function isIdentPart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c === '_' || (c > '\x7f' && IDENT_PART.test(c));
}

/** Tokenizes `sql`; the last token is always `eof`. */
export function tokenize(sql: string): Token[] {
  return new Lexer(sql).run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0; // offset of the first character of the current line
  private parameters = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly sql: string) {}

  run(): Token[] {
    const sql = this.sql;
    while (true) {
      this.skipWhitespaceAndComments();
      if (this.pos >= sql.length) break;
      const start = this.pos;
      const line = this.line;
      const column = start - this.lineStart + 1;
      const c = sql[start];
      const next = sql[start + 1] ?? '';
      if ((c === 'x' || c === 'X') && next === "'") {
        this.pos++;
        const hex = this.readQuoted("'", start, line, column);
        this.push('binary', hex, start, line, column);
      } else if ((c === 'u' || c === 'U') && next === '&' && sql[start + 2] === "'") {
        this.pos += 2;
        this.readUnicodeString(start, line, column);
      } else if (isIdentStart(c)) {
        let p = start + 1;
        while (p < sql.length && isIdentPart(sql[p])) p++;
        this.pos = p;
        const text = sql.slice(start, p);
        const token = this.push('identifier', text.toLowerCase(), start, line, column);
        token.keyword = text.toUpperCase();
      } else if (isDigit(c) || (c === '.' && isDigit(next))) {
        this.readNumber(start, line, column);
      } else if (c === "'") {
        this.push('string', this.readQuoted("'", start, line, column), start, line, column);
      } else if (c === '"') {
        const name = this.readQuoted('"', start, line, column);
        if (name === '') throw new EngineError('SYNTAX_ERROR', 'Zero-length delimited identifier not allowed', { line, column });
        this.push('quotedIdentifier', name, start, line, column);
      } else if (c === '`') {
        throw new EngineError('SYNTAX_ERROR', 'backquoted identifiers are not supported; use double quotes to quote identifiers', {
          line,
          column,
        });
      } else if (c === '$' && next === '$') {
        this.readDollarString(start, line, column);
      } else if (c === '?') {
        this.pos++;
        const token = this.push('parameter', '?', start, line, column);
        token.parameterIndex = this.parameters++;
      } else {
        const symbol = SYMBOLS.find((s) => sql.startsWith(s, start));
        if (symbol === undefined) {
          throw new EngineError('SYNTAX_ERROR', `token recognition error at: '${c}'`, { line, column });
        }
        this.pos += symbol.length;
        this.push('symbol', symbol, start, line, column);
      }
    }
    const eof = this.push('eof', '', this.pos, this.line, this.pos - this.lineStart + 1);
    eof.end = this.pos;
    return this.tokens;
  }

  private push(kind: TokenKind, value: string, start: number, line: number, column: number): Token {
    const token: Token = { kind, value, keyword: '', start, end: this.pos, line, column, parameterIndex: -1 };
    this.tokens.push(token);
    return token;
  }

  /** Advances over [from, to), keeping the line counter right for text that spans lines. */
  private advanceTo(to: number): void {
    const sql = this.sql;
    for (let p = this.pos; p < to; p++) {
      if (sql.charCodeAt(p) === 10) {
        this.line++;
        this.lineStart = p + 1;
      }
    }
    this.pos = to;
  }

  private skipWhitespaceAndComments(): void {
    const sql = this.sql;
    while (this.pos < sql.length) {
      const c = sql[this.pos];
      if (c === '\n') {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.pos++;
      } else if (c === '-' && sql[this.pos + 1] === '-') {
        const eol = sql.indexOf('\n', this.pos);
        this.pos = eol === -1 ? sql.length : eol;
      } else if (c === '/' && sql[this.pos + 1] === '*') {
        const close = sql.indexOf('*/', this.pos + 2);
        if (close === -1) this.unterminated('comment', this.pos);
        this.advanceTo(close + 2);
      } else {
        return;
      }
    }
  }

  private unterminated(what: string, start: number): never {
    throw new EngineError('SYNTAX_ERROR', `unterminated ${what} at: '${preview(this.sql.slice(start))}'`, {
      line: this.line,
      column: start - this.lineStart + 1,
    });
  }

  /** Reads a `q`-delimited run starting at this.pos (on the opening quote); a doubled quote is one quote. */
  private readQuoted(q: string, tokenStart: number, line: number, column: number): string {
    const sql = this.sql;
    let p = this.pos + 1;
    const parts: string[] = [];
    while (true) {
      const close = sql.indexOf(q, p);
      if (close === -1) {
        throw new EngineError(
          'SYNTAX_ERROR',
          `unterminated ${q === '"' ? 'quoted identifier' : 'string literal'} at: '${preview(sql.slice(tokenStart))}'`,
          { line, column },
        );
      }
      parts.push(sql.slice(p, close));
      if (sql[close + 1] === q) {
        parts.push(q);
        p = close + 2;
      } else {
        this.advanceTo(close + 1);
        return parts.join('');
      }
    }
  }

  /** U&'...' [UESCAPE 'c']: `\XXXX` and `\+XXXXXX` code points; the escape character doubled is itself. */
  private readUnicodeString(start: number, line: number, column: number): void {
    const raw = this.readQuoted("'", start, line, column);
    let escape = '\\';
    const rest = /^\s*UESCAPE\s*'(.)'/i.exec(this.sql.slice(this.pos, this.pos + 64));
    if (rest) {
      escape = rest[1];
      if (/[0-9a-fA-F+'"\s]/.test(escape)) {
        throw new EngineError('SYNTAX_ERROR', `Invalid Unicode escape character: ${escape}`, { line, column });
      }
      this.advanceTo(this.pos + rest[0].length);
    }
    let out = '';
    for (let i = 0; i < raw.length; i++) {
      const ch = raw[i];
      if (ch !== escape) {
        out += ch;
        continue;
      }
      if (raw[i + 1] === escape) {
        out += escape;
        i++;
        continue;
      }
      const long = raw[i + 1] === '+';
      const digits = long ? raw.slice(i + 2, i + 8) : raw.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (long ? 6 : 4)) {
        throw new EngineError('SYNTAX_ERROR', `Incomplete escape sequence: ${escape}${raw.slice(i + 1, i + (long ? 8 : 5))}`, {
          line,
          column,
        });
      }
      const codePoint = parseInt(digits, 16);
      if (codePoint > 0x10ffff) {
        throw new EngineError('SYNTAX_ERROR', `Invalid escaped character: ${escape}${raw.slice(i + 1, i + 8)}`, { line, column });
      }
      out += String.fromCodePoint(codePoint);
      i += long ? 7 : 4;
    }
    this.push('string', out, start, line, column);
  }

  /** `$$...$$`, kept verbatim. */
  private readDollarString(start: number, line: number, column: number): void {
    const close = this.sql.indexOf('$$', start + 2);
    if (close === -1) this.unterminated('dollar-quoted string', start);
    this.advanceTo(close + 2);
    this.push('dollarString', this.sql.slice(start + 2, close), start, line, column);
  }

  private readNumber(start: number, line: number, column: number): void {
    const sql = this.sql;
    const radix = RADIX_PREFIXES[sql.slice(start, start + 2).toLowerCase()];
    const firstDigit = sql[start + 2] === '_' ? sql[start + 3] : sql[start + 2];
    if (radix !== undefined && radix.test(firstDigit ?? '')) {
      this.readRadixInteger(start, radix, line, column);
      return;
    }
    let p = this.skipDigits(start);
    let kind: TokenKind = 'integer';
    if (sql[p] === '.' && !(sql[p + 1] === '.')) {
      kind = 'decimal';
      p = this.skipDigits(p + 1);
    }
    if (sql[p] === 'e' || sql[p] === 'E') {
      let q = p + 1;
      if (sql[q] === '+' || sql[q] === '-') q++;
      if (isDigit(sql[q] ?? '')) {
        while (q < sql.length && isDigit(sql[q])) q++;
        kind = 'double';
        p = q;
      }
    }
    if (p < sql.length && isIdentPart(sql[p])) throw digitIdentifier(line, column);
    this.pos = p;
    this.push(kind, sql.slice(start, p).replaceAll('_', ''), start, line, column);
  }

  /** Digits from `from`, a single `_` allowed between two digits (`1_000_000`); returns the end. */
  private skipDigits(from: number): number {
    const sql = this.sql;
    let p = from;
    while (p < sql.length && (isDigit(sql[p]) || (sql[p] === '_' && p > from && isDigit(sql[p - 1]) && isDigit(sql[p + 1] ?? '')))) p++;
    return p;
  }

  /** `0x1F`, `0o17`, `0b101` (digits may be separated by `_`): an integer token whose value BigInt reads. */
  private readRadixInteger(start: number, digit: RegExp, line: number, column: number): void {
    const sql = this.sql;
    let p = start + 2;
    // A `_` may precede each digit, the first one included (`0x_FF`).
    while (p < sql.length && (digit.test(sql[p]) || (sql[p] === '_' && digit.test(sql[p + 1] ?? '')))) p++;
    if (p < sql.length && isIdentPart(sql[p])) throw digitIdentifier(line, column);
    this.pos = p;
    this.push('integer', `0${sql[start + 1].toLowerCase()}${sql.slice(start + 2, p).replaceAll('_', '')}`, start, line, column);
  }
}

/** Integer literals in another base: their prefix and what a digit is. */
const RADIX_PREFIXES: Record<string, RegExp> = { '0x': /[0-9a-f]/i, '0o': /[0-7]/, '0b': /[01]/ };

function digitIdentifier(line: number, column: number): EngineError {
  return new EngineError('SYNTAX_ERROR', 'identifiers must not start with a digit; surround the identifier with double quotes', {
    line,
    column,
  });
}

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
