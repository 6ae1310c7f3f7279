// CREATE, DROP and ALTER of catalogs, schemas, tables, views, materialized views, functions and
// branches; COMMENT, ANALYZE, REFRESH, TRUNCATE; and the statements that change rows: INSERT,
// DELETE, UPDATE, MERGE, CALL. Each method starts after the words its name says were read.

import type { SourceLocation } from '../../errors/engine-error.js';
import type {
  AddColumn,
  ColumnDefinition,
  CreateIndex,
  CreateTable,
  CreateTableAsSelect,
  Expression,
  Identifier,
  LikeClause,
  MergeCase,
  Principal,
  QualifiedName,
  Statement,
  UpdateAssignment,
} from './ast.js';
import { QueryParser } from './query-parser.js';

export abstract class DdlParser extends QueryParser {
  protected parseIfNotExists(): boolean {
    return this.acceptKeywords('IF', 'NOT', 'EXISTS');
  }

  protected parseIfExists(): boolean {
    return this.acceptKeywords('IF', 'EXISTS');
  }

  /** `identifier`, `USER identifier` or `ROLE identifier` */
  protected parsePrincipal(): Principal {
    const location = this.location();
    for (const type of ['USER', 'ROLE'] as const) {
      if (this.isKeyword(type) && this.isIdentifier(this.peek())) {
        this.pos++;
        return { kind: 'Principal', type, name: this.parseIdentifier(), location };
      }
    }
    return { kind: 'Principal', name: this.parseIdentifier(), location };
  }

  private parseOptionalComment(): { comment?: string } {
    return this.acceptKeyword('COMMENT') ? { comment: this.parseStringValue() } : {};
  }

  /** `@ branch` after a table name (INSERT, DELETE, UPDATE, MERGE). */
  private parseBranch(): { branch?: Identifier } {
    return this.acceptSymbol('@') ? { branch: this.parseIdentifier() } : {};
  }

  // --- CREATE ---

  /** After CREATE CATALOG. */
  protected parseCreateCatalog(location: SourceLocation): Statement {
    const notExists = this.parseIfNotExists();
    const name = this.parseIdentifier();
    this.expectKeyword('USING');
    const connector = this.parseIdentifier();
    const comment = this.parseOptionalComment();
    const authorization = this.acceptKeyword('AUTHORIZATION') ? { authorization: this.parsePrincipal() } : {};
    return {
      kind: 'CreateCatalog',
      name,
      notExists,
      connector,
      ...comment,
      ...authorization,
      properties: this.parseOptionalProperties(),
      location,
    };
  }

  /** After CREATE SCHEMA. */
  protected parseCreateSchema(location: SourceLocation): Statement {
    const notExists = this.parseIfNotExists();
    const name = this.parseQualifiedName();
    const authorization = this.acceptKeyword('AUTHORIZATION') ? { authorization: this.parsePrincipal() } : {};
    return { kind: 'CreateSchema', name, notExists, properties: this.parseOptionalProperties(), ...authorization, location };
  }

  /** After CREATE [OR REPLACE] TABLE. */
  protected parseCreateTable(location: SourceLocation, replace: boolean): Statement {
    const notExists = this.parseIfNotExists();
    const name = this.parseQualifiedName();
    const replacing = replace ? { replace } : {};
    if (this.isSymbol('(') && !this.columnAliasesAhead()) return { ...this.parseTableElements(location, name, notExists), ...replacing };
    return { ...this.parseCreateTableAsSelect(location, name, notExists), ...replacing };
  }

