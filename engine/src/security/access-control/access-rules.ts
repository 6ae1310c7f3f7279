// The rules of a file-based access control (Trino's `file` system access control), compiled: each
// section is read top to bottom and the first rule whose conditions all match decides. A section the
// file leaves out allows everything (queries: everyone may view and kill every query; impersonation:
// nobody may impersonate), as in Trino.

import type * as ast from '../../sql/parser/ast.js';

/** Who asks: the user and the groups the group file puts them in. The engine has no roles. */
export interface Identity {
  user: string;
  groups: readonly string[];
}

/** A catalog rule's `allow`: `owner` implies `all`, which implies `read-only`. */
export type CatalogAccess = 'owner' | 'all' | 'read-only' | 'none';
export const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'DELETE', 'UPDATE', 'OWNERSHIP', 'GRANT_SELECT'] as const;
export type TablePrivilege = (typeof TABLE_PRIVILEGES)[number];
export const QUERY_ACCESS_MODES = ['execute', 'view', 'kill'] as const;
export type QueryAccessMode = (typeof QUERY_ACCESS_MODES)[number];

/** Conditions on who asks; an absent one matches everybody. A `role` condition matches nobody: there are no roles. */
export interface SubjectConditions {
  user?: RegExp;
  role?: RegExp;
  group?: RegExp;
}

export interface CatalogRule extends SubjectConditions {
  catalog?: RegExp;
  allow: CatalogAccess;
}

export interface SchemaRule extends SubjectConditions {
  catalog?: RegExp;
  schema?: RegExp;
  owner: boolean;
}

export interface TableRule extends SubjectConditions {
  catalog?: RegExp;
  schema?: RegExp;
  table?: RegExp;
  privileges: ReadonlySet<TablePrivilege>;
  /** Columns with `allow: false`: a query reading one of them is refused. */
  deniedColumns: ReadonlySet<string>;
  /** `filter`: only rows where it is true are read. */
  filter?: ast.Expression;
  /** Column `mask`s by column name: what a query reads in place of the column's values. */
  masks: ReadonlyMap<string, ast.Expression>;
}

export interface QueryRule extends SubjectConditions {
  queryOwner?: RegExp;
  allow: ReadonlySet<QueryAccessMode>;
}

export interface ImpersonationRule {
  originalUser?: RegExp;
  originalRole?: RegExp;
  /** A regex source; `$1`... refer to groups captured by originalUser. */
  newUser: string;
  allow: boolean;
}

export interface SessionPropertyRule extends SubjectConditions {
  property?: RegExp;
  allow: boolean;
}

export interface AccessRules {
  catalogs: readonly CatalogRule[];
  schemas: readonly SchemaRule[];
  tables: readonly TableRule[];
  /** Undefined: no `queries` section (everyone may execute, view and kill). */
  queries?: readonly QueryRule[];
  /** Undefined: no `impersonation` section (nobody impersonates another user). */
  impersonation?: readonly ImpersonationRule[];
  systemSessionProperties: readonly SessionPropertyRule[];
}

/** Whole-string match, as Java's Pattern.matches. */
export function fullMatch(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

export function matchesSubject(rule: SubjectConditions, identity: Identity): boolean {
  return (
    (rule.user === undefined || rule.user.test(identity.user)) &&
    rule.role === undefined &&
    (rule.group === undefined || identity.groups.some((g) => rule.group!.test(g)))
  );
}

export function matchesName(pattern: RegExp | undefined, name: string): boolean {
  return pattern === undefined || pattern.test(name);
}

/** The first rule that matches, or undefined. */
export function firstMatch<R>(rules: readonly R[], matches: (rule: R) => boolean): R | undefined {
  return rules.find(matches);
}

export function implies(granted: CatalogAccess, required: CatalogAccess): boolean {
  if (granted === 'owner') return required !== 'none';
  if (granted === 'all') return required === 'all' || required === 'read-only';
  return granted === required && granted !== 'none';
}
