// Statements: the dispatch on the first word, queries (with WITH SESSION), EXPLAIN, SHOW /
// DESCRIBE, USE, SET / RESET, PREPARE / EXECUTE / DEALLOCATE, and the one-line statements
// (TRUNCATE, ANALYZE, REFRESH, CALL, START TRANSACTION, COMMIT, ROLLBACK). DDL, DML and access
// statements are parsed by the layers below.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { ExplainStatement, Expression, SessionProperty, Statement, WithSession } from './ast.js';
import { AccessParser } from './access-parser.js';
import { MAX_NESTING_DEPTH, NESTED_TOO_DEEPLY } from './parser-base.js';

const STATEMENT_WORDS = [
  'ALTER',
  'ANALYZE',
  'CALL',
  'COMMENT',
  'COMMIT',
  'CREATE',
  'DEALLOCATE',
  'DELETE',
  'DENY',
  'DESC',
  'DESCRIBE',
  'DROP',
  'EXECUTE',
  'EXPLAIN',
  'GRANT',
  'INSERT',
  'MERGE',
  'PREPARE',
  'REFRESH',
  'RESET',
  'REVOKE',
  'ROLLBACK',
  'SELECT',
  'SET',
  'SHOW',
  'START',
  'TABLE',
  'TRUNCATE',
  'UPDATE',
  'USE',
  'VALUES',
  'WITH',
];

export class StatementParser extends AccessParser {
  private nestedStatements = 0;

  /** One statement, an optional `;`, then the end of the input. */
  parseSingleStatement(): Statement {
    const statement = this.parseStatement();
    // Trino itself takes no `;`; it is not listed among the expected tokens.
    if (this.isSymbol(';')) this.pos++;
    if (!this.atEof()) this.fail();
    return statement;
  }

  /** One expression covering the whole input. */
  parseSingleExpression(): Expression {
    const expression = this.parseExpression();
    if (!this.atEof()) this.fail();
    return expression;
  }

  /**
   * The statement of EXPLAIN or PREPARE. Statements nest apart from the levels of the expressions and
   * queries in them (EXPLAIN of a query nested 1,000 levels deep is fine), under the same limit.
   */
  private parseNestedStatement(): Statement {
    if (++this.nestedStatements > MAX_NESTING_DEPTH) throw new EngineError('SYNTAX_ERROR', NESTED_TOO_DEEPLY, this.location());
    const statement = this.parseStatement();
    this.nestedStatements--;
    return statement;
  }

