// Queries: WITH, set operations (INTERSECT binds tighter than UNION / EXCEPT, all left-associative),
// SELECT blocks, VALUES, TABLE t, relations and joins, GROUP BY, WINDOW, ORDER BY / OFFSET / LIMIT.
// ORDER BY, OFFSET and LIMIT always go on the Query node (see ast.ts).

import { EngineError, notSupported, type SourceLocation } from '../../errors/engine-error.js';
import type {
  AllColumns,
  Expression,
  GroupBy,
  GroupingElement,
  Identifier,
  Join,
  Query,
  QueryBody,
  QuerySpecification,
  Relation,
  SelectItem,
  Values,
  WindowDefinition,
  With,
  WithQuery,
} from './ast.js';
import { ExpressionParser } from './expression-parser.js';
import { CLAUSE_WORDS, QUERY_START_WORDS } from './keywords.js';
import { TOO_DEEPLY_NESTED } from './parser-base.js';

export abstract class QueryParser extends ExpressionParser {
  protected override parseQuery(): Query {
    this.enter();
    const location = this.location();
    this.expect('<query>');
    const withClause = this.atKeyword('WITH') ? this.parseWith() : undefined;
    const query = this.parseQueryNoWith(location);
    if (withClause) query.with = withClause;
    return this.leave(query);
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
      if (this.acceptKeywords('WITH', 'TIES')) throw notSupported('FETCH FIRST ... WITH TIES is not supported', this.location(fetch));
      this.expectKeyword('ONLY');
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
    let left = this.parseIntersectLevel(first);
    while (this.atKeyword('UNION') || this.atKeyword('EXCEPT')) {
      const operator = this.advance().keyword as 'UNION' | 'EXCEPT';
      const distinct = this.parseSetQuantifier();
      left = { kind: 'SetOperation', operator, distinct, left, right: this.parseIntersectLevel(), location: left.location };
    }
    return left;
  }

  private parseIntersectLevel(first?: QueryBody): QueryBody {
    let left = first ?? this.parseQueryPrimary();
    while (this.atKeyword('INTERSECT')) {
      this.pos++;
      const distinct = this.parseSetQuantifier();
      left = { kind: 'SetOperation', operator: 'INTERSECT', distinct, left, right: this.parseQueryPrimary(), location: left.location };
    }
    return left;
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
    if (this.atSymbol('(')) {
      this.pos++;
      const query = this.parseQuery();
      this.expectSymbol(')');
      return { kind: 'SubqueryBody', query, location };
    }
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
    const prefixLength = this.allColumnsPrefixLength();
    if (prefixLength > 0) {
      const prefix = this.parseQualifiedName();
      this.pos += 2; // `.` `*`
      const all: AllColumns = { kind: 'AllColumns', prefix, location };
      return all;
    }
    const expression = this.parseExpression();
    const alias = this.parseOptionalAlias();
    return alias
      ? { kind: 'SelectExpression', expression, alias, location }
      : { kind: 'SelectExpression', expression, location };
  }

  /** Number of name parts when the tokens ahead read `a.b.*`, else 0. */
  private allColumnsPrefixLength(): number {
    let offset = 0;
    let parts = 0;
    while (this.isIdentifier(this.peek(offset)) && this.isSymbol('.', this.peek(offset + 1))) {
      parts++;
      offset += 2;
      if (this.isSymbol('*', this.peek(offset))) return parts;
    }
    return 0;
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
    for (const word of ['ROLLUP', 'CUBE'] as const) {
      if (this.atKeyword(word)) {
        this.pos++;
        const expressions = this.parseGroupingSet(true);
        return word === 'ROLLUP' ? { kind: 'Rollup', expressions, location } : { kind: 'Cube', expressions, location };
      }
    }
    if (this.acceptKeywords('GROUPING', 'SETS')) {
      this.expectSymbol('(');
      const sets = [this.parseGroupingSet(false)];
      while (this.acceptSymbol(',')) sets.push(this.parseGroupingSet(false));
      this.expectSymbol(')');
      return { kind: 'GroupingSets', sets, location };
    }
    return { kind: 'SimpleGroupBy', expressions: this.parseGroupingSet(false), location };
  }

  /** `()`, `(a, b)` or a single expression; `parenthesized` demands the parentheses (ROLLUP, CUBE). */
  private parseGroupingSet(parenthesized: boolean): Expression[] {
    if (this.isSymbol('(') && this.isSymbol(')', this.peek())) {
      this.pos += 2;
      return [];
    }
    if (parenthesized && !this.atSymbol('(')) this.fail();
    const startsWithParen = this.isSymbol('(');
    const expression = this.parseExpression();
    // `(a, b)` lists the set's expressions; `ROW(a, b)` stays one row-valued expression.
    if (startsWithParen && expression.kind === 'Row') return expression.items;
    if (parenthesized && !startsWithParen) this.fail();
    return [expression];
  }

