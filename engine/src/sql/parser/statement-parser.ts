// Statements: queries, EXPLAIN, SHOW / DESCRIBE, session and prepared-statement commands, and DDL / DML.

import type { SourceLocation } from '../../errors/engine-error.js';
import type {
  ColumnDefinition,
  CreateIndex,
  CreateTable,
  CreateTableAsSelect,
  ExplainStatement,
  Expression,
  Identifier,
  Property,
  QualifiedName,
  Statement,
} from './ast.js';
import { QueryParser } from './query-parser.js';

const STATEMENT_WORDS = [
  'CREATE', 'DEALLOCATE', 'DELETE', 'DESC', 'DESCRIBE', 'DROP', 'EXECUTE', 'EXPLAIN', 'INSERT', 'PREPARE', 'RESET',
  'SELECT', 'SET', 'SHOW', 'TABLE', 'USE', 'VALUES', 'WITH',
];

export class StatementParser extends QueryParser {
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

  private parseStatement(): Statement {
    const location = this.location();
    for (const word of STATEMENT_WORDS) this.expect(`'${word}'`);
    this.expect(`'('`);
    if (this.startsQuery() || this.isSymbol('(')) return { kind: 'QueryStatement', query: this.parseQuery(), location };
    const word = this.token.kind === 'identifier' ? this.token.keyword : '';
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
        this.pos++;
        this.expectKeyword('SESSION');
        return this.parseSetSession(location);
      case 'RESET': {
        this.pos++;
        this.expectKeyword('SESSION');
        return { kind: 'ResetSession', name: this.parseQualifiedName(), location };
      }
      case 'PREPARE':
        return this.parsePrepare(location);
      case 'EXECUTE':
        return this.parseExecute(location);
      case 'DEALLOCATE':
        this.pos++;
        this.expectKeyword('PREPARE');
        return { kind: 'Deallocate', name: this.parseIdentifier(), location };
      case 'CREATE':
        return this.parseCreate(location);
      case 'DROP':
        return this.parseDrop(location);
      case 'INSERT':
        return this.parseInsert(location);
      case 'DELETE': {
        this.pos++;
        this.expectKeyword('FROM');
        const table = this.parseQualifiedName();
        const where = this.acceptKeyword('WHERE') ? this.parseExpression() : undefined;
        return { kind: 'Delete', table, ...(where ? { where } : {}), location };
      }
      default:
        this.fail();
    }
  }

  private parseExplain(location: SourceLocation): ExplainStatement {
    this.pos++;
    const analyze = this.acceptKeyword('ANALYZE');
    const verbose = this.acceptKeyword('VERBOSE');
    const explain: Omit<ExplainStatement, 'statement'> = { kind: 'Explain', analyze, verbose, location };
    const optionAhead = (this.isKeyword('TYPE', this.peek()) || this.isKeyword('FORMAT', this.peek())) && this.peek(2).kind === 'identifier';
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
    this.enter();
    return { ...explain, statement: this.leave(this.parseStatement()) };
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

  private parseShow(location: SourceLocation): Statement {
    this.pos++;
    if (this.acceptKeyword('CATALOGS')) return { kind: 'ShowCatalogs', ...this.parseLike(), location };
    if (this.acceptKeyword('SCHEMAS')) {
      const catalog = this.acceptKeyword('FROM') || this.acceptKeyword('IN') ? this.parseIdentifier() : undefined;
      return { kind: 'ShowSchemas', ...(catalog ? { catalog } : {}), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('TABLES')) {
      const schema = this.acceptKeyword('FROM') || this.acceptKeyword('IN') ? this.parseQualifiedName() : undefined;
      return { kind: 'ShowTables', ...(schema ? { schema } : {}), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('COLUMNS')) {
      if (!this.acceptKeyword('FROM')) this.expectKeyword('IN');
      return { kind: 'ShowColumns', table: this.parseQualifiedName(), ...this.parseLike(), location };
    }
    if (this.acceptKeyword('FUNCTIONS')) return { kind: 'ShowFunctions', ...this.parseLike(), location };
    if (this.acceptKeyword('SESSION')) return { kind: 'ShowSession', ...this.parseLike(), location };
    this.expectKeyword('CREATE');
    this.expectKeyword('TABLE');
    return { kind: 'ShowCreateTable', table: this.parseQualifiedName(), location };
  }

  /** DESCRIBE INPUT name, DESCRIBE OUTPUT name | (query), DESCRIBE table (a table may itself be named `input`). */
  private parseDescribe(location: SourceLocation): Statement {
    this.pos++;
    if (this.atKeyword('OUTPUT') && this.isSymbol('(', this.peek())) {
      this.pos += 2;
      const query = this.parseQuery();
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
    this.pos++;
    const first = this.parseIdentifier();
    if (!this.acceptSymbol('.')) return { kind: 'Use', schema: first, location };
    return { kind: 'Use', catalog: first, schema: this.parseIdentifier(), location };
  }

  private parseSetSession(location: SourceLocation): Statement {
    const name = this.parseQualifiedName();
    this.expectSymbol('=');
    return { kind: 'SetSession', name, value: this.parseExpression(), location };
  }

  /** PREPARE name FROM statement; `sql` is the statement's exact source text. */
  private parsePrepare(location: SourceLocation): Statement {
    this.pos++;
    const name = this.parseIdentifier();
    this.expectKeyword('FROM');
    const first = this.token;
    this.enter();
    const statement = this.leave(this.parseStatement());
    const last = this.tokens[this.pos - 1];
    return { kind: 'Prepare', name, statement, sql: this.sql.slice(first.start, last.end), location };
  }

  private parseExecute(location: SourceLocation): Statement {
    this.pos++;
    const name = this.parseIdentifier();
    const parameters = [];
    if (this.acceptKeyword('USING')) {
      parameters.push(this.parseExpression());
      while (this.acceptSymbol(',')) parameters.push(this.parseExpression());
    }
    return { kind: 'Execute', name, parameters, location };
  }

  private parseIfNotExists(): boolean {
    return this.acceptKeywords('IF', 'NOT', 'EXISTS');
  }

  private parseIfExists(): boolean {
    return this.acceptKeywords('IF', 'EXISTS');
  }

  private parseCreate(location: SourceLocation): Statement {
    this.pos++;
    if (this.acceptKeyword('SCHEMA')) {
      const notExists = this.parseIfNotExists();
      const name = this.parseQualifiedName();
      return { kind: 'CreateSchema', name, notExists, properties: this.parseOptionalProperties(), location };
    }
    if (this.isKeyword('INDEX') || (this.isKeyword('UNIQUE') && this.isKeyword('INDEX', this.peek()))) {
      return this.parseCreateIndex(location);
    }
    this.expectKeyword('TABLE');
    const notExists = this.parseIfNotExists();
    const name = this.parseQualifiedName();
    if (this.isSymbol('(') && !this.columnAliasesAhead()) return this.parseCreateTable(location, name, notExists);
    return this.parseCreateTableAsSelect(location, name, notExists);
  }

  /** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC|DESC], ...): see CreateIndex in ast.ts. */
  private parseCreateIndex(location: SourceLocation): CreateIndex {
    const unique = this.acceptKeyword('UNIQUE');
    this.expectKeyword('INDEX');
    const notExists = this.parseIfNotExists();
    const name = this.parseQualifiedName();
    this.expectKeyword('ON');
    const table = this.parseQualifiedName();
    this.expectSymbol('(');
    const columns: Identifier[] = [];
    do {
      columns.push(this.parseIdentifier());
      if (!this.acceptKeyword('ASC')) this.acceptKeyword('DESC');
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return { kind: 'CreateIndex', name, table, columns, unique, notExists, location };
  }

  /** `(a, b)` (CTAS column aliases) rather than `(a integer, ...)` column definitions. */
  private columnAliasesAhead(): boolean {
    return this.isIdentifier(this.peek()) && (this.isSymbol(',', this.peek(2)) || this.isSymbol(')', this.peek(2)));
  }

  private parseCreateTable(location: SourceLocation, name: QualifiedName, notExists: boolean): CreateTable {
    this.expectSymbol('(');
    const columns = [this.parseColumnDefinition()];
    while (this.acceptSymbol(',')) columns.push(this.parseColumnDefinition());
    this.expectSymbol(')');
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    return { kind: 'CreateTable', name, notExists, columns, properties, ...(comment !== undefined ? { comment } : {}), location };
  }

  private parseColumnDefinition(): ColumnDefinition {
    const name = this.parseIdentifier();
    const type = this.parseType();
    const nullable = !this.acceptKeywords('NOT', 'NULL');
    // PRIMARY KEY / UNIQUE: sqllogictest compatibility, see ColumnDefinition in ast.ts.
    const constraint = this.acceptKeywords('PRIMARY', 'KEY') ? 'PRIMARY KEY' : this.acceptKeyword('UNIQUE') ? 'UNIQUE' : undefined;
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    return {
      kind: 'ColumnDefinition',
      name,
      type,
      nullable,
      ...(comment !== undefined ? { comment } : {}),
      ...(constraint ? { constraint } : {}),
      ...(properties.length > 0 ? { properties } : {}),
      location: name.location,
    };
  }

  private parseCreateTableAsSelect(location: SourceLocation, name: QualifiedName, notExists: boolean): CreateTableAsSelect {
    const columnAliases: Identifier[] | undefined = this.atSymbol('(') ? this.parseIdentifierList() : undefined;
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    this.expectKeyword('AS');
    const query = this.parseQuery();
    let withData = true;
    if (this.acceptKeyword('WITH')) {
      withData = !this.acceptKeyword('NO');
      this.expectKeyword('DATA');
    }
    return {
      kind: 'CreateTableAsSelect',
      name,
      notExists,
      ...(columnAliases ? { columnAliases } : {}),
      query,
      withData,
      properties,
      ...(comment !== undefined ? { comment } : {}),
      location,
    };
  }

  private parseOptionalComment(): string | undefined {
    return this.acceptKeyword('COMMENT') ? this.parseStringValue() : undefined;
  }

  /** `WITH (name = value, ...)`; the WITH of `WITH [NO] DATA` is left alone. */
  private parseOptionalProperties(): Property[] {
    if (!this.atKeyword('WITH') || !this.isSymbol('(', this.peek())) return [];
    this.pos += 2;
    const properties = [this.parseProperty()];
    while (this.acceptSymbol(',')) properties.push(this.parseProperty());
    this.expectSymbol(')');
    return properties;
  }

  private parseProperty(): Property {
    const name = this.parseIdentifier();
    this.expectSymbol('=');
    const setToDefault = this.isKeyword('DEFAULT') && (this.isSymbol(',', this.peek()) || this.isSymbol(')', this.peek()));
    if (setToDefault) {
      this.pos++;
      return { kind: 'Property', name, location: name.location };
    }
    return { kind: 'Property', name, value: this.parseExpression(), location: name.location };
  }

  private parseDrop(location: SourceLocation): Statement {
    this.pos++;
    if (this.acceptKeyword('SCHEMA')) {
      const exists = this.parseIfExists();
      const name = this.parseQualifiedName();
      let cascade = false;
      if (this.acceptKeyword('CASCADE')) cascade = true;
      else this.acceptKeyword('RESTRICT');
      return { kind: 'DropSchema', name, exists, cascade, location };
    }
    this.expectKeyword('TABLE');
    const exists = this.parseIfExists();
    return { kind: 'DropTable', name: this.parseQualifiedName(), exists, location };
  }

  private parseInsert(location: SourceLocation): Statement {
    this.pos++;
    this.expectKeyword('INTO');
    const target = this.parseQualifiedName();
    const columns = this.isSymbol('(') && this.columnAliasesAhead() ? this.parseIdentifierList() : undefined;
    return { kind: 'Insert', target, ...(columns ? { columns } : {}), query: this.parseQuery(), location };
  }
}
