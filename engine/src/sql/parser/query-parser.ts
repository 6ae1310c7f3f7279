// Queries: WITH [FUNCTION], set operations (INTERSECT binds tighter than UNION / EXCEPT, all
// left-associative, optionally CORRESPONDING), SELECT blocks, VALUES, TABLE t, GROUP BY, WINDOW,
// ORDER BY / OFFSET / LIMIT / FETCH. ORDER BY, OFFSET and LIMIT always go on the Query node (see ast.ts).

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type {
  Corresponding,
  Expression,
  GroupBy,
  GroupingElement,
  Identifier,
  Query,
  QueryBody,
  QuerySpecification,
  SelectItem,
  SetOperation,
  Values,
  WindowDefinition,
  With,
  WithQuery,
} from './ast.js';
import { CLAUSE_WORDS } from './keywords.js';
import { RelationParser } from './relation-parser.js';

export abstract class QueryParser extends RelationParser {
  /** A top-level query: `[WITH FUNCTION ..., FUNCTION ...] query` (CREATE VIEW, INSERT, CTAS, statements). */
  protected parseRootQuery(): Query {
    // `WITH function AS (...)` and `WITH function (a) AS (...)` are common table expressions named function.
    if (!this.isKeyword('WITH') || !this.isKeyword('FUNCTION', this.peek()) || !this.isIdentifier(this.peek(2))) {
      return this.parseQuery();
    }
    const location = this.location(this.advance());
    const functions = [this.parseFunctionSpecification()];
    while (this.acceptSymbol(',')) functions.push(this.parseFunctionSpecification());
    return { ...this.parseQuery(), functions, location };
  }

  /**
   * A query; where it nests in another, the parentheses around it are the level it counts. Queries
   * nest at most MAX_QUERY_NESTING_DEPTH deep: planning one takes many times the stack of an expression level.
   */
  protected override parseQuery(): Query {
    const location = this.location();
    this.expect('<query>');
    this.enterQuery(location);
    const withClause = this.atKeyword('WITH') ? this.parseWith() : undefined;
    const query = this.parseQueryNoWith(location);
    if (withClause) query.with = withClause;
    return this.leaveQuery(query);
  }

  private parseQueryNoWith(location: SourceLocation): Query {
    return this.finishQuery(this.parseUnionLevel(), location);
  }

  protected override continueQuery(first: QueryBody, location: SourceLocation): Query {
    return this.finishQuery(this.parseUnionLevel(first), location);
  }

  /** ORDER BY, OFFSET, LIMIT / FETCH FIRST after the body. */
  private finishQuery(body: QueryBody, location: SourceLocation): Query {
    const query: Query = { kind: 'Query', body, orderBy: [], location };
    if (this.acceptKeywords('ORDER', 'BY')) query.orderBy = this.parseSortItems();
    if (this.acceptKeyword('OFFSET')) {
      query.offset = this.parseRowCount();
      if (!this.acceptKeyword('ROW')) this.acceptKeyword('ROWS');
    }
    if (this.acceptKeyword('LIMIT')) {
      query.limit = this.acceptKeyword('ALL') ? 'ALL' : this.parseRowCount();
    } else if (this.atKeyword('FETCH')) {
      const fetch = this.advance();
      if (!this.acceptKeyword('FIRST')) this.expectKeyword('NEXT');
      const count: Expression =
        this.token.kind === 'integer' || this.token.kind === 'parameter'
          ? this.parseRowCount()
          : { kind: 'LongLiteral', value: 1n, text: '1', location: this.location(fetch) };
      if (!this.acceptKeyword('ROW')) this.expectKeyword('ROWS');
      if (this.acceptKeywords('WITH', 'TIES')) query.withTies = true;
      else this.expectKeyword('ONLY');
      query.limit = count;
    }
    return query;
  }

  /** An integer literal or `?`. */
  private parseRowCount(): Expression {
    const token = this.token;
    if (token.kind === 'parameter') {
      this.pos++;
      return { kind: 'Parameter', index: token.parameterIndex, location: this.location(token) };
    }
    this.expect('<integer>');
    if (token.kind !== 'integer') this.fail();
    this.pos++;
    return { kind: 'LongLiteral', value: BigInt(token.value), text: token.value, location: this.location(token) };
  }

  private parseWith(): With {
    const location = this.location(this.advance());
    const recursive = this.acceptKeyword('RECURSIVE');
    const queries = [this.parseWithQuery()];
    while (this.acceptSymbol(',')) queries.push(this.parseWithQuery());
    return { kind: 'With', recursive, queries, location };
  }