  private parseWindowDefinition(): WindowDefinition {
    const name = this.parseIdentifier();
    this.expectKeyword('AS');
    return { kind: 'WindowDefinition', name, window: this.parseWindowSpecification(), location: name.location };
  }

  // --- relations ---

  protected parseRelation(): Relation {
    let left = this.parseAliasedRelation();
    while (true) {
      const location = left.location;
      if (this.acceptKeywords('CROSS', 'JOIN')) {
        left = { kind: 'Join', type: 'CROSS', left, right: this.parseAliasedRelation(), location };
        continue;
      }
      if (this.atKeyword('NATURAL')) {
        this.pos++;
        const type = this.parseJoinType();
        left = { kind: 'Join', type, left, right: this.parseAliasedRelation(), criteria: { kind: 'NaturalJoin' }, location };
        continue;
      }
      const joinWords = ['JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL'];
      if (!joinWords.some((w) => this.atKeyword(w))) return left;
      const type = this.parseJoinType();
      this.enter();
      const right = this.leave(this.parseRelation());
      const join: Join = { kind: 'Join', type, left, right, location };
      if (this.acceptKeyword('ON')) {
        join.criteria = { kind: 'JoinOn', expression: this.parseExpression() };
      } else if (this.atKeyword('USING')) {
        this.pos++;
        join.criteria = { kind: 'JoinUsing', columns: this.parseIdentifierList() };
      } else {
        this.fail();
      }
      left = join;
    }
  }

  /** [INNER] JOIN | LEFT [OUTER] JOIN | RIGHT [OUTER] JOIN | FULL [OUTER] JOIN */
  private parseJoinType(): Join['type'] {
    let type: Join['type'] = 'INNER';
    if (this.acceptKeyword('LEFT')) type = 'LEFT';
    else if (this.acceptKeyword('RIGHT')) type = 'RIGHT';
    else if (this.acceptKeyword('FULL')) type = 'FULL';
    else this.acceptKeyword('INNER');
    if (type !== 'INNER') this.acceptKeyword('OUTER');
    this.expectKeyword('JOIN');
    return type;
  }

  private parseAliasedRelation(): Relation {
    const relation = this.parseRelationPrimary();
    const alias = this.parseOptionalAlias();
    if (!alias) return relation;
    const aliased: Relation = { kind: 'AliasedRelation', relation, alias, location: relation.location };
    if (this.atSymbol('(')) aliased.columnNames = this.parseIdentifierList();
    return aliased;
  }

  private parseRelationPrimary(): Relation {
    const location = this.location();
    if (this.isKeyword('UNNEST') || this.isKeyword('LATERAL')) {
      throw notSupported(`${this.token.keyword} is not supported`, location);
    }
    if (!this.atSymbol('(')) {
      this.expect('<identifier>');
      if (!this.isIdentifier()) this.fail();
      return { kind: 'Table', name: this.parseQualifiedName(), location };
    }
    this.enter();
    return this.leave(this.parseParenthesizedRelation());
  }

  /** `(query)`, `(VALUES ...)` or a parenthesised join; a query is tried first when the text allows one. */
  private parseParenthesizedRelation(): Relation {
    const location = this.location();
    let offset = 1;
    while (this.isSymbol('(', this.peek(offset))) offset++;
    const first = this.peek(offset);
    const mayBeQuery = first.kind === 'identifier' && QUERY_START_WORDS.has(first.keyword);
    if (mayBeQuery && offset === 1) return this.subqueryRelation(location);
    if (mayBeQuery) {
      const start = this.pos;
      const depth = this.nestingDepth();
      try {
        return this.subqueryRelation(location);
      } catch (e) {
        if (!(e instanceof EngineError) || e.errorName !== 'SYNTAX_ERROR' || e.rawMessage === TOO_DEEPLY_NESTED) throw e;
        this.pos = start;
        this.nestingDepth(depth);
      }
    }
    this.expectSymbol('(');
    const relation = this.parseRelation();
    this.expectSymbol(')');
    return relation;
  }

  private subqueryRelation(location: SourceLocation): Relation {
    const query = this.parseParenthesizedQuery();
    const bareValues = query.body.kind === 'Values' && !query.with && query.orderBy.length === 0 && !query.limit && !query.offset;
    if (bareValues && query.body.kind === 'Values') return { kind: 'ValuesRelation', values: query.body, location };
    return { kind: 'SubqueryRelation', query, location };
  }
}
