// The token cursor shared by the parser layers: matching keywords and symbols, remembering what
// would have been valid at the furthest position reached (for Trino-style "mismatched input ...
// Expecting: ..." errors), and guarding the recursion depth.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Identifier, QualifiedName } from './ast.js';
import { RESERVED_WORDS } from './keywords.js';
import type { Token } from './lexer.js';

/**
 * The most levels a statement may nest: each pair of parentheses (a subquery's included), function
 * call, CASE, CAST and other special form, ARRAY[...], lambda, NOT, sign, operator of a chain,
 * subscript or field access, derived table and nested type parameter is one level. Deeper input is
 * refused before the JS stack runs out, in the parser and in every later phase.
 */
export const MAX_NESTING_DEPTH = 1000;

/** The error for a statement nested deeper than MAX_NESTING_DEPTH. */
export const NESTED_TOO_DEEPLY = `Statement is nested too deeply: more than ${MAX_NESTING_DEPTH} levels of parentheses, function calls, CASE, operators, NOT, signs or subqueries; at most ${MAX_NESTING_DEPTH} are supported`;

/**
 * The most queries a query may be nested in (scalar subqueries, EXISTS, IN, derived tables, WITH,
 * parenthesised query terms): each level costs the analyzer and planner about 1.5 KB of stack.
 */
export const MAX_QUERY_NESTING_DEPTH = 100;

export const QUERY_NESTED_TOO_DEEPLY = `Query is nested too deeply: more than ${MAX_QUERY_NESTING_DEPTH} levels of subqueries; at most ${MAX_QUERY_NESTING_DEPTH} are supported`;

/** Whether `e` is the parser refusing input nested too deeply (which backtracking must not retry). */
export function isNestedTooDeeply(e: unknown): boolean {
  return e instanceof EngineError && (e.rawMessage === NESTED_TOO_DEEPLY || e.rawMessage === QUERY_NESTED_TOO_DEEPLY);
}

/** Where the parser is in the nesting: what a caller backtracking restores. */
export interface NestingState {
  depth: number;
  reached: number;
  queries: number;
}

export abstract class ParserBase {
  protected pos = 0;
  private depth = 0;
  /** How many queries enclose the one being parsed. */
  private enclosingQueries = 0;
  /** The deepest level reached (open, or of a chain's tree) since the innermost measure(). */
  private reached = 0;
  // What was tried at the furthest token position reached; the error message lists it.
  private furthest = -1;
  private readonly expected = new Set<string>();

  constructor(
    protected readonly sql: string,
    protected readonly tokens: Token[],
  ) {}

  protected get token(): Token {
    return this.tokens[this.pos];
  }