  private parseWithQuery(): WithQuery {
    const name = this.parseIdentifier();
    const columnAliases = this.atSymbol('(') ? this.parseIdentifierList() : undefined;
    this.expectKeyword('AS');
    const query = this.parseParenthesizedQuery();
    return { kind: 'WithQuery', name, ...(columnAliases ? { columnAliases } : {}), query, location: name.location };
  }

  private parseUnionLevel(first?: QueryBody): QueryBody {
    const outer = this.measure();
    const chain = new SetOperationChain(this.parseIntersectLevel(first), this.height(outer));
    while (this.atKeyword('UNION') || this.atKeyword('EXCEPT')) {
      const location = this.location();
      const operator = this.advance().keyword as 'UNION' | 'EXCEPT';
      this.continueChain(chain, operator, location, () => this.parseIntersectLevel());
    }
    return chain.body;
  }

  private parseIntersectLevel(first?: QueryBody): QueryBody {
    const outer = this.measure();
    const chain = new SetOperationChain(first ?? this.parseQueryPrimary(), this.height(outer));
    while (this.atKeyword('INTERSECT')) {
      const location = this.location(this.advance());
      this.continueChain(chain, 'INTERSECT', location, () => this.parseQueryPrimary());
    }
    return chain.body;
  }

  /** After a set operator: its quantifier, CORRESPONDING and the next input, added to `chain`. */
  private continueChain(
    chain: SetOperationChain,
    operator: SetOperation['operator'],
    location: SourceLocation,
    parseInput: () => QueryBody,
  ): void {
    const distinct = this.parseSetQuantifier();
    const corresponding = this.parseCorresponding();
    const outer = this.measure();
    const input = parseInput();
    chain.add(operator, distinct, corresponding, input, this.height(outer));
    this.reach(chain.height, location);
    const inputs = chain.body.kind === 'SetOperation' ? chain.body.inputs.length : 0;
    if (inputs > MAX_SET_OPERATION_INPUTS) {
      const quantifier = distinct ? '' : ' ALL';
      throw new EngineError(
        'SYNTAX_ERROR',
        `${operator}${quantifier} has more than ${MAX_SET_OPERATION_INPUTS} inputs; at most ${MAX_SET_OPERATION_INPUTS} are supported in one chain of the same set operator`,
        location,
      );
    }
  }

  /** `CORRESPONDING [BY (a, b)]` after a set operator. */
  private parseCorresponding(): { corresponding?: Corresponding } {
    if (!this.atKeyword('CORRESPONDING')) return {};
    const location = this.location(this.advance());
    const columns = this.acceptKeyword('BY') ? this.parseIdentifierList() : undefined;
    return { corresponding: { kind: 'Corresponding', ...(columns ? { columns } : {}), location } };
  }

  /** DISTINCT (the default) or ALL. */
  private parseSetQuantifier(): boolean {
    if (this.acceptKeyword('ALL')) return false;
    this.acceptKeyword('DISTINCT');
    return true;
  }

  private parseQueryPrimary(): QueryBody {
    const location = this.location();
    if (this.atKeyword('SELECT')) return this.parseQuerySpecification();
    if (this.atKeyword('VALUES')) return this.parseValues();
    if (this.atKeyword('TABLE')) {
      this.pos++;
      return { kind: 'Table', name: this.parseQualifiedName(), location };
    }
    if (this.atSymbol('(')) return { kind: 'SubqueryBody', query: this.parseParenthesizedQuery(), location };
    this.fail();
  }

  private parseValues(): Values {
    const location = this.location(this.advance());
    const rows = [this.parseExpression()];
    while (this.acceptSymbol(',')) rows.push(this.parseExpression());
    return { kind: 'Values', rows, location };
  }

  private parseQuerySpecification(): QuerySpecification {
    const location = this.location(this.advance());
    const distinct = this.parseSelectQuantifier();
    const items = [this.parseSelectItem()];
    while (this.acceptSymbol(',')) items.push(this.parseSelectItem());
    const spec: QuerySpecification = {
      kind: 'QuerySpecification',
      select: { kind: 'Select', distinct, items, location },
      windows: [],
      orderBy: [],
      location,
    };
    if (this.acceptKeyword('FROM')) {
      let from = this.parseRelation();
      while (this.atSymbol(',')) {
        this.pos++;
        from = { kind: 'Join', type: 'IMPLICIT', left: from, right: this.parseRelation(), location: from.location };
      }
      spec.from = from;
    }
    if (this.acceptKeyword('WHERE')) spec.where = this.parseExpression();
    if (this.atKeyword('GROUP')) spec.groupBy = this.parseGroupBy();
    if (this.acceptKeyword('HAVING')) spec.having = this.parseExpression();
    if (this.acceptKeyword('WINDOW')) {
      spec.windows.push(this.parseWindowDefinition());
      while (this.acceptSymbol(',')) spec.windows.push(this.parseWindowDefinition());
    }
    return spec;
  }

