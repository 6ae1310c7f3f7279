// Decisions of Trino's file-based system access control over the current rules: which catalogs,
// schemas, tables and columns a user may see and use, which queries they may run, view and kill,
// which session properties they may set, and whom they may impersonate. Checks throw
// PERMISSION_DENIED with Trino's wording; filters return what the user may see.

import type * as ast from '../../sql/parser/ast.js';
import { accessDenied, tableText, type TableName } from './access-denied.js';
import {
  firstMatch,
  fullMatch,
  implies,
  matchesName,
  matchesSubject,
  type AccessRules,
  type CatalogAccess,
  type Identity,
  type QueryAccessMode,
  type TablePrivilege,
  type TableRule,
} from './access-rules.js';

const INFORMATION_SCHEMA = 'information_schema';

export interface TableRestrictions {
  filter?: ast.Expression;
  masks: ReadonlyMap<string, ast.Expression>;
}

const NO_MASKS: ReadonlyMap<string, ast.Expression> = new Map();

export interface SchemaTable {
  schema: string;
  table: string;
}

export class FileAccessControl {
  constructor(
    /** The rules in force now (a reloaded file changes them). */
    private readonly rules: () => AccessRules,
    /** The groups of a user (from the group file; none without one). */
    private readonly groupsOf: (user: string) => readonly string[] = () => [],
  ) {}

  identity(user: string): Identity {
    return { user, groups: this.groupsOf(user) };
  }

  // --- catalogs ---------------------------------------------------------------------------------

  checkCanAccessCatalog(user: string, catalog: string): void {
    if (!this.canAccessCatalog(this.identity(user), catalog, 'read-only')) throw accessDenied(`Cannot access catalog ${catalog}`);
  }

  /** SHOW CATALOGS, and the catalogs a user may see anywhere: those where some rule grants them something. */
  filterCatalogs(user: string, catalogs: readonly string[]): string[] {
    const identity = this.identity(user);
    return catalogs.filter((c) => this.anyCatalogAccess(identity, c));
  }

  // --- schemas ----------------------------------------------------------------------------------

  checkCanShowSchemas(user: string, catalog: string): void {
    if (!this.anyCatalogAccess(this.identity(user), catalog)) throw accessDenied('Cannot show schemas');
  }

  filterSchemas(user: string, catalog: string, schemas: readonly string[]): string[] {
    const identity = this.identity(user);
    return schemas.filter((s) => this.anySchemaAccess(identity, catalog, s));
  }

  /** CREATE / DROP SCHEMA: the user must own the schema. `denial` is Trino's reason, e.g. "Cannot drop schema c.s". */
  checkSchemaOwnership(user: string, catalog: string, schema: string, denial: string): void {
    if (!this.isSchemaOwner(this.identity(user), catalog, schema)) throw accessDenied(denial);
  }

  checkCanShowTables(user: string, catalog: string, schema: string): void {
    if (!this.anySchemaAccess(this.identity(user), catalog, schema))
      throw accessDenied(`Cannot show tables of schema ${catalog}.${schema}`);
  }

  // --- tables -----------------------------------------------------------------------------------

  /** Tables and views a user may see: those of schemas they own and those they hold any privilege on. */
  filterTables<T extends SchemaTable>(user: string, catalog: string, tables: readonly T[]): T[] {
    const identity = this.identity(user);
    return tables.filter(
      (t) =>
        this.isSchemaOwner(identity, catalog, t.schema) || this.anyTablePermission(identity, { catalog, schema: t.schema, name: t.table }),
    );
  }

  checkCanShowColumns(user: string, table: TableName): void {
    if (!this.anyTablePermission(this.identity(user), table)) throw accessDenied(`Cannot show columns of table ${tableText(table)}`);
  }

  /** The columns a user may see: all of them with a privilege beyond SELECT, else those the rule does not deny. */
  filterColumns(user: string, table: TableName, columns: readonly string[]): string[] {
    const identity = this.identity(user);
    if (!this.anyTablePermission(identity, table)) return [];
    if (table.schema === INFORMATION_SCHEMA) return [...columns];
    const rule = this.tableRule(identity, table);
    if (rule === undefined || rule.privileges.size === 0) return [];
    if ([...rule.privileges].some((p) => p !== 'SELECT' && p !== 'GRANT_SELECT')) return [...columns];
    return columns.filter((c) => !rule.deniedColumns.has(c));
  }

  /**
   * Reading `columns` of a table or view. `asViewOwner`: the read is by the query of a view that runs
   * with its owner's rights (SECURITY DEFINER) for another user, so the owner also needs GRANT_SELECT
   * and full catalog access, as in Trino.
   */
  checkCanSelectFromColumns(user: string, table: TableName, columns: readonly string[], asViewOwner = false): void {
    this.checkCanAccessCatalog(user, table.catalog);
    const identity = this.identity(user);
    const denied = accessDenied(`Cannot select from table ${tableText(table)}`);
    if (asViewOwner && !this.canAccessCatalog(identity, table.catalog, 'all')) throw denied;
    if (table.schema === INFORMATION_SCHEMA) return;
    const rule = this.tableRule(identity, table);
    const selects =
      rule !== undefined &&
      (rule.privileges.has('SELECT') || rule.privileges.has('GRANT_SELECT')) &&
      !columns.some((c) => rule.deniedColumns.has(c));
    if (!selects) throw denied;
    if (asViewOwner && !rule.privileges.has('GRANT_SELECT'))
      throw accessDenied(`View owner '${user}' cannot create view that selects from ${tableText(table)}`);
  }