  protected peek(offset = 1): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }

  protected location(token: Token = this.token): SourceLocation {
    return { line: token.line, column: token.column };
  }

  protected advance(): Token {
    const token = this.tokens[this.pos];
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  /** Records that `what` would be acceptable at the current position. */
  protected expect(what: string): void {
    if (this.pos > this.furthest) {
      this.furthest = this.pos;
      this.expected.clear();
    }
    if (this.pos === this.furthest) this.expected.add(what);
  }

  // --- keyword / symbol tests. `is*` only look; `at*` also record the expectation. ---

  protected isKeyword(word: string, token: Token = this.token): boolean {
    return token.kind === 'identifier' && token.keyword === word;
  }

  protected isSymbol(symbol: string, token: Token = this.token): boolean {
    return token.kind === 'symbol' && token.value === symbol;
  }

  protected atKeyword(word: string): boolean {
    this.expect(`'${word}'`);
    return this.isKeyword(word);
  }

  protected atSymbol(symbol: string): boolean {
    this.expect(`'${symbol}'`);
    return this.isSymbol(symbol);
  }

  protected acceptKeyword(word: string): boolean {
    if (!this.atKeyword(word)) return false;
    this.pos++;
    return true;
  }

  protected acceptSymbol(symbol: string): boolean {
    if (!this.atSymbol(symbol)) return false;
    this.pos++;
    return true;
  }

  protected acceptKeywords(...words: string[]): boolean {
    if (!this.atKeyword(words[0])) return false;
    for (let i = 1; i < words.length; i++) {
      if (!this.isKeyword(words[i], this.peek(i))) return false;
    }
    this.pos += words.length;
    return true;
  }

  protected expectKeyword(word: string): Token {
    if (!this.atKeyword(word)) this.fail();
    return this.advance();
  }

  /** Each word in turn, as a sequence that must follow. */
  protected expectKeywords(...words: string[]): void {
    for (const word of words) this.expectKeyword(word);
  }

  protected expectSymbol(symbol: string): Token {
    if (!this.atSymbol(symbol)) this.fail();
    return this.advance();
  }

  protected atEof(): boolean {
    this.expect('<EOF>');
    return this.token.kind === 'eof';
  }

  /** Throws the syntax error for the furthest position reached, listing what was expected there. */
  protected fail(): never {
    if (this.furthest < this.pos) this.expected.clear();
    const at = Math.max(this.furthest, this.pos);
    const token = this.tokens[at];
    const text = token.kind === 'eof' ? '<EOF>' : this.sql.slice(token.start, token.end);
    const expected = [...this.expected].sort();
    const message = expected.length ? `mismatched input '${text}'. Expecting: ${expected.join(', ')}` : `mismatched input '${text}'`;
    throw new EngineError('SYNTAX_ERROR', message, this.location(token));
  }

  protected error(message: string, token: Token = this.token): never {
    throw new EngineError('SYNTAX_ERROR', message, this.location(token));
  }

  /**
   * Enters one nesting level (paired with leave()) at `location` (the construct that opens it),
   * refusing input nested beyond MAX_NESTING_DEPTH. No try/finally on purpose: it would cost stack
   * per level; a caller that catches a syntax error to backtrack restores the nesting with restoreNesting().
   */
  protected enter(location: SourceLocation = this.location()): void {
    if (++this.depth > MAX_NESTING_DEPTH) throw new EngineError('SYNTAX_ERROR', NESTED_TOO_DEEPLY, location);
    if (this.depth > this.reached) this.reached = this.depth;
  }

  /** Leaves the levels a chain of `count` prefixes (NOT, signs) entered, one enter() each. */
  protected leaveChain<T>(result: T, count: number): T {
    this.depth -= count;
    return result;
  }

  /**
   * Starts measuring how many levels what is parsed next nests above the current depth; pass what it
   * returns to height(). Left-associative chains (a + b + c, a.b.c, a UNION b EXCEPT c, a JOIN b
   * JOIN c) build their trees around operands already parsed and left, so they count the levels
   * those operands reached rather than the levels open while parsing.
   */
  protected measure(): number {
    const outer = this.reached;
    this.reached = this.depth;
    return outer;
  }

  /** The levels reached above the current depth since measure() returned `outer`. */
  protected height(outer: number): number {
    const height = this.reached - this.depth;
    if (outer > this.reached) this.reached = outer;
    return height;
  }

  /** Records a tree `height` levels above the current depth, refusing it beyond the limit at `location`. */
  protected reach(height: number, location: SourceLocation): void {
    const level = this.depth + height;
    if (level > MAX_NESTING_DEPTH) throw new EngineError('SYNTAX_ERROR', NESTED_TOO_DEEPLY, location);
    if (level > this.reached) this.reached = level;
  }

  protected leave<T>(result: T): T {
    this.depth--;
    return result;
  }

  /** Enters a query nested in `enclosingQueries` others, refusing one nested beyond MAX_QUERY_NESTING_DEPTH. */
  protected enterQuery(location: SourceLocation): void {
    if (this.enclosingQueries > MAX_QUERY_NESTING_DEPTH) throw new EngineError('SYNTAX_ERROR', QUERY_NESTED_TOO_DEEPLY, location);
    this.enclosingQueries++;
  }

  protected leaveQuery<T>(query: T): T {
    this.enclosingQueries--;
    return query;
  }

  protected nestingState(): NestingState {
    return { depth: this.depth, reached: this.reached, queries: this.enclosingQueries };
  }

  protected restoreNesting(state: NestingState): void {
    this.depth = state.depth;
    this.reached = state.reached;
    this.enclosingQueries = state.queries;
  }

  // --- identifiers ---

  /** True when the token can be an identifier (unquoted non-reserved word or quoted). */
  protected isIdentifier(token: Token = this.token): boolean {
    return token.kind === 'quotedIdentifier' || (token.kind === 'identifier' && !RESERVED_WORDS.has(token.keyword));
  }

  protected parseIdentifier(): Identifier {
    this.expect('<identifier>');
    if (!this.isIdentifier()) this.fail();
    const token = this.advance();
    return { kind: 'Identifier', value: token.value, quoted: token.kind === 'quotedIdentifier', location: this.location(token) };
  }

  protected parseQualifiedName(): QualifiedName {
    const location = this.location();
    const parts = [this.parseIdentifier()];
    while (this.isSymbol('.') && this.isIdentifier(this.peek())) {
      this.pos++;
      parts.push(this.parseIdentifier());
    }
    return { kind: 'QualifiedName', parts, location };
  }

  /** `(a, b, c)` */
  protected parseIdentifierList(): Identifier[] {
    this.expectSymbol('(');
    const list = this.parseCommaList(() => this.parseIdentifier());
    this.expectSymbol(')');
    return list;
  }

  /** `item, item, ...`: at least one. */
  protected parseCommaList<T>(parseItem: () => T): T[] {
    const items = [parseItem()];
    while (this.acceptSymbol(',')) items.push(parseItem());
    return items;
  }

  /** `open [item, ...] close`: possibly empty. */
  protected parseEnclosedList<T>(open: string, close: string, parseItem: () => T): T[] {
    this.expectSymbol(open);
    const items = this.atSymbol(close) ? [] : this.parseCommaList(parseItem);
    this.expectSymbol(close);
    return items;
  }

  protected parseStringValue(): string {
    this.expect('<string>');
    if (this.token.kind !== 'string') this.fail();
    return this.advance().value;
  }

  protected parseIntegerValue(): number {
    this.expect('<integer>');
    if (this.token.kind !== 'integer') this.fail();
    return Number(this.advance().value);
  }
}