  private parseStatement(): Statement {
    const location = this.location();
    for (const word of STATEMENT_WORDS) this.expect(`'${word}'`);
    this.expect(`'('`);
    if (this.withSessionAhead()) {
      const session = this.parseWithSession();
      return { kind: 'QueryStatement', query: this.parseRootQuery(), session, location };
    }
    if (this.startsQuery() || this.isSymbol('(')) return { kind: 'QueryStatement', query: this.parseRootQuery(), location };
    const word = this.token.kind === 'identifier' ? this.token.keyword : '';
    if (!STATEMENT_WORDS.includes(word)) this.fail();
    this.pos++;
    switch (word) {
      case 'EXPLAIN':
        return this.parseExplain(location);
      case 'SHOW':
        return this.parseShow(location);
      case 'DESCRIBE':
      case 'DESC':
        return this.parseDescribe(location);
      case 'USE':
        return this.parseUse(location);
      case 'SET':
        return this.parseSet(location);
      case 'RESET':
        this.expectKeyword('SESSION');
        if (this.isKeyword('AUTHORIZATION') && !this.isSymbol('.', this.peek())) {
          this.pos++;
          return { kind: 'ResetSessionAuthorization', location };
        }
        return { kind: 'ResetSession', name: this.parseQualifiedName(), location };
      case 'PREPARE':
        return this.parsePrepare(location);
      case 'EXECUTE':
        return this.parseExecute(location);
      case 'DEALLOCATE':
        this.expectKeyword('PREPARE');
        return { kind: 'Deallocate', name: this.parseIdentifier(), location };
      case 'CREATE':
        return this.parseCreate(location);
      case 'DROP':
        if (this.acceptKeyword('ROLE')) return this.parseDropRole(location);
        return this.parseDropObject(location) ?? this.fail();
      case 'ALTER':
        return this.parseAlter(location);
      case 'INSERT':
        return this.parseInsert(location);
      case 'DELETE':
        return this.parseDelete(location);
      case 'UPDATE':
        return this.parseUpdate(location);
      case 'MERGE':
        return this.parseMerge(location);
      case 'TRUNCATE':
        this.expectKeyword('TABLE');
        return { kind: 'TruncateTable', table: this.parseQualifiedName(), location };
      case 'COMMENT':
        return this.parseComment(location);
      case 'ANALYZE':
        return { kind: 'Analyze', table: this.parseQualifiedName(), properties: this.parseOptionalProperties(), location };
      case 'REFRESH':
        this.expectKeywords('MATERIALIZED', 'VIEW');
        return { kind: 'RefreshMaterializedView', name: this.parseQualifiedName(), location };
      case 'CALL':
        return { kind: 'Call', name: this.parseQualifiedName(), arguments: this.parseArgumentList(), location };
      case 'GRANT':
        return this.parseGrant(location);
      case 'REVOKE':
        return this.parseRevoke(location);
      case 'DENY':
        return this.parseDeny(location);
      case 'START':
        this.expectKeyword('TRANSACTION');
        return this.parseStartTransaction(location);
      case 'COMMIT':
        this.acceptKeyword('WORK');
        return { kind: 'Commit', location };
      case 'ROLLBACK':
        this.acceptKeyword('WORK');
        return { kind: 'Rollback', location };
      default:
        this.fail();
    }
  }

  /** `WITH SESSION name = ...` (rather than a WITH query named session). */
  private withSessionAhead(): boolean {
    if (!this.isKeyword('WITH') || !this.isKeyword('SESSION', this.peek())) return false;
    let offset = 2;
    while (this.isIdentifier(this.peek(offset)) && this.isSymbol('.', this.peek(offset + 1))) offset += 2;
    return this.isIdentifier(this.peek(offset)) && this.isSymbol('=', this.peek(offset + 1));
  }

  private parseWithSession(): WithSession {
    const location = this.location(this.advance());
    this.pos++;
    const properties = this.parseCommaList((): SessionProperty => {
      const name = this.parseQualifiedName();
      this.expectSymbol('=');
      return { kind: 'SessionProperty', name, value: this.parseExpression(), location: name.location };
    });
    return { kind: 'WithSession', properties, location };
  }

  private parseExplain(location: SourceLocation): ExplainStatement {
    const analyze = this.acceptKeyword('ANALYZE');
    const verbose = this.acceptKeyword('VERBOSE');
    const explain: Omit<ExplainStatement, 'statement'> = { kind: 'Explain', analyze, verbose, location };
    const optionAhead =
      (this.isKeyword('TYPE', this.peek()) || this.isKeyword('FORMAT', this.peek())) && this.peek(2).kind === 'identifier';
    if (this.isSymbol('(') && optionAhead) {
      this.pos++;
      do {
        if (this.acceptKeyword('TYPE')) {
          explain.type = this.parseChoice(['LOGICAL', 'DISTRIBUTED', 'VALIDATE', 'IO'] as const);
        } else {
          this.expectKeyword('FORMAT');
          explain.format = this.parseChoice(['TEXT', 'GRAPHVIZ', 'JSON'] as const);
        }
      } while (this.acceptSymbol(','));
      this.expectSymbol(')');
    }
    return { ...explain, statement: this.parseNestedStatement() };
  }