  private parseSelectQuantifier(): boolean {
    if (this.acceptKeyword('DISTINCT')) return true;
    this.acceptKeyword('ALL');
    return false;
  }

  private parseSelectItem(): SelectItem {
    const location = this.location();
    if (this.atSymbol('*')) {
      this.pos++;
      return { kind: 'AllColumns', location };
    }
    const expression = this.parseExpression();
    // `t.*` and `expression.*`, optionally `AS (a, b)`.
    if (expression.kind === 'AllColumns') {
      if (this.isKeyword('AS') && this.isSymbol('(', this.peek())) {
        this.pos++;
        return { ...expression, aliases: this.parseIdentifierList() };
      }
      return expression;
    }
    const alias = this.parseOptionalAlias();
    return alias ? { kind: 'SelectExpression', expression, alias, location } : { kind: 'SelectExpression', expression, location };
  }

  /** `AS name` or a bare `name` (clause words such as LIMIT are never read as a bare alias). */
  private parseOptionalAlias(): Identifier | undefined {
    if (this.acceptKeyword('AS')) return this.parseIdentifier();
    this.expect('<identifier>');
    if (this.isIdentifier() && !(this.token.kind === 'identifier' && CLAUSE_WORDS.has(this.token.keyword))) {
      return this.parseIdentifier();
    }
    return undefined;
  }

  private parseGroupBy(): GroupBy {
    const location = this.location(this.advance());
    this.expectKeyword('BY');
    let distinct = false;
    if (this.acceptKeyword('DISTINCT')) distinct = true;
    else this.acceptKeyword('ALL');
    const elements = [this.parseGroupingElement()];
    while (this.acceptSymbol(',')) elements.push(this.parseGroupingElement());
    return { kind: 'GroupBy', distinct, elements, location };
  }

  private parseGroupingElement(): GroupingElement {
    const location = this.location();
    if (this.acceptKeyword('AUTO')) return { kind: 'AutoGroupBy', location };
    for (const word of ['ROLLUP', 'CUBE'] as const) {
      if (this.atKeyword(word)) {
        this.pos++;
        // Each element is a grouping set: `ROLLUP ((a, b), c)` has the elements (a, b) and c.
        const elements = this.parseEnclosedList('(', ')', () => this.parseExpressionSet());
        return word === 'ROLLUP' ? { kind: 'Rollup', elements, location } : { kind: 'Cube', elements, location };
      }
    }
    if (this.acceptKeywords('GROUPING', 'SETS')) {
      this.expectSymbol('(');
      const sets = this.parseCommaList(() => this.parseExpressionSet());
      this.expectSymbol(')');
      return { kind: 'GroupingSets', sets, location };
    }
    return { kind: 'SimpleGroupBy', expressions: this.parseExpressionSet(), location };
  }

  private parseWindowDefinition(): WindowDefinition {
    const name = this.parseIdentifier();
    this.expectKeyword('AS');
    return { kind: 'WindowDefinition', name, window: this.parseWindowSpecification(), location: name.location };
  }
}

/**
 * The most inputs one chain of the same set operator may have: each is planned and compiled, and
 * 100,000 of them would hold the event loop for about ten seconds.
 */
export const MAX_SET_OPERATION_INPUTS = 10_000;

/**
 * A left-associative chain of set operations: inputs joined by the same operator, quantifier and
 * CORRESPONDING go into one SetOperation, however many (a UNION ALL of 10,000 SELECTs is one node,
 * not 10,000 nested ones); a change of operator nests the chain so far as the first input of a new
 * node, one level deeper.
 */
class SetOperationChain {
  /** Whether body is a SetOperation of this chain (not one its first input brought). */
  private built = false;

  /** `height`: the levels the first input nests. */
  constructor(
    public body: QueryBody,
    public height: number,
  ) {}

  /** Adds `input`, which nests `inputHeight` levels; the chain's height follows. */
  add(
    operator: SetOperation['operator'],
    distinct: boolean,
    corresponding: { corresponding?: Corresponding },
    input: QueryBody,
    inputHeight: number,
  ): void {
    const body = this.body;
    const same = this.built && body.kind === 'SetOperation' && body.operator === operator && body.distinct === distinct;
    if (same && body.corresponding === undefined && corresponding.corresponding === undefined) {
      body.inputs.push(input);
      this.height = Math.max(this.height, 1 + inputHeight);
      return;
    }
    this.body = { kind: 'SetOperation', operator, distinct, inputs: [body, input], ...corresponding, location: body.location };
    this.built = true;
    this.height = 1 + Math.max(this.height, inputHeight);
  }
}