  /** The row filter and column masks the first table rule matching the user gives the table (none for information_schema). */
  restrictions(user: string, table: TableName): TableRestrictions {
    const rule = table.schema === INFORMATION_SCHEMA ? undefined : this.tableRule(this.identity(user), table);
    return { filter: rule?.filter, masks: rule?.masks ?? NO_MASKS };
  }

  /** A statement needing `privilege` on a table; `denial` is Trino's reason, e.g. "Cannot insert into table c.s.t". */
  checkTablePrivilege(user: string, table: TableName, privilege: TablePrivilege, denial: string): void {
    this.checkCanAccessCatalog(user, table.catalog);
    const required: CatalogAccess = privilege === 'SELECT' || privilege === 'GRANT_SELECT' ? 'read-only' : 'all';
    if (!this.tablePermission(this.identity(user), table, required, (p) => p.has(privilege))) throw accessDenied(denial);
  }

  // --- queries, session properties, impersonation -----------------------------------------------

  checkCanExecuteQuery(user: string): void {
    if (!this.queryAccess(this.identity(user), undefined, 'execute')) throw accessDenied('Cannot execute query');
  }

  /** Whether `user` may see queries of `owner` (everyone may see their own). */
  canViewQueryOwnedBy(user: string, owner: string): boolean {
    return user === owner || this.queryAccess(this.identity(user), owner, 'view');
  }

  canKillQueryOwnedBy(user: string, owner: string): boolean {
    return user === owner || this.queryAccess(this.identity(user), owner, 'kill');
  }

  checkCanSetSystemSessionProperty(user: string, property: string): void {
    const identity = this.identity(user);
    const rule = firstMatch(this.rules().systemSessionProperties, (r) => matchesSubject(r, identity) && matchesName(r.property, property));
    if (rule === undefined || !rule.allow) throw accessDenied(`Cannot set system session property ${property}`);
  }

  /** Whether `principal` may act as `user` (always as themselves); without impersonation rules nobody may act as another. */
  canImpersonate(principal: string, user: string): boolean {
    if (principal === user) return true;
    for (const rule of this.rules().impersonation ?? []) {
      if (rule.originalRole !== undefined) continue; // there are no roles: a role condition never matches
      let newUser = rule.newUser;
      if (rule.originalUser !== undefined) {
        if (!rule.originalUser.test(principal)) continue;
        newUser = principal.replace(rule.originalUser, rule.newUser);
      }
      if (fullMatch(newUser).test(user)) return rule.allow;
    }
    return false;
  }

  // --- the rules --------------------------------------------------------------------------------

  private canAccessCatalog(identity: Identity, catalog: string, required: CatalogAccess): boolean {
    const rule = firstMatch(this.rules().catalogs, (r) => matchesSubject(r, identity) && matchesName(r.catalog, catalog));
    return rule !== undefined && implies(rule.allow, required);
  }

  private anyCatalogAccess(identity: Identity, catalog: string): boolean {
    if (this.canAccessCatalog(identity, catalog, 'owner')) return true;
    if (!this.canAccessCatalog(identity, catalog, 'read-only')) return false;
    const rules = this.rules();
    return (
      rules.schemas.some((r) => r.owner && matchesSubject(r, identity) && matchesName(r.catalog, catalog)) ||
      rules.tables.some((r) => r.privileges.size > 0 && matchesSubject(r, identity) && matchesName(r.catalog, catalog))
    );
  }

  private anySchemaAccess(identity: Identity, catalog: string, schema: string): boolean {
    if (!this.canAccessCatalog(identity, catalog, 'read-only')) return false;
    if (schema === INFORMATION_SCHEMA) return this.anyCatalogAccess(identity, catalog);
    const rules = this.rules();
    const matches = (r: { catalog?: RegExp; schema?: RegExp }) => matchesName(r.catalog, catalog) && matchesName(r.schema, schema);
    return (
      rules.schemas.some((r) => r.owner && matchesSubject(r, identity) && matches(r)) ||
      rules.tables.some((r) => r.privileges.size > 0 && matchesSubject(r, identity) && matches(r))
    );
  }

  private isSchemaOwner(identity: Identity, catalog: string, schema: string): boolean {
    if (!this.canAccessCatalog(identity, catalog, 'all')) return false;
    const rule = firstMatch(
      this.rules().schemas,
      (r) => matchesSubject(r, identity) && matchesName(r.catalog, catalog) && matchesName(r.schema, schema),
    );
    return rule?.owner === true;
  }

  private tableRule(identity: Identity, table: TableName): TableRule | undefined {
    return firstMatch(
      this.rules().tables,
      (r) =>
        matchesSubject(r, identity) &&
        matchesName(r.catalog, table.catalog) &&
        matchesName(r.schema, table.schema) &&
        matchesName(r.table, table.name),
    );
  }

  private anyTablePermission(identity: Identity, table: TableName): boolean {
    return this.tablePermission(identity, table, 'read-only', (p) => p.size > 0);
  }

  private tablePermission(
    identity: Identity,
    table: TableName,
    required: CatalogAccess,
    check: (privileges: ReadonlySet<TablePrivilege>) => boolean,
  ): boolean {
    if (!this.canAccessCatalog(identity, table.catalog, required)) return false;
    if (table.schema === INFORMATION_SCHEMA) return true;
    const rule = this.tableRule(identity, table);
    return rule !== undefined && check(rule.privileges);
  }

  private queryAccess(identity: Identity, owner: string | undefined, mode: QueryAccessMode): boolean {
    const rules = this.rules().queries;
    if (rules === undefined) return true;
    const rule = firstMatch(
      rules,
      (r) => matchesSubject(r, identity) && (owner === undefined ? r.queryOwner === undefined : matchesName(r.queryOwner, owner)),
    );
    return rule?.allow.has(mode) === true;
  }
}
