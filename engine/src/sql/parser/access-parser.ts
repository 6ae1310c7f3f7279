// Roles and privileges (CREATE / DROP ROLE, GRANT, REVOKE, DENY, SET ROLE, SHOW GRANTS / ROLES /
// ROLE GRANTS, SET / RESET SESSION AUTHORIZATION), transactions (START TRANSACTION, COMMIT,
// ROLLBACK), SET PATH and SET TIME ZONE. Each method starts after the words its name says were read.

import type { SourceLocation } from '../../errors/engine-error.js';
import type { GrantObject, Grantor, Identifier, PathElement, Privileges, Statement, TransactionMode } from './ast.js';
import { DdlParser } from './ddl-parser.js';

/** Privileges that are reserved words (any other name is an identifier). */
const KEYWORD_PRIVILEGES = ['CREATE', 'SELECT', 'DELETE', 'INSERT', 'UPDATE'];

/** One name of a GRANT / REVOKE list, which is a privilege or a role depending on what follows it. */
interface PrivilegeOrRole {
  privilege: string;
  role: Identifier;
}

export abstract class AccessParser extends DdlParser {
  /** After CREATE ROLE. */
  protected parseCreateRole(location: SourceLocation): Statement {
    const name = this.parseIdentifier();
    const grantor = this.acceptKeywords('WITH', 'ADMIN') ? { grantor: this.parseGrantor() } : {};
    return { kind: 'CreateRole', name, ...grantor, ...this.parseInCatalog(), location };
  }

  /** After DROP ROLE. */
  protected parseDropRole(location: SourceLocation): Statement {
    const exists = this.parseIfExists();
    return { kind: 'DropRole', exists, name: this.parseIdentifier(), ...this.parseInCatalog(), location };
  }

  private parseInCatalog(): { catalog?: Identifier } {
    return this.acceptKeyword('IN') ? { catalog: this.parseIdentifier() } : {};
  }

  /** After FROM | IN, optionally: a catalog. */
  private parseFromCatalog(): { catalog?: Identifier } {
    return this.acceptKeyword('FROM') || this.acceptKeyword('IN') ? { catalog: this.parseIdentifier() } : {};
  }

  private parseGrantor(): Grantor {
    const location = this.location();
    for (const which of ['CURRENT_USER', 'CURRENT_ROLE'] as const) {
      if (this.acceptKeyword(which)) return { kind: 'CurrentGrantor', which, location };
    }
    return this.parsePrincipal();
  }

  /** After GRANT: roles TO principals ..., or privileges ON object TO principal ... */
  protected parseGrant(location: SourceLocation): Statement {
    const items = this.parsePrivilegesOrRoles();
    if (this.acceptKeyword('ON')) {
      const object = this.parseGrantObject();
      this.expectKeyword('TO');
      const grantee = this.parsePrincipal();
      return {
        kind: 'GrantPrivileges',
        privileges: this.privileges(items),
        object,
        grantee,
        grantOption: this.acceptKeywords('WITH', 'GRANT', 'OPTION'),
        location,
      };
    }
    const roles = this.roles(items);
    this.expectKeyword('TO');
    const grantees = this.parsePrincipals();
    const adminOption = this.acceptKeywords('WITH', 'ADMIN', 'OPTION');
    const grantor = this.acceptKeywords('GRANTED', 'BY') ? { grantor: this.parseGrantor() } : {};
    return { kind: 'GrantRoles', roles, grantees, adminOption, ...grantor, ...this.parseInCatalog(), location };
  }

