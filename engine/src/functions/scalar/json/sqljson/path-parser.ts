// Parses SQL/JSON path text (`lax $.a[0 to last]?(@ > 1).double()`) as Trino's JsonPath grammar
// reads it. Errors are INVALID_PATH naming the path and the offending position.

import { EngineError } from '../../../../errors/engine-error.js';
import type { ComparisonOperator, ItemMethod, JsonPath, PathExpression, PathPredicate, Subscript } from './path-ast.js';

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'variable'; text: string; at: number } // `$name`; `$` alone has text ''
  | { kind: 'number'; text: string; exact: boolean; at: number }
  | { kind: 'string'; text: string; at: number }
  | { kind: 'symbol'; text: string; at: number }
  | { kind: 'end'; text: ''; at: number };

const SYMBOLS = [
  '==',
  '<>',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '..',
  '<',
  '>',
  '!',
  '.',
  '[',
  ']',
  '(',
  ')',
  ',',
  '?',
  '*',
  '/',
  '%',
  '+',
  '-',
  '@',
];
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const METHODS = new Set<string>(['type', 'size', 'double', 'ceiling', 'floor', 'abs', 'keyvalue']);
const COMPARISONS = new Set(['==', '<>', '!=', '<', '>', '<=', '>=']);

function tokenize(text: string, fail: (at: number, message: string) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '$') {
      WORD.lastIndex = i + 1;
      const name = WORD.exec(text);
      tokens.push({ kind: 'variable', text: name === null ? '' : name[0], at: i });
      i += 1 + (name === null ? 0 : name[0].length);
      continue;
    }
    if (c === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) fail(i, 'unterminated string literal');
        if (text[j] === '"') {
          if (text[j + 1] !== '"') break;
          j++;
        }
        value += text[j++];
      }
      tokens.push({ kind: 'string', text: value, at: i });
      i = j + 1;
      continue;
    }
    const previous = tokens[tokens.length - 1];
    const afterDot = previous?.kind === 'symbol' && (previous.text === '.' || previous.text === '..');
    NUMBER.lastIndex = i;
    const number = /[0-9.]/.test(c) && !afterDot ? NUMBER.exec(text) : null;
    if (number !== null && number[0] !== '.') {
      tokens.push({ kind: 'number', text: number[0], exact: !/[eE]/.test(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word !== null) {
      tokens.push({ kind: 'word', text: word[0], at: i });
      i += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
    if (symbol === undefined) fail(i, `unexpected character '${c}'`);
    tokens.push({ kind: 'symbol', text: symbol as string, at: i });
    i += (symbol as string).length;
  }
  tokens.push({ kind: 'end', text: '', at: text.length });
  return tokens;
}

class PathParser {
  private position = 0;
  readonly variables = new Set<string>();

  constructor(
    private readonly tokens: Token[],
    private readonly fail: (at: number, message: string) => never,
  ) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.position + offset, this.tokens.length - 1)];
  }
  private next(): Token {
    return this.tokens[this.position++];
  }
  private isSymbol(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'symbol' && t.text === text;
  }
  private isWord(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'word' && t.text === text;
  }
  private expectSymbol(text: string): void {
    if (!this.isSymbol(text)) this.unexpected(`'${text}'`);
    this.position++;
  }
  private unexpected(expected: string): never {
    const t = this.peek();
    return this.fail(
      t.at,
      t.kind === 'end'
        ? `unexpected end of path, expecting ${expected}`
        : `mismatched input '${t.kind === 'string' ? `"${t.text}"` : t.kind === 'variable' ? `$${t.text}` : t.text}', expecting ${expected}`,
    );
  }

  path(): JsonPath {
    const mode = this.next();
    if (mode.kind !== 'word' || (mode.text !== 'lax' && mode.text !== 'strict')) {
      this.position--;
      this.unexpected("'lax' or 'strict'");
    }
    const expression = this.expression();
    if (this.peek().kind !== 'end') this.unexpected('the end of the path');
    return { lax: mode.text === 'lax', expression, variables: this.variables };
  }

  expression(): PathExpression {
    let left = this.term();
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const operator = this.next().text as '+' | '-';
      left = { kind: 'binary', operator, left, right: this.term() };
    }
    return left;
  }

  private term(): PathExpression {
    let left = this.unary();
    while (this.isSymbol('*') || this.isSymbol('/') || this.isSymbol('%')) {
      const operator = this.next().text as '*' | '/' | '%';
      left = { kind: 'binary', operator, left, right: this.unary() };
    }
    return left;
  }

  private unary(): PathExpression {
    if (this.isSymbol('+') || this.isSymbol('-')) {
      const negate = this.next().text === '-';
      return { kind: 'unary', negate, operand: this.unary() };
    }
    return this.accessor();
  }

  private accessor(): PathExpression {
    let base = this.primary();
    for (;;) {
      if (this.isSymbol('.')) {
        this.position++;
        base = this.afterDot(base);
      } else if (this.isSymbol('..')) {
        this.position++;
        base = { kind: 'descendant', base, key: this.memberKey() };
      } else if (this.isSymbol('[')) {
        this.position++;
        base = this.arrayAccessor(base);
      } else if (this.isSymbol('?')) {
        this.position++;
        this.expectSymbol('(');
        const predicate = this.predicate();
        this.expectSymbol(')');
        base = { kind: 'filter', base, predicate };
      } else {
        return base;
      }
    }
  }

  private afterDot(base: PathExpression): PathExpression {
    if (this.isSymbol('*')) {
      this.position++;
      return { kind: 'wildcardMember', base };
    }
    const t = this.peek();
    if (t.kind === 'word' && this.isSymbol('(', 1)) {
      if (t.text === 'datetime') this.datetimeMethod();
      if (!METHODS.has(t.text)) this.fail(t.at, `unknown JSON path item method '${t.text}'`);
      this.position += 2;
      this.expectSymbol(')');
      return { kind: 'method', base, method: t.text as ItemMethod };
    }
    return { kind: 'member', base, key: this.memberKey() };
  }

  /** `datetime([template])`: parsed, then refused as Trino refuses it (its analyzer has no datetime items). */
  private datetimeMethod(): never {
    this.position += 2;
    if (this.peek().kind === 'string') this.position++;
    this.expectSymbol(')');
    throw new EngineError('NOT_SUPPORTED', DATETIME_NOT_SUPPORTED);
  }

  private memberKey(): string {
    const t = this.peek();
    if (t.kind !== 'word' && t.kind !== 'string') this.unexpected('a member name');
    this.position++;
    return t.text;
  }

  private arrayAccessor(base: PathExpression): PathExpression {
    if (this.isSymbol('*') && this.isSymbol(']', 1)) {
      this.position += 2;
      return { kind: 'wildcardArray', base };
    }
    const subscripts: Subscript[] = [];
    do {
      if (subscripts.length > 0) this.position++;
      const from = this.expression();
      if (this.isWord('to')) {
        this.position++;
        subscripts.push({ from, to: this.expression() });
      } else {
        subscripts.push({ from });
      }
    } while (this.isSymbol(','));
    this.expectSymbol(']');
    return { kind: 'array', base, subscripts };
  }

  private primary(): PathExpression {
    const t = this.next();
    switch (t.kind) {
      case 'variable':
        if (t.text === '') return { kind: 'context' };
        this.variables.add(t.text);
        return { kind: 'variable', name: t.text };
      case 'number':
        return { kind: 'literal', literal: { kind: 'number', text: t.text, exact: t.exact } };
      case 'string':
        return { kind: 'literal', literal: { kind: 'string', value: t.text } };
      case 'word':
        if (t.text === 'true' || t.text === 'false') return { kind: 'literal', literal: { kind: 'boolean', value: t.text === 'true' } };
        if (t.text === 'null') return { kind: 'literal', literal: { kind: 'null' } };
        if (t.text === 'last') return { kind: 'last' };
        break;
      case 'symbol':
        if (t.text === '@') return { kind: 'current' };
        if (t.text === '(') {
          const inner = this.expression();
          this.expectSymbol(')');
          return inner;
        }
        break;
    }
    this.position--;
    return this.unexpected('a path expression');
  }

  predicate(): PathPredicate {
    let left = this.conjunction();
    while (this.isSymbol('||')) {
      this.position++;
      left = { kind: 'or', left, right: this.conjunction() };
    }
    return left;
  }

  private conjunction(): PathPredicate {
    let left = this.negation();
    while (this.isSymbol('&&')) {
      this.position++;
      left = { kind: 'and', left, right: this.negation() };
    }
    return left;
  }

  private negation(): PathPredicate {
    if (this.isSymbol('!')) {
      this.position++;
      return { kind: 'not', operand: this.delimitedPredicate() ?? this.unexpected("'exists' or '('") };
    }
    return this.primaryPredicate();
  }

  /** `exists(path)` or `(predicate)`, or undefined (position unchanged) when the text is neither. */
  private delimitedPredicate(): PathPredicate | undefined {
    if (this.isWord('exists') && this.isSymbol('(', 1)) {
      this.position += 2;
      const path = this.expression();
      this.expectSymbol(')');
      return { kind: 'exists', path };
    }
    if (!this.isSymbol('(')) return undefined;
    const start = this.position;
    try {
      this.position++;
      const inner = this.predicate();
      this.expectSymbol(')');
      return inner;
    } catch (e) {
      if (!(e instanceof EngineError) || e.errorName !== 'INVALID_PATH') throw e;
      this.position = start;
      return undefined;
    }
  }

  private primaryPredicate(): PathPredicate {
    const start = this.position;
    const delimited = this.delimitedPredicate();
    if (delimited !== undefined) {
      if (this.isWord('is') && this.isWord('unknown', 1)) {
        this.position += 2;
        return { kind: 'isUnknown', predicate: delimited };
      }
      // `(@.a + 1) > 2` reads as a parenthesized path, not a predicate.
      if (!this.continuesPath()) return delimited;
      this.position = start;
    }
    const left = this.expression();
    const t = this.peek();
    if (t.kind === 'symbol' && COMPARISONS.has(t.text)) {
      this.position++;
      const operator = (t.text === '<>' ? '!=' : t.text) as ComparisonOperator;
      return { kind: 'compare', operator, left, right: this.expression() };
    }
    if (this.isWord('starts') && this.isWord('with', 1)) {
      this.position += 2;
      const prefix = this.peek();
      if (prefix.kind !== 'string' && (prefix.kind !== 'variable' || prefix.text === '')) this.unexpected('a string or a named variable');
      return { kind: 'startsWith', whole: left, prefix: this.primary() };
    }
    if (this.isWord('like_regex')) {
      this.position++;
      const pattern = this.next();
      if (pattern.kind !== 'string') return this.unexpected('a string');
      let flags = '';
      if (this.isWord('flag')) {
        this.position++;
        const flag = this.next();
        if (flag.kind !== 'string') return this.unexpected('a string');
        flags = flag.text;
      }
      return { kind: 'likeRegex', base: left, pattern: regexOf(pattern.text, flags, (message) => this.fail(pattern.at, message)) };
    }
    return this.unexpected('a comparison, starts with or like_regex');
  }

  private continuesPath(): boolean {
    const t = this.peek();
    return (
      (t.kind === 'symbol' && (COMPARISONS.has(t.text) || ['+', '-', '*', '/', '%', '.', '..', '[', '?'].includes(t.text))) ||
      (t.kind === 'word' && (t.text === 'starts' || t.text === 'like_regex'))
    );
  }
}