  /** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC|DESC], ...): see CreateIndex in ast.ts. */
  protected parseCreateIndex(location: SourceLocation): CreateIndex {
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

  /** `(a, b)` (column aliases of CTAS and INSERT) rather than `(a integer, ...)` column definitions. */
  protected columnAliasesAhead(): boolean {
    return this.isIdentifier(this.peek()) && (this.isSymbol(',', this.peek(2)) || this.isSymbol(')', this.peek(2)));
  }

  /** `(column definitions and LIKE clauses) [COMMENT] [WITH (...)]` */
  private parseTableElements(location: SourceLocation, name: QualifiedName, notExists: boolean): CreateTable {
    this.expectSymbol('(');
    const columns: ColumnDefinition[] = [];
    const likeClauses: LikeClause[] = [];
    do {
      if (this.atKeyword('LIKE')) likeClauses.push(this.parseLikeClause());
      else columns.push(this.parseColumnDefinition());
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    return {
      kind: 'CreateTable',
      name,
      notExists,
      columns,
      properties,
      ...comment,
      ...(likeClauses.length > 0 ? { likeClauses } : {}),
      location,
    };
  }

  private parseLikeClause(): LikeClause {
    const location = this.location(this.advance());
    const table = this.parseQualifiedName();
    const option = (['INCLUDING', 'EXCLUDING'] as const).find((w) => this.atKeyword(w));
    if (!option) return { kind: 'LikeClause', table, location };
    this.pos++;
    this.expectKeyword('PROPERTIES');
    return { kind: 'LikeClause', table, properties: option, location };
  }

  /** `name type [DEFAULT literal] [NOT NULL] [PRIMARY KEY | UNIQUE] [COMMENT '...'] [WITH (...)]`; a qualified name names a row field. */
  private parseColumnDefinition(): ColumnDefinition {
    const path = this.parseQualifiedName().parts;
    const name = path[path.length - 1];
    const type = this.parseType();
    const defaultValue = this.acceptKeyword('DEFAULT') ? this.parseValueExpression(0) : undefined;
    const nullable = !this.acceptKeywords('NOT', 'NULL');
    // PRIMARY KEY / UNIQUE: sqllogictest compatibility, see ColumnDefinition in ast.ts.
    const constraint = this.acceptKeywords('PRIMARY', 'KEY') ? 'PRIMARY KEY' : this.acceptKeyword('UNIQUE') ? 'UNIQUE' : undefined;
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    return {
      kind: 'ColumnDefinition',
      name,
      ...(path.length > 1 ? { fieldPath: path.slice(0, -1) } : {}),
      type,
      nullable,
      ...comment,
      ...(constraint ? { constraint } : {}),
      ...(defaultValue ? { defaultValue } : {}),
      ...(properties.length > 0 ? { properties } : {}),
      location: path[0].location,
    };
  }

  /**
   * `[(aliases)] [COMMENT] [WITH (...)] AS query [WITH [NO] DATA]`; without aliases or AS, a table
   * whose columns its connector reads from its data (beyond Trino: see Connector.infersTableColumns).
   */
  private parseCreateTableAsSelect(location: SourceLocation, name: QualifiedName, notExists: boolean): CreateTableAsSelect | CreateTable {
    const columnAliases: Identifier[] | undefined = this.atSymbol('(') ? this.parseIdentifierList() : undefined;
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    if (columnAliases === undefined && !this.atKeyword('AS') && (this.isSymbol(';') || this.atEof()))
      return { kind: 'CreateTable', name, notExists, columns: [], properties, ...comment, location };
    this.expectKeyword('AS');
    const query = this.parseRootQueryMaybeParenthesized();
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
      ...comment,
      location,
    };
  }

  /** `rootQuery` or `(rootQuery)` (a parenthesised query reads the same either way unless WITH FUNCTION is inside). */
  private parseRootQueryMaybeParenthesized() {
    if (this.isSymbol('(') && this.isKeyword('WITH', this.peek()) && this.isKeyword('FUNCTION', this.peek(2))) {
      this.pos++;
      const query = this.parseRootQuery();
      this.expectSymbol(')');
      return query;
    }
    return this.parseRootQuery();
  }

  /** After CREATE [OR REPLACE] VIEW. */
  protected parseCreateView(location: SourceLocation, replace: boolean): Statement {
    const name = this.parseQualifiedName();
    const comment = this.parseOptionalComment();
    const security = this.acceptKeyword('SECURITY') ? { security: this.parseSecurity() } : {};
    const properties = this.parseOptionalProperties();
    this.expectKeyword('AS');
    return { kind: 'CreateView', replace, name, ...comment, ...security, properties, query: this.parseRootQuery(), location };
  }

  /** After CREATE [OR REPLACE] MATERIALIZED VIEW. */
  protected parseCreateMaterializedView(location: SourceLocation, replace: boolean): Statement {
    const notExists = this.parseIfNotExists();
    const name = this.parseQualifiedName();
    let gracePeriod;
    if (this.acceptKeywords('GRACE', 'PERIOD')) {
      gracePeriod = this.parseSpecialForm('INTERVAL');
      if (gracePeriod?.kind !== 'IntervalLiteral') this.fail();
    }
    let whenStale: 'INLINE' | 'FAIL' | undefined;
    if (this.acceptKeywords('WHEN', 'STALE')) {
      whenStale = this.atKeyword('INLINE') ? 'INLINE' : 'FAIL';
      this.expectKeyword(whenStale);
    }
    const comment = this.parseOptionalComment();
    const properties = this.parseOptionalProperties();
    this.expectKeyword('AS');
    const query = this.parseRootQuery();
    return {
      kind: 'CreateMaterializedView',
      replace,
      notExists,
      name,
      ...(gracePeriod ? { gracePeriod } : {}),
      ...(whenStale ? { whenStale } : {}),
      ...comment,
      properties,
      query,
      location,
    };
  }

  /** After CREATE [OR REPLACE] BRANCH. */
  protected parseCreateBranch(location: SourceLocation, replace: boolean): Statement {
    const notExists = this.parseIfNotExists();
    const name = this.parseIdentifier();
    const properties = this.parseOptionalProperties();
    this.expectKeywords('IN', 'TABLE');
    const table = this.parseQualifiedName();
    const from = this.acceptKeyword('FROM') ? { from: this.parseIdentifier() } : {};
    return { kind: 'CreateBranch', replace, notExists, name, properties, table, ...from, location };
  }

  // --- DROP ---

  /** After DROP: CATALOG, SCHEMA, TABLE, VIEW, MATERIALIZED VIEW, FUNCTION or BRANCH (ROLE is an access statement). */
  protected parseDropObject(location: SourceLocation): Statement | undefined {
    if (this.acceptKeyword('CATALOG')) {
      const exists = this.parseIfExists();
      const name = this.parseIdentifier();
      return { kind: 'DropCatalog', name, exists, cascade: this.parseCascade(), location };
    }
    if (this.acceptKeyword('SCHEMA')) {
      const exists = this.parseIfExists();
      const name = this.parseQualifiedName();
      return { kind: 'DropSchema', name, exists, cascade: this.parseCascade(), location };
    }
    if (this.acceptKeyword('TABLE')) {
      const exists = this.parseIfExists();
      return { kind: 'DropTable', name: this.parseQualifiedName(), exists, location };
    }
    if (this.acceptKeyword('VIEW')) {
      const exists = this.parseIfExists();
      return { kind: 'DropView', exists, name: this.parseQualifiedName(), location };
    }
    if (this.acceptKeywords('MATERIALIZED', 'VIEW')) {
      const exists = this.parseIfExists();
      return { kind: 'DropMaterializedView', exists, name: this.parseQualifiedName(), location };
    }
    if (this.acceptKeyword('FUNCTION')) {
      const exists = this.parseIfExists();
      return { kind: 'DropFunction', exists, declaration: this.parseFunctionDeclaration(), location };
    }
    if (this.acceptKeyword('BRANCH')) {
      const exists = this.parseIfExists();
      const name = this.parseIdentifier();
      this.expectKeywords('IN', 'TABLE');
      return { kind: 'DropBranch', exists, name, table: this.parseQualifiedName(), location };
    }
    return undefined;
  }

  /** CASCADE (true) or RESTRICT / nothing (false). */
  private parseCascade(): boolean {
    if (this.acceptKeyword('CASCADE')) return true;
    this.acceptKeyword('RESTRICT');
    return false;
  }

  // --- ALTER ---

  /** After ALTER: SCHEMA, TABLE, VIEW, MATERIALIZED VIEW, BRANCH, or any kind `name SET AUTHORIZATION ...`. */
  protected parseAlter(location: SourceLocation): Statement {
    if (this.acceptKeyword('BRANCH')) {
      const source = this.parseIdentifier();
      this.expectKeywords('IN', 'TABLE');
      const table = this.parseQualifiedName();
      this.expectKeywords('FAST', 'FORWARD', 'TO');
      return { kind: 'FastForwardBranch', source, table, target: this.parseIdentifier(), location };
    }
    const entityKind = this.parseEntityKind();
    if (entityKind === 'TABLE') return this.parseAlterTable(location);
    const exists = entityKind === 'MATERIALIZED VIEW' && this.parseIfExists();
    const name = this.parseQualifiedName();
    if (this.acceptKeywords('SET', 'AUTHORIZATION'))
      return { kind: 'SetAuthorization', entityKind, name, principal: this.parsePrincipal(), location };
    if (entityKind === 'SCHEMA') {
      this.expectKeywords('RENAME', 'TO');
      return { kind: 'RenameSchema', source: name, target: this.parseIdentifier(), location };
    }
    if (entityKind === 'VIEW') {
      if (this.acceptKeyword('REFRESH')) return { kind: 'RefreshView', name, location };
      this.expectKeywords('RENAME', 'TO');
      return { kind: 'RenameView', source: name, target: this.parseQualifiedName(), location };
    }
    if (entityKind === 'MATERIALIZED VIEW') {
      if (this.acceptKeywords('SET', 'PROPERTIES'))
        return { kind: 'SetProperties', target: entityKind, name, properties: this.parsePropertyAssignments(), location };
      this.expectKeywords('RENAME', 'TO');
      return { kind: 'RenameMaterializedView', exists, source: name, target: this.parseQualifiedName(), location };
    }
    this.expectKeywords('SET', 'AUTHORIZATION');
    this.fail();
  }

  /** TABLE | SCHEMA | VIEW | MATERIALIZED VIEW | any identifier, upper-cased. */
  private parseEntityKind(): string {
    if (this.acceptKeyword('TABLE')) return 'TABLE';
    if (this.acceptKeywords('MATERIALIZED', 'VIEW')) return 'MATERIALIZED VIEW';
    for (const kind of ['SCHEMA', 'VIEW']) this.expect(`'${kind}'`);
    const word = this.parseIdentifier();
    return word.value.toUpperCase();
  }

  /** After ALTER TABLE. */
  private parseAlterTable(location: SourceLocation): Statement {
    const tableExists = this.parseIfExists();
    const table = this.parseQualifiedName();
    if (!tableExists) {
      if (this.acceptKeywords('SET', 'PROPERTIES'))
        return { kind: 'SetProperties', target: 'TABLE', name: table, properties: this.parsePropertyAssignments(), location };
      if (this.acceptKeywords('SET', 'AUTHORIZATION'))
        return { kind: 'SetAuthorization', entityKind: 'TABLE', name: table, principal: this.parsePrincipal(), location };
      if (this.acceptKeyword('EXECUTE')) return this.parseTableExecute(location, table);
    }
    if (this.acceptKeyword('RENAME')) {
      if (this.acceptKeyword('TO')) return { kind: 'RenameTable', tableExists, source: table, target: this.parseQualifiedName(), location };
      this.expectKeyword('COLUMN');
      const columnExists = this.parseIfExists();
      const source = this.parseQualifiedName();
      this.expectKeyword('TO');
      return { kind: 'RenameColumn', tableExists, table, columnExists, source, target: this.parseIdentifier(), location };
    }
    if (this.acceptKeywords('ADD', 'COLUMN')) return this.parseAddColumn(location, tableExists, table);
    if (this.acceptKeywords('DROP', 'COLUMN')) {
      const columnExists = this.parseIfExists();
      return { kind: 'DropColumn', tableExists, table, columnExists, column: this.parseQualifiedName(), location };
    }
    this.expectKeywords('ALTER', 'COLUMN');
    const column = this.parseQualifiedName();
    const alteration = { tableExists, table, column, location };
    if (this.acceptKeywords('SET', 'DEFAULT'))
      return { kind: 'SetColumnDefault', ...alteration, defaultValue: this.parseValueExpression(0) };
    if (this.acceptKeywords('SET', 'DATA')) {
      this.expectKeyword('TYPE');
      return { kind: 'SetColumnType', ...alteration, type: this.parseType() };
    }
    this.expectKeyword('DROP');
    if (this.acceptKeyword('DEFAULT')) return { kind: 'DropColumnDefault', ...alteration };
    this.expectKeywords('NOT', 'NULL');
    if (column.parts.length > 1) this.error('DROP NOT NULL takes an unqualified column name', this.tokens[this.pos - 1]);
    return { kind: 'DropNotNullConstraint', tableExists, table, column: column.parts[0], location };
  }

  private parseAddColumn(location: SourceLocation, tableExists: boolean, table: QualifiedName): AddColumn {
    const columnNotExists = this.parseIfNotExists();
    const statement: AddColumn = { kind: 'AddColumn', tableExists, table, columnNotExists, column: this.parseColumnDefinition(), location };
    if (this.acceptKeyword('FIRST')) statement.position = { kind: 'FIRST' };
    else if (this.acceptKeyword('LAST')) statement.position = { kind: 'LAST' };
    else if (this.acceptKeyword('AFTER')) statement.position = { kind: 'AFTER', column: this.parseIdentifier() };
    return statement;
  }

  /** After ALTER TABLE t EXECUTE: procedure [(arguments)] [WHERE ...] */
  private parseTableExecute(location: SourceLocation, table: QualifiedName): Statement {
    const procedure = this.parseIdentifier();
    const args = this.isSymbol('(') ? this.parseArgumentList() : [];
    const where = this.acceptKeyword('WHERE') ? { where: this.parseExpression() } : {};
    return { kind: 'TableExecute', table, procedure, arguments: args, ...where, location };
  }

  // --- other statements on tables ---

  /** After COMMENT: ON TABLE | VIEW | COLUMN name IS 'text' | NULL */
  protected parseComment(location: SourceLocation): Statement {
    this.expectKeyword('ON');
    const target = (['TABLE', 'VIEW', 'COLUMN'] as const).find((w) => this.atKeyword(w));
    if (!target) this.fail();
    this.pos++;
    const name = this.parseQualifiedName();
    this.expectKeyword('IS');
    const comment = this.acceptKeyword('NULL') ? null : this.parseStringValue();
    return { kind: 'Comment', target, name, comment, location };
  }

  /** After INSERT. */
  protected parseInsert(location: SourceLocation): Statement {
    this.expectKeyword('INTO');
    const target = this.parseQualifiedName();
    const branch = this.parseBranch();
    const columns = this.isSymbol('(') && this.columnAliasesAhead() ? this.parseIdentifierList() : undefined;
    return { kind: 'Insert', target, ...branch, ...(columns ? { columns } : {}), query: this.parseRootQuery(), location };
  }

  /** After DELETE. */
  protected parseDelete(location: SourceLocation): Statement {
    this.expectKeyword('FROM');
    const table = this.parseQualifiedName();
    const branch = this.parseBranch();
    const where = this.acceptKeyword('WHERE') ? { where: this.parseExpression() } : {};
    return { kind: 'Delete', table, ...branch, ...where, location };
  }

  /** After UPDATE: t [@ branch] SET a = 1, ... [WHERE ...] */
  protected parseUpdate(location: SourceLocation): Statement {
    const table = this.parseQualifiedName();
    const branch = this.parseBranch();
    this.expectKeyword('SET');
    const assignments = this.parseAssignments();
    const where = this.acceptKeyword('WHERE') ? { where: this.parseExpression() } : {};
    return { kind: 'Update', table, ...branch, assignments, ...where, location };
  }

  private parseAssignments(): UpdateAssignment[] {
    return this.parseCommaList(() => {
      const column = this.parseIdentifier();
      this.expectSymbol('=');
      return { kind: 'UpdateAssignment', column, value: this.parseExpression(), location: column.location };
    });
  }

  /** After MERGE: INTO t [@ branch] [[AS] alias] USING relation ON condition WHEN ... */
  protected parseMerge(location: SourceLocation): Statement {
    this.expectKeyword('INTO');
    const target = this.parseQualifiedName();
    const branch = this.parseBranch();
    const alias = this.acceptKeyword('AS') || (this.isIdentifier() && !this.isKeyword('USING')) ? { alias: this.parseIdentifier() } : {};
    this.expectKeyword('USING');
    const source = this.parseRelation();
    this.expectKeyword('ON');
    const on = this.parseExpression();
    const cases: MergeCase[] = [];
    do cases.push(this.parseMergeCase());
    while (this.atKeyword('WHEN'));
    return { kind: 'Merge', target, ...branch, ...alias, source, on, cases, location };
  }

  private parseMergeCase(): MergeCase {
    const location = this.location(this.expectKeyword('WHEN'));
    const matched = !this.acceptKeyword('NOT');
    this.expectKeyword('MATCHED');
    const condition: { condition?: Expression } = this.acceptKeyword('AND') ? { condition: this.parseExpression() } : {};
    this.expectKeyword('THEN');
    if (!matched) {
      this.expectKeyword('INSERT');
      const columns = this.atSymbol('(') ? { columns: this.parseIdentifierList() } : {};
      this.expectKeyword('VALUES');
      this.expectSymbol('(');
      const values = this.parseCommaList(() => this.parseExpression());
      this.expectSymbol(')');
      return { kind: 'MergeInsert', ...condition, ...columns, values, location };
    }
    if (this.acceptKeyword('DELETE')) return { kind: 'MergeDelete', ...condition, location };
    this.expectKeywords('UPDATE', 'SET');
    return { kind: 'MergeUpdate', ...condition, assignments: this.parseAssignments(), location };
  }
}