  /** After REVOKE: [ADMIN OPTION FOR] roles FROM principals ..., or [GRANT OPTION FOR] privileges ON object FROM principal. */
  protected parseRevoke(location: SourceLocation): Statement {
    const adminOptionFor = this.acceptKeywords('ADMIN', 'OPTION', 'FOR');
    const grantOptionFor = !adminOptionFor && this.acceptKeywords('GRANT', 'OPTION', 'FOR');
    const items = this.parsePrivilegesOrRoles();
    if (!adminOptionFor && this.acceptKeyword('ON')) {
      const object = this.parseGrantObject();
      this.expectKeyword('FROM');
      return {
        kind: 'RevokePrivileges',
        grantOptionFor,
        privileges: this.privileges(items),
        object,
        grantee: this.parsePrincipal(),
        location,
      };
    }
    if (grantOptionFor) this.expectKeyword('ON');
    const roles = this.roles(items);
    this.expectKeyword('FROM');
    const grantees = this.parsePrincipals();
    const grantor = this.acceptKeywords('GRANTED', 'BY') ? { grantor: this.parseGrantor() } : {};
    return { kind: 'RevokeRoles', adminOptionFor, roles, grantees, ...grantor, ...this.parseInCatalog(), location };
  }

  /** After DENY: privileges ON object TO principal */
  protected parseDeny(location: SourceLocation): Statement {
    const privileges = this.privileges(this.parsePrivilegesOrRoles());
    this.expectKeyword('ON');
    const object = this.parseGrantObject();
    this.expectKeyword('TO');
    return { kind: 'Deny', privileges, object, grantee: this.parsePrincipal(), location };
  }

  /** ALL PRIVILEGES, or a list of privilege or role names (CREATE BRANCH is one privilege). */
  private parsePrivilegesOrRoles(): PrivilegeOrRole[] | 'ALL' {
    if (this.acceptKeywords('ALL', 'PRIVILEGES')) return 'ALL';
    const items: PrivilegeOrRole[] = [];
    do {
      const keyword = KEYWORD_PRIVILEGES.find((w) => this.atKeyword(w));
      if (keyword) {
        const token = this.advance();
        const privilege = keyword === 'CREATE' && this.acceptKeyword('BRANCH') ? 'CREATE BRANCH' : keyword;
        items.push({ privilege, role: { kind: 'Identifier', value: token.value, quoted: false, location: this.location(token) } });
      } else {
        const role = this.parseIdentifier();
        items.push({ privilege: role.value.toUpperCase(), role });
      }
    } while (this.acceptSymbol(','));
    return items;
  }

  private privileges(items: PrivilegeOrRole[] | 'ALL'): Privileges {
    return items === 'ALL' ? 'ALL' : items.map((i) => i.privilege);
  }

  /** The items as role names; ALL PRIVILEGES must be followed by ON. */
  private roles(items: PrivilegeOrRole[] | 'ALL'): Identifier[] {
    if (items === 'ALL') this.expectKeyword('ON');
    return (items as PrivilegeOrRole[]).map((i) => i.role);
  }

  private parsePrincipals() {
    const principals = [this.parsePrincipal()];
    while (this.acceptSymbol(',')) principals.push(this.parsePrincipal());
    return principals;
  }

  /** `[BRANCH b IN] [TABLE | SCHEMA | kind] name` */
  protected parseGrantObject(): GrantObject {
    const location = this.location();
    const branch = this.acceptKeyword('BRANCH') ? this.parseIdentifier() : undefined;
    if (branch) this.expectKeyword('IN');
    // A kind is present when a name follows the first word (TO and FROM end a bare name).
    const next = this.peek();
    const endsName = this.isKeyword('TO', next) || this.isKeyword('FROM', next);
    const kindAhead =
      this.isKeyword('TABLE') ||
      (this.isIdentifier(next) &&
        (!endsName || this.isKeyword('TO', this.peek(2)) || this.isKeyword('FROM', this.peek(2)) || this.isSymbol('.', this.peek(2))));
    const entityKind = kindAhead ? this.advance().value.toUpperCase() : undefined;
    return {
      kind: 'GrantObject',
      ...(branch ? { branch } : {}),
      ...(entityKind ? { entityKind } : {}),
      name: this.parseQualifiedName(),
      location,
    };
  }

