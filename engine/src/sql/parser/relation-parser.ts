// Relations of FROM: joins, aliases, TABLESAMPLE, MATCH_RECOGNIZE, and the primaries: tables (with
// FOR TIMESTAMP | VERSION AS OF), subqueries, VALUES, UNNEST, LATERAL, TABLE(table function),
// JSON_TABLE, NEAREST and parenthesised relations.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type {
  DescriptorArgument,
  DescriptorField,
  Expression,
  Identifier,
  Join,
  QualifiedName,
  Relation,
  RowsPerMatch,
  SortItem,
  TableArgument,
  TableFunctionArgument,
  TableFunctionInvocation,
} from './ast.js';
import { CLAUSE_WORDS, QUERY_START_WORDS } from './keywords.js';
import { isNestedTooDeeply } from './parser-base.js';
import { RoutineParser } from './routine-parser.js';

/** Words after `MATCH_RECOGNIZE (` that begin its clauses (otherwise MATCH_RECOGNIZE is an alias). */
const PATTERN_RECOGNITION_WORDS = ['PARTITION', 'ORDER', 'MEASURES', 'ONE', 'ALL', 'AFTER', 'INITIAL', 'SEEK', 'PATTERN'];

export abstract class RelationParser extends RoutineParser {
  protected parseRelation(): Relation {
    let left = this.parseSampledRelation();
    while (true) {
      const location = left.location;
      if (this.acceptKeywords('CROSS', 'JOIN')) {
        left = { kind: 'Join', type: 'CROSS', left, right: this.parseSampledRelation(), location };
        continue;
      }
      if (this.atKeyword('NATURAL')) {
        this.pos++;
        const type = this.parseJoinType();
        left = { kind: 'Join', type, left, right: this.parseSampledRelation(), criteria: { kind: 'NaturalJoin' }, location };
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

  /** relation [MATCH_RECOGNIZE (...) [alias]] [TABLESAMPLE BERNOULLI | SYSTEM (percentage)] */
  private parseSampledRelation(): Relation {
    let relation = this.parseAliasedRelation();
    if (this.patternRecognitionAhead()) relation = this.withAlias(this.parsePatternRecognition(relation));
    if (this.samplingAhead()) {
      const location = this.location(this.advance());
      const sampleType = this.advance().keyword as 'BERNOULLI' | 'SYSTEM';
      this.expectSymbol('(');
      const percentage = this.parseExpression();
      this.expectSymbol(')');
      relation = { kind: 'SampledRelation', relation, sampleType, percentage, location };
    }
    return relation;
  }

  private samplingAhead(): boolean {
    const sampleType = this.peek();
    return (
      this.isKeyword('TABLESAMPLE') &&
      (this.isKeyword('BERNOULLI', sampleType) || this.isKeyword('SYSTEM', sampleType)) &&
      this.isSymbol('(', this.peek(2))
    );
  }

  private patternRecognitionAhead(): boolean {
    if (!this.isKeyword('MATCH_RECOGNIZE') || !this.isSymbol('(', this.peek())) return false;
    const clause = this.peek(2);
    return (
      PATTERN_RECOGNITION_WORDS.some((w) => this.isKeyword(w, clause)) &&
      !this.isSymbol(',', this.peek(3)) &&
      !this.isSymbol(')', this.peek(3))
    );
  }

  private parseAliasedRelation(): Relation {
    return this.withAlias(this.parseRelationPrimary());
  }

  /** `relation [AS] alias [(columns)]`, or the relation when no alias follows. */
  private withAlias(relation: Relation): Relation {
    const alias = this.parseRelationAlias();
    if (!alias) return relation;
    const aliased: Relation = { kind: 'AliasedRelation', relation, alias, location: relation.location };
    if (this.atSymbol('(')) aliased.columnNames = this.parseIdentifierList();
    return aliased;
  }

  /**
   * An alias of a relation. Clause words are not, nor the non-reserved words that start what may
   * follow a relation: MATCH_RECOGNIZE, TABLESAMPLE, MATCH in NEAREST, and a table argument's
   * PARTITION BY, PRUNE / KEEP WHEN EMPTY.
   */
  private parseRelationAlias(): Identifier | undefined {
    if (this.acceptKeyword('AS')) return this.parseIdentifier();
    this.expect('<identifier>');
    if (!this.isIdentifier() || (this.token.kind === 'identifier' && CLAUSE_WORDS.has(this.token.keyword))) return undefined;
    if (this.patternRecognitionAhead() || this.samplingAhead()) return undefined;
    if (this.nearestRelation && this.isKeyword('MATCH')) return undefined;
    const next = this.peek();
    const tableArgumentClause =
      (this.isKeyword('PARTITION') && this.isKeyword('BY', next)) ||
      ((this.isKeyword('PRUNE') || this.isKeyword('KEEP')) && this.isKeyword('WHEN', next));
    if (tableArgumentClause) return undefined;
    return this.parseIdentifier();
  }

  /** While the relation of NEAREST(FROM ... MATCH ...) is read: MATCH ends it. */
  private nearestRelation = false;

  /** `input MATCH_RECOGNIZE ( [PARTITION BY] [ORDER BY] [MEASURES] [rows per match] [AFTER MATCH] ... PATTERN (...) [SUBSET] DEFINE ... )` */
  private parsePatternRecognition(input: Relation): Relation {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const partitionBy: Expression[] = this.acceptKeywords('PARTITION', 'BY') ? this.parseCommaList(() => this.parseExpression()) : [];
    const orderBy: SortItem[] = this.acceptKeywords('ORDER', 'BY') ? this.parseSortItems() : [];
    const measures = this.parseMeasures();
    const rowsPerMatch = this.parseRowsPerMatch();
    const clauses = this.parsePatternClauses();
    if (!clauses.pattern) this.expectKeyword('PATTERN');
    if (clauses.variableDefinitions.length === 0) this.expectKeyword('DEFINE');
    this.expectSymbol(')');
    const { pattern, ...rest } = clauses;
    if (!pattern) this.fail();
    return {
      kind: 'PatternRecognitionRelation',
      input,
      partitionBy,
      orderBy,
      measures,
      ...(rowsPerMatch ? { rowsPerMatch } : {}),
      pattern,
      ...rest,
      location,
    };
  }

  /** ONE ROW PER MATCH | ALL ROWS PER MATCH [SHOW EMPTY MATCHES | OMIT EMPTY MATCHES | WITH UNMATCHED ROWS] */
  private parseRowsPerMatch(): RowsPerMatch | undefined {
    if (this.acceptKeyword('ONE')) {
      this.expectKeywords('ROW', 'PER', 'MATCH');
      return 'ONE';
    }
    if (!this.acceptKeyword('ALL')) return undefined;
    this.expectKeywords('ROWS', 'PER', 'MATCH');
    if (this.acceptKeyword('SHOW')) {
      this.expectKeywords('EMPTY', 'MATCHES');
      return 'ALL_SHOW_EMPTY';
    }
    if (this.acceptKeyword('OMIT')) {
      this.expectKeywords('EMPTY', 'MATCHES');
      return 'ALL_OMIT_EMPTY';
    }
    if (this.acceptKeywords('WITH', 'UNMATCHED')) {
      this.expectKeyword('ROWS');
      return 'ALL_WITH_UNMATCHED';
    }
    return 'ALL';
  }

  private parseRelationPrimary(): Relation {
    const location = this.location();
    const next = this.peek();
    if (this.atKeyword('UNNEST')) return this.parseUnnest();
    if (this.isKeyword('LATERAL') && this.isSymbol('(', next)) {
      this.pos++;
      return { kind: 'Lateral', query: this.parseParenthesizedQuery(), location };
    }
    if (this.atKeyword('TABLE') && this.isSymbol('(', next)) return this.parseTableFunctionInvocation();
    if (this.atKeyword('JSON_TABLE')) return this.parseJsonTable();
    if (this.isKeyword('NEAREST') && this.isSymbol('(', next) && this.isKeyword('FROM', this.peek(2))) return this.parseNearest();
    if (!this.atSymbol('(')) {
      this.expect('<identifier>');
      if (!this.isIdentifier()) this.fail();
      const name = this.parseQualifiedName();
      if (!this.atKeyword('FOR')) return { kind: 'Table', name, location };
      const periodLocation = this.location(this.advance());
      const rangeType: 'TIMESTAMP' | 'VERSION' = this.atKeyword('TIMESTAMP') ? 'TIMESTAMP' : 'VERSION';
      this.expectKeyword(rangeType);
      this.expectKeywords('AS', 'OF');
      const queryPeriod = { kind: 'QueryPeriod' as const, rangeType, end: this.parseValueExpression(0), location: periodLocation };
      return { kind: 'Table', name, queryPeriod, location };
    }
    this.enter();
    return this.leave(this.parseParenthesizedRelation());
  }

  /** UNNEST(expression, ...) [WITH ORDINALITY] */
  private parseUnnest(): Relation {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const expressions = [this.parseExpression()];
    while (this.acceptSymbol(',')) expressions.push(this.parseExpression());
    this.expectSymbol(')');
    return { kind: 'Unnest', expressions, withOrdinality: this.acceptKeywords('WITH', 'ORDINALITY'), location };
  }

  /** NEAREST(FROM relation [WHERE condition] MATCH condition) */
  private parseNearest(): Relation {
    const location = this.location(this.advance());
    this.pos += 2;
    const outer = this.nearestRelation;
    this.nearestRelation = true;
    const relation = this.parseRelation();
    this.nearestRelation = outer;
    const where = this.acceptKeyword('WHERE') ? this.parseExpression() : undefined;
    this.expectKeyword('MATCH');
    const match = this.parseExpression();
    this.expectSymbol(')');
    return { kind: 'Nearest', relation, ...(where ? { where } : {}), match, location };
  }

  /** TABLE(name(argument, ... [COPARTITION (t1, t2), ...])) */
  private parseTableFunctionInvocation(): TableFunctionInvocation {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const name = this.parseQualifiedName();
    this.expectSymbol('(');
    const invocation: TableFunctionInvocation = { kind: 'TableFunctionInvocation', name, arguments: [], copartitioning: [], location };
    const copartitionAhead = () => this.isKeyword('COPARTITION') && this.isSymbol('(', this.peek());
    if (!this.atSymbol(')') && !copartitionAhead()) invocation.arguments = this.parseCommaList(() => this.parseTableFunctionArgument());
    if (this.acceptKeyword('COPARTITION')) invocation.copartitioning = this.parseCommaList(() => this.parseCopartitionTables());
    this.expectSymbol(')');
    this.expectSymbol(')');
    return invocation;
  }

  /** `[name =>] TABLE(...) ... | DESCRIPTOR(...) | CAST(NULL AS DESCRIPTOR) | expression` */
  private parseTableFunctionArgument(): TableFunctionArgument {
    const location = this.location();
    let name: Identifier | undefined;
    if (this.isIdentifier() && this.isSymbol('=>', this.peek())) {
      name = this.parseIdentifier();
      this.pos++;
    }
    const named = name ? { name } : {};
    if (this.isKeyword('TABLE') && this.isSymbol('(', this.peek()))
      return { kind: 'TableFunctionArgument', ...named, value: this.parseTableArgument(), location };
    const descriptor = this.parseDescriptorArgument();
    return { kind: 'TableFunctionArgument', ...named, value: descriptor ?? this.parseExpression(), location };
  }

  /** TABLE(name | query) [[AS] alias [(columns)]] [PARTITION BY ...] [PRUNE | KEEP WHEN EMPTY] [ORDER BY ...] */
  private parseTableArgument(): TableArgument {
    const location = this.location(this.advance());
    const open = this.location();
    let relation: Relation;
    if (this.queryAhead(1)) {
      relation = { kind: 'SubqueryRelation', query: this.parseParenthesizedQuery(), location: open };
    } else {
      this.expectSymbol('(');
      relation = { kind: 'Table', name: this.parseQualifiedName(), location: open };
      this.expectSymbol(')');
    }
    const argument: TableArgument = { kind: 'TableArgument', relation: this.withAlias(relation), location };
    if (this.acceptKeywords('PARTITION', 'BY')) argument.partitionBy = this.parseExpressionSet();
    for (const behavior of ['PRUNE', 'KEEP'] as const) {
      if (this.acceptKeyword(behavior)) {
        this.expectKeywords('WHEN', 'EMPTY');
        argument.emptyBehavior = behavior;
      }
    }
    if (this.acceptKeywords('ORDER', 'BY')) {
      const parenthesized = this.acceptSymbol('(');
      argument.orderBy = this.parseSortItems();
      if (parenthesized) this.expectSymbol(')');
    }
    return argument;
  }

  private parseDescriptorArgument(): DescriptorArgument | undefined {
    const location = this.location();
    if (this.isKeyword('DESCRIPTOR') && this.isSymbol('(', this.peek())) {
      this.pos++;
      const fields = this.parseEnclosedList('(', ')', (): DescriptorField => {
        const fieldLocation = this.location();
        const name = this.parseIdentifier();
        const type = this.atSymbol(',') || this.atSymbol(')') ? undefined : this.parseType();
        return { kind: 'DescriptorField', name, ...(type ? { type } : {}), location: fieldLocation };
      });
      return { kind: 'DescriptorArgument', fields, location };
    }
    const nullDescriptor = ['CAST', '(', 'NULL', 'AS', 'DESCRIPTOR', ')'];
    if (!nullDescriptor.every((word, i) => (word.length === 1 ? this.isSymbol(word, this.peek(i)) : this.isKeyword(word, this.peek(i)))))
      return undefined;
    this.pos += nullDescriptor.length;
    return { kind: 'DescriptorArgument', location };
  }

  /** `(t1, t2, ...)`: at least two tables. */
  private parseCopartitionTables(): QualifiedName[] {
    this.expectSymbol('(');
    const tables = [this.parseQualifiedName()];
    do {
      this.expectSymbol(',');
      tables.push(this.parseQualifiedName());
    } while (this.atSymbol(','));
    this.expectSymbol(')');
    return tables;
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
      const nesting = this.nestingState();
      const nearest = this.nearestRelation;
      try {
        return this.subqueryRelation(location);
      } catch (e) {
        if (!(e instanceof EngineError) || e.errorName !== 'SYNTAX_ERROR' || isNestedTooDeeply(e)) throw e;
        this.pos = start;
        this.restoreNesting(nesting);
        this.nearestRelation = nearest;
      }
    }
    this.expectSymbol('(');
    const relation = this.parseRelation();
    this.expectSymbol(')');
    return relation;
  }

  private subqueryRelation(location: SourceLocation): Relation {
    const query = this.parseQueryInParentheses();
    const bareValues = query.body.kind === 'Values' && !query.with && query.orderBy.length === 0 && !query.limit && !query.offset;
    if (bareValues && query.body.kind === 'Values') return { kind: 'ValuesRelation', values: query.body, location };
    return { kind: 'SubqueryRelation', query, location };
  }
}