/** A like_regex pattern with the XQuery flags i, m, s (x, extended, drops unescaped whitespace). */
function regexOf(pattern: string, flags: string, fail: (message: string) => never): RegExp {
  let jsFlags = 'u';
  let source = pattern;
  for (const flag of flags) {
    if (flag === 'i' || flag === 'm' || flag === 's') jsFlags += jsFlags.includes(flag) ? '' : flag;
    else if (flag === 'x') source = source.replace(/\\\s|\s/g, (m) => (m.length > 1 ? m : ''));
    else fail(`invalid like_regex flag '${flag}'`);
  }
  try {
    return new RegExp(source, jsFlags);
  } catch (e) {
    return fail(`invalid like_regex pattern: ${(e as Error).message}`);
  }
}

/** Parses a path; INVALID_PATH on text that is not one. */
/** Trino's message for the datetime() item method, reported at the path's literal. */
export const DATETIME_NOT_SUPPORTED = 'datetime method in JSON path is not yet supported';

export function parseJsonPath(text: string): JsonPath {
  const fail = (at: number, message: string): never => {
    throw new EngineError('INVALID_PATH', `Invalid JSON path '${text}' at position ${at + 1}: ${message}`);
  };
  const parser = new PathParser(tokenize(text, fail), fail);
  return parser.path();
}