  /** After SET ROLE: ALL | NONE | role [IN catalog] */
  protected parseSetRole(location: SourceLocation): Statement {
    const role = this.acceptKeyword('ALL') ? 'ALL' : this.acceptKeyword('NONE') ? 'NONE' : this.parseIdentifier();
    return { kind: 'SetRole', role, ...this.parseInCatalog(), location };
  }

  /** After SHOW GRANTS. */
  protected parseShowGrants(location: SourceLocation): Statement {
    return this.acceptKeyword('ON') ? { kind: 'ShowGrants', object: this.parseGrantObject(), location } : { kind: 'ShowGrants', location };
  }

  /** After SHOW [CURRENT] ROLES. */
  protected parseShowRoles(location: SourceLocation, current: boolean): Statement {
    return { kind: 'ShowRoles', current, ...this.parseFromCatalog(), location };
  }

  /** After SHOW ROLE GRANTS. */
  protected parseShowRoleGrants(location: SourceLocation): Statement {
    return { kind: 'ShowRoleGrants', ...this.parseFromCatalog(), location };
  }

  /** After SET SESSION AUTHORIZATION: a user name or a string. */
  protected parseSetSessionAuthorization(location: SourceLocation): Statement {
    const token = this.token;
    if (token.kind === 'string') {
      this.pos++;
      return {
        kind: 'SetSessionAuthorization',
        user: { kind: 'StringLiteral', value: token.value, location: this.location(token) },
        location,
      };
    }
    return { kind: 'SetSessionAuthorization', user: this.parseIdentifier(), location };
  }

  /** After START TRANSACTION: [mode, ...] */
  protected parseStartTransaction(location: SourceLocation): Statement {
    const modes: TransactionMode[] =
      this.atKeyword('ISOLATION') || this.atKeyword('READ') ? this.parseCommaList(() => this.parseTransactionMode()) : [];
    return { kind: 'StartTransaction', modes, location };
  }

  /** ISOLATION LEVEL READ UNCOMMITTED | READ COMMITTED | REPEATABLE READ | SERIALIZABLE, or READ ONLY | READ WRITE */
  private parseTransactionMode(): TransactionMode {
    const location = this.location();
    if (this.acceptKeyword('READ')) {
      const readOnly = this.acceptKeyword('ONLY');
      if (!readOnly) this.expectKeyword('WRITE');
      return { kind: 'AccessMode', readOnly, location };
    }
    this.expectKeywords('ISOLATION', 'LEVEL');
    if (this.acceptKeyword('SERIALIZABLE')) return { kind: 'IsolationLevel', level: 'SERIALIZABLE', location };
    if (this.acceptKeywords('REPEATABLE', 'READ')) return { kind: 'IsolationLevel', level: 'REPEATABLE READ', location };
    this.expectKeyword('READ');
    if (this.acceptKeyword('UNCOMMITTED')) return { kind: 'IsolationLevel', level: 'READ UNCOMMITTED', location };
    this.expectKeyword('COMMITTED');
    return { kind: 'IsolationLevel', level: 'READ COMMITTED', location };
  }

  /** After SET PATH: catalog.schema | schema, ... */
  protected parseSetPath(location: SourceLocation): Statement {
    const path = this.parseCommaList((): PathElement => {
      const elementLocation = this.location();
      const first = this.parseIdentifier();
      if (!this.acceptSymbol('.')) return { kind: 'PathElement', schema: first, location: elementLocation };
      return { kind: 'PathElement', catalog: first, schema: this.parseIdentifier(), location: elementLocation };
    });
    return { kind: 'SetPath', path, location };
  }

  /** After SET TIME ZONE: LOCAL | expression */
  protected parseSetTimeZone(location: SourceLocation): Statement {
    if (this.isKeyword('LOCAL') && (this.peek().kind === 'eof' || this.isSymbol(';', this.peek()))) {
      this.pos++;
      return { kind: 'SetTimeZone', location };
    }
    return { kind: 'SetTimeZone', value: this.parseExpression(), location };
  }
}
