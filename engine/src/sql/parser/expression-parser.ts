// Expressions, following the precedence of Trino's SqlBase.g4:
//   OR < AND < NOT < predicate (one comparison / BETWEEN / IN / LIKE / IS / MATCH ... on a value expression)
//   value expressions (Pratt): || < + - < * / % < unary + - < AT TIME ZONE < primary (with `.field`,
//   `[index]`, `.method(...)` and `.*` after it), lambdas `x -> ...` among the primaries.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { ArithmeticOperator, ComparisonOperator, Expression, Identifier, LongLiteral, Query, QueryBody } from './ast.js';
import { FunctionCallParser } from './function-call-parser.js';
import { QUERY_START_WORDS } from './keywords.js';
import type { Token } from './lexer.js';
import { offStack, runSteps, type Steps } from './parse-steps.js';

const COMPARISON_OPERATORS: Record<string, ComparisonOperator> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

// Binding power of the binary value operators (higher binds tighter); unary +/- bind tighter still.
const BINARY_PRECEDENCE: Record<string, number> = { '||': 1, '+': 2, '-': 2, '*': 3, '/': 3, '%': 3 };

/** Tokens after a parenthesised subquery that make it the first operand of a larger query. */
const QUERY_CONTINUATION_WORDS = ['UNION', 'INTERSECT', 'EXCEPT', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH'];

export abstract class ExpressionParser extends FunctionCallParser {
  /** A full query (WITH, body, ORDER BY, OFFSET, LIMIT). */
  protected abstract parseQuery(): Query;
  /** Continues a query whose first body has already been parsed: set operations, ORDER BY, LIMIT ... */
  protected abstract continueQuery(first: QueryBody, location: SourceLocation): Query;

  protected override parseExpression(initial?: Expression): Expression {
    return runSteps(this.expressionSteps(initial));
  }

  /**
   * OR of ANDs of `NOT* predicate`, in one loop rather than a function per precedence level.
   * `initial` is an already parsed value expression to continue from.
   */
  protected override *expressionSteps(initial?: Expression): Steps {
    const orTerms: Expression[] = [];
    const orHeights: number[] = [];
    const orLocations: SourceLocation[] = [];
    let first = initial;
    while (true) {
      const andTerms: Expression[] = [];
      const andHeights: number[] = [];
      const andLocations: SourceLocation[] = [];
      while (true) {
        const outer = this.measure();
        andTerms.push(yield* this.negationSteps(first));
        andHeights.push(this.height(outer));
        first = undefined;
        if (!this.atKeyword('AND')) break;
        andLocations.push(this.location(this.advance()));
      }
      orTerms.push(logicalChain('AND', andTerms, andLocations));
      orHeights.push(this.reachChain(andHeights, andLocations));
      if (!this.atKeyword('OR')) break;
      orLocations.push(this.location(this.advance()));
    }
    this.reachChain(orHeights, orLocations);
    return logicalChain('OR', orTerms, orLocations);
  }

  /** The height of the tree logicalChain builds over terms of these heights, refused at its first operator beyond the limit. */
  private reachChain(heights: readonly number[], locations: readonly SourceLocation[]): number {
    const height = logicalChainHeight(heights);
    if (locations.length > 0) this.reach(height, locations[0]);
    return height;
  }

  /** `NOT NOT ... predicate`: each NOT is a level, read in a loop. */
  private *negationSteps(initial?: Expression): Steps {
    // NOT, like unary +/- below, is covered by the '<expression>' the primary records.
    const nots: SourceLocation[] = [];
    while (!initial && this.isKeyword('NOT')) {
      const location = this.location(this.advance());
      this.enter(location);
      nots.push(location);
    }
    let result = yield* this.predicateSteps(yield* this.valueSteps(0, initial));
    for (let i = nots.length - 1; i >= 0; i--) result = { kind: 'Not', value: result, location: nots[i] };
    return this.leaveChain(result, nots.length);
  }

  protected override parsePredicate(value: Expression): Expression {
    return runSteps(this.predicateSteps(value));
  }

  /** At most one predicate applies to a value expression (Trino rejects `a = b = c`). */
  private *predicateSteps(value: Expression): Steps {
    const location = value.location;
    const token = this.token;
    for (const op of Object.keys(COMPARISON_OPERATORS)) this.expect(`'${op}'`);
    if (token.kind === 'symbol' && token.value in COMPARISON_OPERATORS) {
      const operatorLocation = this.location(this.advance());
      const operator = COMPARISON_OPERATORS[token.value];
      const quantifier = this.quantifierAhead();
      if (quantifier) {
        this.pos++;
        return { kind: 'QuantifiedComparison', operator, quantifier, value, query: this.parseParenthesizedQuery(), location };
      }
      return { kind: 'Comparison', operator, left: value, right: yield this.valueSteps(0), location: operatorLocation };
    }
    if (this.atKeyword('IS')) {
      this.pos++;
      const negated = this.acceptKeyword('NOT');
      if (this.acceptKeyword('NULL')) return { kind: 'IsNull', value, negated, location };
      const truthValue = (['TRUE', 'FALSE', 'UNKNOWN'] as const).find((w) => this.atKeyword(w));
      if (truthValue) {
        this.pos++;
        return { kind: 'BooleanTest', value, truthValue, negated, location };
      }
      this.expectKeyword('DISTINCT');
      this.expectKeyword('FROM');
      return { kind: 'IsDistinctFrom', left: value, right: yield this.valueSteps(0), negated, location };
    }
    const negated = this.atKeyword('NOT') && ['BETWEEN', 'IN', 'LIKE'].some((w) => this.isKeyword(w, this.peek()));
    if (negated) this.pos++;
    if (this.acceptKeyword('BETWEEN')) {
      const symmetry = (['SYMMETRIC', 'ASYMMETRIC'] as const).find((w) => this.atKeyword(w));
      if (symmetry) this.pos++;
      const min = yield this.valueSteps(0);
      this.expectKeyword('AND');
      const max = yield this.valueSteps(0);
      return { kind: 'Between', value, min, max, negated, ...(symmetry ? { symmetry } : {}), location };
    }
    if (this.acceptKeyword('LIKE')) {
      const pattern = yield this.valueSteps(0);
      const escape = this.acceptKeyword('ESCAPE') ? yield this.valueSteps(0) : undefined;
      return { kind: 'Like', value, pattern, ...(escape ? { escape } : {}), negated, location };
    }
    if (this.acceptKeyword('IN')) return yield* this.inPredicateSteps(value, negated, location);
    if (negated) this.fail();
    if (this.matchPredicateAhead()) return this.parseMatchPredicate(value);
    return value;
  }

  protected override predicateAhead(offset = 0): boolean {
    const token = this.peek(offset);
    if (token.kind === 'symbol') return token.value in COMPARISON_OPERATORS;
    if (['IS', 'BETWEEN', 'IN', 'LIKE'].some((w) => this.isKeyword(w, token))) return true;
    if (this.isKeyword('NOT', token)) return ['BETWEEN', 'IN', 'LIKE'].some((w) => this.isKeyword(w, this.peek(offset + 1)));
    return this.matchPredicateAhead(offset);
  }

  /** MATCH is non-reserved: it starts a predicate only before UNIQUE, a match type or a subquery. */
  private matchPredicateAhead(offset = 0): boolean {
    if (!this.isKeyword('MATCH', this.peek(offset))) return false;
    const next = this.peek(offset + 1);
    return (
      ['UNIQUE', 'SIMPLE', 'PARTIAL', 'FULL'].some((w) => this.isKeyword(w, next)) ||
      (this.isSymbol('(', next) && this.queryAhead(offset + 1))
    );
  }

  /** `MATCH [UNIQUE] [SIMPLE | PARTIAL | FULL] (query)` */
  private parseMatchPredicate(value: Expression): Expression {
    const location = this.location(this.advance());
    const unique = this.acceptKeyword('UNIQUE');
    const matchType = (['SIMPLE', 'PARTIAL', 'FULL'] as const).find((w) => this.atKeyword(w));
    if (matchType) this.pos++;
    const query = this.parseParenthesizedQuery();
    return { kind: 'MatchPredicate', value, unique, ...(matchType ? { matchType } : {}), query, location };
  }

  private quantifierAhead(): 'ANY' | 'ALL' | undefined {
    const word = this.token.kind === 'identifier' ? this.token.keyword : '';
    if ((word !== 'ANY' && word !== 'SOME' && word !== 'ALL') || !this.isSymbol('(', this.peek())) return undefined;
    const inner = this.peek(2);
    if (!this.isSymbol('(', inner) && !(inner.kind === 'identifier' && QUERY_START_WORDS.has(inner.keyword))) return undefined;
    return word === 'ALL' ? 'ALL' : 'ANY';
  }

  /** `IN (list)` or `IN (query)`; the parentheses are a level. */
  private *inPredicateSteps(value: Expression, negated: boolean, location: SourceLocation): Steps {
    this.enter();
    this.expectSymbol('(');
    if (this.startsQuery()) {
      const subquery = yield offStack(() => this.finishSubquery(location));
      if (subquery.kind !== 'Subquery') throw new Error('a subquery expected');
      return this.leave({ kind: 'InSubquery', value, query: subquery.query, negated, location });
    }
    const list = [yield this.expressionSteps()];
    while (this.acceptSymbol(',')) list.push(yield this.expressionSteps());
    this.expectSymbol(')');
    // `x IN ((SELECT ...))`: a lone parenthesised subquery is a subquery too.
    const only = list[0];
    if (list.length === 1 && only.kind === 'Subquery')
      return this.leave({ kind: 'InSubquery', value, query: only.query, negated, location });
    return this.leave({ kind: 'InList', value, list, negated, location });
  }

  /** The query of `(query)` after its `(`, through the `)`. */
  private finishSubquery(location: SourceLocation): Expression {
    const query = this.parseQuery();
    this.expectSymbol(')');
    return { kind: 'Subquery', query, location };
  }

  protected startsQuery(): boolean {
    return this.token.kind === 'identifier' && QUERY_START_WORDS.has(this.token.keyword);
  }

  /** `(query)`: its parentheses are a nesting level. */
  protected override parseParenthesizedQuery(): Query {
    this.enter();
    return this.leave(this.parseQueryInParentheses());
  }

  /** `(query)` where the caller has counted the level (EXISTS(...), a derived table). */
  protected override parseQueryInParentheses(): Query {
    this.expectSymbol('(');
    this.expect('<query>');
    const query = this.parseQuery();
    this.expectSymbol(')');
    return query;
  }

  protected override parseValueExpression(minPrecedence: number, initial?: Expression): Expression {
    return runSteps(this.valueSteps(minPrecedence, initial));
  }

  /** Pratt loop over the binary value operators; `initial` replaces the first operand when given. */
  protected override *valueSteps(minPrecedence: number, initial?: Expression): Steps {
    const outer = this.measure();
    let left = initial ?? (yield* this.unarySteps());
    let height = this.height(outer);
    while (true) {
      for (const op of Object.keys(BINARY_PRECEDENCE)) this.expect(`'${op}'`);
      const token = this.token;
      const precedence = token.kind === 'symbol' ? BINARY_PRECEDENCE[token.value] : undefined;
      if (precedence === undefined || precedence <= minPrecedence) return left;
      // Trino reports errors of binary operators at the operator.
      const location = this.location(this.advance());
      // The right operand binds tighter: it nests no deeper than the precedence levels there are.
      const rightOuter = this.measure();
      const right = yield* this.valueSteps(precedence);
      // Each operator nests the tree one level above its deeper operand (a + b + c is (a + b) + c).
      height = 1 + Math.max(height, this.height(rightOuter));
      this.reach(height, location);
      left =
        token.value === '||'
          ? { kind: 'Concat', left, right, location }
          : { kind: 'ArithmeticBinary', operator: token.value as ArithmeticOperator, left, right, location };
    }
  }

  /** `- + - value`: each sign is a level, read in a loop; signs bind tighter than the binary operators. */
  private *unarySteps(): Steps {
    const signs: Token[] = [];
    while (this.isSymbol('-') || this.isSymbol('+')) {
      const token = this.advance();
      this.enter(this.location(token));
      signs.push(token);
    }
    const outer = this.measure();
    const start = this.location();
    const entered = signs.length;
    // As in Trino's grammar, a minus right before an integer is part of the literal: -9223372036854775808
    // is a bigint and -2147483648 an integer, not the negation of a number out of their range.
    const signedInteger = signs.at(-1)?.value === '-' && this.token.kind === 'integer';
    let primary = yield* this.primarySteps();
    if (signedInteger && primary.kind === 'LongLiteral') primary = negativeLiteral(primary, this.location(signs.pop() as Token));
    let result = yield* this.postfixSteps(primary, this.height(outer), start);
    for (let i = signs.length - 1; i >= 0; i--) {
      result = { kind: 'ArithmeticUnary', operator: signs[i].value as '+' | '-', value: result, location: this.location(signs[i]) };
    }
    return this.leaveChain(result, entered);
  }

  /** `value AT TIME ZONE 'zone' | INTERVAL ...` and `value AT LOCAL`, binding tighter than the operators. */
  private parseAtTimeZone(value: Expression, valueHeight: number): Expression {
    let result = value;
    let height = valueHeight;
    while (this.isKeyword('AT') && (this.isKeyword('TIME', this.peek()) || this.isKeyword('LOCAL', this.peek()))) {
      const location = this.location(this.advance());
      // Each one nests the tree one level deeper, as a chain of binary operators does.
      this.reach(++height, location);
      if (this.acceptKeyword('LOCAL')) {
        result = { kind: 'AtTimeZone', value: result, location };
        continue;
      }
      this.expectKeywords('TIME', 'ZONE');
      const zoneToken = this.token;
      const zone = this.isKeyword('INTERVAL') ? this.parseSpecialForm('INTERVAL') : undefined;
      result = {
        kind: 'AtTimeZone',
        value: result,
        zone: zone ?? { kind: 'StringLiteral', value: this.parseStringValue(), location: this.location(zoneToken) },
        location,
      };
    }
    return result;
  }

  /**
   * `.field` dereferences, qualified function names `a.b(...)`, method calls, `[index]`,
   * `name::method(...)` and `.*`; each nests the tree one level deeper, as a binary operator does.
   */
  private *postfixSteps(base: Expression, baseHeight: number, start: SourceLocation): Steps {
    let result = base;
    let height = baseHeight;
    while (true) {
      const location = this.location();
      if (this.isSymbol('.') && this.isSymbol('*', this.peek())) {
        this.pos += 2;
        const prefix = nameParts(result);
        const start = result.location;
        const all: Expression = prefix
          ? { kind: 'AllColumns', prefix: { kind: 'QualifiedName', parts: prefix, location: start }, location: start }
          : { kind: 'AllColumns', target: result, location: start };
        return all;
      }
      const dot = this.atSymbol('.');
      const bracket = !dot && this.atSymbol('[');
      const target = !dot && !bracket && this.isSymbol('::') ? nameParts(result) : undefined;
      if (!dot && !bracket && !target) return this.parseAtTimeZone(result, height);
      const outer = this.measure();
      this.pos++;
      if (dot) {
        const field = this.parseFieldOrMethodName();
        const baseParts = this.isSymbol('(') ? nameParts(result) : undefined;
        if (!this.isSymbol('(')) result = { kind: 'Dereference', base: result, field, location: result.location };
        else if (baseParts)
          result = yield* this.functionCallSteps({ kind: 'QualifiedName', parts: [...baseParts, field], location: result.location });
        // Located at the start of the primary expression, a parenthesis included, as Trino locates it.
        else result = { kind: 'MethodCall', base: result, method: field, args: this.parseArgumentList(), location: start };
      } else if (bracket) {
        const index = yield this.valueSteps(0);
        this.expectSymbol(']');
        result = { kind: 'Subscript', base: result, index, location };
      } else if (target) {
        const method = this.parseFieldOrMethodName();
        const qualified = { kind: 'QualifiedName' as const, parts: target, location: result.location };
        result = { kind: 'StaticMethodCall', target: qualified, method, args: this.parseArgumentList(), location: result.location };
      }
      // Each one nests the tree one level deeper, as a chain of binary operators does.
      height = 1 + Math.max(height, this.height(outer));
      this.reach(height, location);
    }
  }

  /** The name after `.`: an identifier, or any keyword when a call follows (Trino's methodName: `' x '.trim()`). */
  private parseFieldOrMethodName(): Identifier {
    if (this.token.kind !== 'identifier' || this.isIdentifier() || !this.isSymbol('(', this.peek())) return this.parseIdentifier();
    const token = this.advance();
    return { kind: 'Identifier', value: token.value, quoted: false, location: this.location(token) };
  }

  /** `()`, `(a, b)` or a single expression: a grouping set, or the PARTITION BY of a table argument. */
  protected parseExpressionSet(): Expression[] {
    if (this.isSymbol('(') && this.isSymbol(')', this.peek())) {
      this.pos += 2;
      return [];
    }
    const startsWithParen = this.isSymbol('(');
    const expression = this.parseExpression();
    // `(a, b)` lists the set's expressions; `ROW(a, b)` stays one row-valued expression.
    if (startsWithParen && expression.kind === 'Row' && !expression.fieldNames) return expression.items;
    return [expression];
  }

  /** `(argument, ...)` of a method or procedure; arguments may be named. */
  protected parseArgumentList(): Expression[] {
    return this.parseEnclosedList('(', ')', () => this.parseCallArgument());
  }

  /** A literal, name, call, special form or parenthesised expression; one that nests others is a level. */
  private *primarySteps(): Steps {
    this.expect('<expression>');
    if (!this.opensLevel()) return yield* this.primaryAtSteps(this.token);
    this.enter();
    return this.leave(yield* this.primaryAtSteps(this.token));
  }

  /**
   * Whether the primary at the cursor holds expressions of its own: `(`, `[`, a call or special form
   * `name(` / `ARRAY[`, CASE, a lambda `x ->`, `RUNNING f(...)` or a measure `name OVER (...)`.
   */
  private opensLevel(): boolean {
    const token = this.token;
    if (token.kind === 'symbol') return token.value === '(' || token.value === '[';
    if (token.kind !== 'identifier' && token.kind !== 'quotedIdentifier') return false;
    const next = this.peek();
    // `name[...]` is a subscript, a postfix level of its own; only ARRAY[...] opens one here.
    if (next.kind === 'symbol')
      return next.value === '(' || next.value === '->' || (next.value === '[' && token.kind === 'identifier' && token.keyword === 'ARRAY');
    if (token.kind === 'quotedIdentifier') return this.isKeyword('OVER', next);
    return (
      token.keyword === 'CASE' ||
      this.isKeyword('OVER', next) ||
      ((token.keyword === 'RUNNING' || token.keyword === 'FINAL') && this.processingModeAhead())
    );
  }

  private *primaryAtSteps(token: Token): Steps {
    const location = this.location(token);
    switch (token.kind) {
      case 'integer':
        this.pos++;
        return { kind: 'LongLiteral', value: BigInt(token.value), text: token.value, location };
      case 'decimal':
        this.pos++;
        return { kind: 'DecimalLiteral', text: token.value, location };
      case 'double':
        this.pos++;
        return { kind: 'DoubleLiteral', value: Number(token.value), text: token.value, location };
      case 'string':
        this.pos++;
        return { kind: 'StringLiteral', value: token.value, location };
      case 'binary':
        this.pos++;
        return { kind: 'BinaryLiteral', hex: this.binaryHex(token), location };
      case 'parameter':
        this.pos++;
        return { kind: 'Parameter', index: token.parameterIndex, location };
      case 'symbol':
        if (token.value === '(') return this.lambdaAhead() ? yield* this.lambdaSteps() : yield* this.parenthesizedSteps();
        if (token.value === '[') return yield* this.arraySteps(location);
        break;
      case 'quotedIdentifier':
        return yield* this.nameOrCallSteps();
      case 'identifier': {
        const nesting = this.nestingFormSteps(token.keyword);
        if (nesting) return yield* nesting;
        const special = this.parseSpecialForm(token.keyword);
        if (special) return special;
        if (this.isIdentifier()) return yield* this.nameOrCallSteps();
        break;
      }
      default:
        break;
    }
    this.fail();
  }

  private binaryHex(token: Token): string {
    const hex = token.value.replace(/\s/g, '').toUpperCase();
    if (!/^[0-9A-F]*$/.test(hex)) this.error('Binary literal can only contain hexadecimal digits', token);
    if (hex.length % 2 !== 0) this.error('Binary literal must contain an even number of digits', token);
    return hex;
  }

  /** Typed literal `DATE '...'`, function call `f(...)`, or a plain identifier. */
  private *nameOrCallSteps(): Steps {
    const token = this.token;
    if (token.kind === 'identifier' && this.peek().kind === 'string') {
      const type = this.parseType();
      return { kind: 'GenericLiteral', type, value: this.parseStringValue(), location: type.location };
    }
    if (this.isSymbol('->', this.peek())) return yield* this.lambdaSteps();
    const name = this.parseIdentifier();
    if (this.isSymbol('(')) return yield* this.functionCallSteps({ kind: 'QualifiedName', parts: [name], location: name.location });
    // `name OVER w`: a measure of the window's row pattern (OVER before anything else is an alias).
    if (this.isKeyword('OVER') && (this.isSymbol('(', this.peek()) || this.isIdentifier(this.peek()))) {
      this.pos++;
      return { kind: 'Measure', name, window: this.parseOver(), location: name.location };
    }
    return name;
  }

  /** `(a, b) ->`, `() ->` or `(a) ->` at the cursor. */
  private lambdaAhead(): boolean {
    let offset = 1;
    if (!this.isSymbol(')', this.peek(offset))) {
      while (this.isIdentifier(this.peek(offset)) && this.isSymbol(',', this.peek(offset + 1))) offset += 2;
      if (!this.isIdentifier(this.peek(offset))) return false;
      offset++;
    }
    return this.isSymbol(')', this.peek(offset)) && this.isSymbol('->', this.peek(offset + 1));
  }

  /** `x -> body` or `(x, y) -> body` */
  private *lambdaSteps(): Steps {
    const location = this.location();
    const parameters: Identifier[] = this.isSymbol('(')
      ? this.parseEnclosedList('(', ')', () => this.parseIdentifier())
      : [this.parseIdentifier()];
    this.expectSymbol('->');
    return { kind: 'Lambda', parameters, body: yield this.expressionSteps(), location };
  }

  /** `( ... )` in an expression: subquery, row constructor, or a parenthesised expression. */
  private *parenthesizedSteps(): Steps {
    const open = this.expectSymbol('(');
    const location = this.location(open);
    if (this.startsQuery()) return yield offStack(() => this.finishSubquery(location));
    const first = yield this.expressionSteps();
    if (first.kind === 'Subquery' && QUERY_CONTINUATION_WORDS.some((w) => this.isKeyword(w))) {
      const query = this.continueQuery({ kind: 'SubqueryBody', query: first.query, location: first.location }, first.location);
      this.expectSymbol(')');
      return { kind: 'Subquery', query, location };
    }
    if (this.atSymbol(',')) {
      const items = [first];
      while (this.acceptSymbol(',')) items.push(yield this.expressionSteps());
      this.expectSymbol(')');
      return { kind: 'Row', items, location };
    }
    this.expectSymbol(')');
    return first;
  }
}

/** `a.b.c` as its identifiers, or undefined when the expression is not a plain name chain. */
function nameParts(e: Expression): Identifier[] | undefined {
  if (e.kind === 'Identifier') return [e];
  if (e.kind !== 'Dereference') return undefined;
  const base = nameParts(e.base);
  return base && [...base, e.field];
}

/** Chains of AND/OR longer than this become a balanced tree, so that a 10,000-term OR stays shallow. */
const BALANCE_LOGICAL_CHAINS_OVER = 64;
/**
 * The most terms an AND/OR chain may have: each term becomes generated code, and compiling 200,000
 * of them would hold the event loop for half a minute (an IN list of any length is one set lookup).
 */
export const MAX_LOGICAL_CHAIN_TERMS = 10_000;

/** How many levels the tree logicalChain builds over terms of these heights reaches. */
function logicalChainHeight(heights: readonly number[]): number {
  if (heights.length <= BALANCE_LOGICAL_CHAINS_OVER) {
    let height = heights[0]!;
    for (let i = 1; i < heights.length; i++) height = 1 + Math.max(height, heights[i]!);
    return height;
  }
  const balanced = (from: number, to: number): number => {
    if (to - from === 1) return heights[from]!;
    const middle = (from + to) >>> 1;
    return 1 + Math.max(balanced(from, middle), balanced(middle, to));
  };
  return balanced(0, heights.length);
}

/**
 * `a OR b OR c` as the left-deep tree Trino's grammar describes; a long chain as a balanced tree of
 * the same terms in the same order (AND and OR are associative, so the value is the same), whose
 * depth is logarithmic: every later phase walks expressions recursively.
 */
function logicalChain(operator: 'AND' | 'OR', terms: Expression[], locations: SourceLocation[]): Expression {
  if (terms.length > MAX_LOGICAL_CHAIN_TERMS) {
    throw new EngineError(
      'SYNTAX_ERROR',
      `${operator} chain has ${terms.length} terms; at most ${MAX_LOGICAL_CHAIN_TERMS} are supported (for many values of one expression, use IN (...), which has no such limit)`,
      locations[0],
    );
  }
  if (terms.length <= BALANCE_LOGICAL_CHAINS_OVER) {
    let left = terms[0]!;
    for (let i = 1; i < terms.length; i++) left = { kind: 'LogicalBinary', operator, left, right: terms[i]!, location: locations[i - 1]! };
    return left;
  }
  const balanced = (from: number, to: number): Expression => {
    if (to - from === 1) return terms[from]!;
    const middle = (from + to) >>> 1;
    return { kind: 'LogicalBinary', operator, left: balanced(from, middle), right: balanced(middle, to), location: locations[middle - 1]! };
  };
  return balanced(0, terms.length);
}

function negativeLiteral(literal: LongLiteral, location: SourceLocation): LongLiteral {
  return { kind: 'LongLiteral', value: -literal.value, text: `-${literal.text}`, location };
}