  private parseChoice<T extends string>(choices: readonly T[]): T {
    const choice = choices.find((c) => this.atKeyword(c));
    if (choice === undefined) this.fail();
    this.pos++;
    return choice;
  }

  /** `LIKE 'pattern' [ESCAPE 'e']` */
  private parseLike(): { like?: string; escape?: string } {
    if (!this.acceptKeyword('LIKE')) return {};
    const like = this.parseStringValue();
    return this.acceptKeyword('ESCAPE') ? { like, escape: this.parseStringValue() } : { like };
  }

  private acceptFromOrIn(): boolean {
    return this.acceptKeyword('FROM') || this.acceptKeyword('IN');
  }

  private parseShow(location: SourceLocation): Statement {
    if (this.acceptKeyword('CATALOGS')) return { kind: 'ShowCatalogs', ...this.parseLike(), location };
    if (this.acceptKeyword('SCHEMAS')) {
      const catalog = this.acceptFromOrIn() ? this.parseIdentifier() : undefined;
      return { kind: 'ShowSchemas', ...(catalog ? { catalog } : {}), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('TABLES')) {
      const schema = this.acceptFromOrIn() ? this.parseQualifiedName() : undefined;
      return { kind: 'ShowTables', ...(schema ? { schema } : {}), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('COLUMNS')) {
      if (!this.acceptFromOrIn()) this.fail();
      return { kind: 'ShowColumns', table: this.parseQualifiedName(), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('FUNCTIONS')) {
      const schema = this.acceptFromOrIn() ? this.parseQualifiedName() : undefined;
      return { kind: 'ShowFunctions', ...(schema ? { schema } : {}), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('SESSION')) return { kind: 'ShowSession', ...this.parseLike(), location };
    if (this.acceptKeyword('STATS')) {
      this.expectKeyword('FOR');
      if (!this.atSymbol('(')) return { kind: 'ShowStats', target: this.parseQualifiedName(), location };
      this.pos++;
      const query = this.parseRootQuery();
      this.expectSymbol(')');
      return { kind: 'ShowStats', target: query, location };
    }
    if (this.acceptKeyword('GRANTS')) return this.parseShowGrants(location);
    if (this.acceptKeywords('CURRENT', 'ROLES')) return this.parseShowRoles(location, true);
    if (this.acceptKeyword('ROLES')) return this.parseShowRoles(location, false);
    if (this.acceptKeywords('ROLE', 'GRANTS')) return this.parseShowRoleGrants(location);
    if (this.acceptKeyword('BRANCHES')) {
      if (!this.acceptFromOrIn()) this.fail();
      this.expectKeyword('TABLE');
      return { kind: 'ShowBranches', table: this.parseQualifiedName(), location };
    }
    this.expectKeyword('CREATE');
    if (this.acceptKeyword('TABLE')) return { kind: 'ShowCreateTable', table: this.parseQualifiedName(), location };
    const target = this.acceptKeywords('MATERIALIZED', 'VIEW')
      ? 'MATERIALIZED VIEW'
      : (['SCHEMA', 'VIEW', 'FUNCTION'] as const).find((w) => this.atKeyword(w));
    if (!target) this.fail();
    if (target !== 'MATERIALIZED VIEW') this.pos++;
    return { kind: 'ShowCreate', target, name: this.parseQualifiedName(), location };
  }

  /** DESCRIBE INPUT name, DESCRIBE OUTPUT name | (query), DESCRIBE table (a table may itself be named `input`). */
  private parseDescribe(location: SourceLocation): Statement {
    if (this.isKeyword('OUTPUT') && this.isSymbol('(', this.peek())) {
      this.pos += 2;
      const query = this.parseRootQuery();
      this.expectSymbol(')');
      return { kind: 'DescribeOutput', query, location };
    }
    if (this.isIdentifier(this.peek())) {
      if (this.acceptKeyword('INPUT')) return { kind: 'DescribeInput', name: this.parseIdentifier(), location };
      if (this.acceptKeyword('OUTPUT')) return { kind: 'DescribeOutput', name: this.parseIdentifier(), location };
    }
    return { kind: 'ShowColumns', table: this.parseQualifiedName(), location };
  }

  private parseUse(location: SourceLocation): Statement {
    const first = this.parseIdentifier();
    if (!this.acceptSymbol('.')) return { kind: 'Use', schema: first, location };
    return { kind: 'Use', catalog: first, schema: this.parseIdentifier(), location };
  }

  /** After SET: SESSION [AUTHORIZATION], ROLE, PATH or TIME ZONE. */
  private parseSet(location: SourceLocation): Statement {
    if (this.acceptKeyword('ROLE')) return this.parseSetRole(location);
    if (this.acceptKeyword('PATH')) return this.parseSetPath(location);
    if (this.acceptKeywords('TIME', 'ZONE')) return this.parseSetTimeZone(location);
    this.expectKeyword('SESSION');
    // A session property may itself be named `authorization`.
    if (this.isKeyword('AUTHORIZATION') && !this.isSymbol('=', this.peek()) && !this.isSymbol('.', this.peek())) {
      this.pos++;
      return this.parseSetSessionAuthorization(location);
    }
    const name = this.parseQualifiedName();
    this.expectSymbol('=');
    return { kind: 'SetSession', name, value: this.parseExpression(), location };
  }

  /** PREPARE name FROM statement; `sql` is the statement's exact source text. */
  private parsePrepare(location: SourceLocation): Statement {
    const name = this.parseIdentifier();
    this.expectKeyword('FROM');
    const first = this.token;
    const statement = this.parseNestedStatement();
    const last = this.tokens[this.pos - 1];
    return { kind: 'Prepare', name, statement, sql: this.sql.slice(first.start, last.end), location };
  }

  /** EXECUTE name [USING ...] or EXECUTE IMMEDIATE 'sql' [USING ...]. */
  private parseExecute(location: SourceLocation): Statement {
    if (this.isKeyword('IMMEDIATE') && this.peek().kind === 'string') {
      const token = this.tokens[++this.pos];
      const statement = { kind: 'StringLiteral' as const, value: this.parseStringValue(), location: this.location(token) };
      return { kind: 'ExecuteImmediate', statement, parameters: this.parseUsing(), location };
    }
    const name = this.parseIdentifier();
    return { kind: 'Execute', name, parameters: this.parseUsing(), location };
  }

  /** `USING value, ...` of EXECUTE, or no values. */
  private parseUsing(): Expression[] {
    return this.acceptKeyword('USING') ? this.parseCommaList(() => this.parseExpression()) : [];
  }

  /** After CREATE. */
  private parseCreate(location: SourceLocation): Statement {
    if (this.acceptKeyword('CATALOG')) return this.parseCreateCatalog(location);
    if (this.acceptKeyword('SCHEMA')) return this.parseCreateSchema(location);
    if (this.acceptKeyword('ROLE')) return this.parseCreateRole(location);
    if (this.atKeyword('INDEX') || (this.atKeyword('UNIQUE') && this.isKeyword('INDEX', this.peek())))
      return this.parseCreateIndex(location);
    const replace = this.acceptKeywords('OR', 'REPLACE');
    if (this.acceptKeyword('TABLE')) return this.parseCreateTable(location, replace);
    if (this.acceptKeyword('VIEW')) return this.parseCreateView(location, replace);
    if (this.acceptKeywords('MATERIALIZED', 'VIEW')) return this.parseCreateMaterializedView(location, replace);
    if (this.acceptKeyword('BRANCH')) return this.parseCreateBranch(location, replace);
    if (!this.atKeyword('FUNCTION')) this.fail();
    return { kind: 'CreateFunction', replace, specification: this.parseFunctionSpecification(), location };
  }
}
