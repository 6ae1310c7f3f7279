// Statements about who may do what (roles, grants, the session's user) and about the session's
// transaction and context (START TRANSACTION, SET PATH, SET TIME ZONE, EXECUTE IMMEDIATE).

import type { Expression, Identifier, NodeBase, QualifiedName, StringLiteral } from './ast.js';

export type AccessStatement =
  | CreateRole
  | DropRole
  | GrantRoles
  | RevokeRoles
  | GrantPrivileges
  | RevokePrivileges
  | Deny
  | SetRole
  | ShowGrants
  | ShowRoles
  | ShowRoleGrants
  | SetSessionAuthorization
  | ResetSessionAuthorization
  | StartTransaction
  | Commit
  | Rollback
  | SetPath
  | SetTimeZone
  | ExecuteImmediate;

/** A principal: `USER name`, `ROLE name`, or a bare name. */
export interface Principal extends NodeBase {
  kind: 'Principal';
  type?: 'USER' | 'ROLE';
  name: Identifier;
}
/** GRANTED BY / WITH ADMIN: a principal, CURRENT_USER or CURRENT_ROLE. */
export type Grantor = Principal | CurrentGrantor;
export interface CurrentGrantor extends NodeBase {
  kind: 'CurrentGrantor';
  which: 'CURRENT_USER' | 'CURRENT_ROLE';
}
/** What privileges are on: `[BRANCH b IN] [TABLE | SCHEMA | kind] name`. */
export interface GrantObject extends NodeBase {
  kind: 'GrantObject';
  branch?: Identifier;
  /** Upper-cased as written: 'TABLE', 'SCHEMA' or another kind's name. */
  entityKind?: string;
  name: QualifiedName;
}
/** Privileges as written, upper-cased (SELECT, CREATE BRANCH, ...), or ALL PRIVILEGES. */
export type Privileges = string[] | 'ALL';

export interface CreateRole extends NodeBase {
  kind: 'CreateRole';
  name: Identifier;
  grantor?: Grantor;
  catalog?: Identifier;
}
export interface DropRole extends NodeBase {
  kind: 'DropRole';
  exists: boolean;
  name: Identifier;
  catalog?: Identifier;
}
export interface GrantRoles extends NodeBase {
  kind: 'GrantRoles';
  roles: Identifier[];
  grantees: Principal[];
  adminOption: boolean;
  grantor?: Grantor;
  catalog?: Identifier;
}
export interface RevokeRoles extends NodeBase {
  kind: 'RevokeRoles';
  adminOptionFor: boolean;
  roles: Identifier[];
  grantees: Principal[];
  grantor?: Grantor;
  catalog?: Identifier;
}
export interface GrantPrivileges extends NodeBase {
  kind: 'GrantPrivileges';
  privileges: Privileges;
  object: GrantObject;
  grantee: Principal;
  grantOption: boolean;
}
export interface RevokePrivileges extends NodeBase {
  kind: 'RevokePrivileges';
  grantOptionFor: boolean;
  privileges: Privileges;
  object: GrantObject;
  grantee: Principal;
}
export interface Deny extends NodeBase {
  kind: 'Deny';
  privileges: Privileges;
  object: GrantObject;
  grantee: Principal;
}
/** SET ROLE ALL | NONE | role [IN catalog] */
export interface SetRole extends NodeBase {
  kind: 'SetRole';
  role: Identifier | 'ALL' | 'NONE';
  catalog?: Identifier;
}
export interface ShowGrants extends NodeBase {
  kind: 'ShowGrants';
  object?: GrantObject;
}
/** SHOW [CURRENT] ROLES [FROM | IN catalog] */
export interface ShowRoles extends NodeBase {
  kind: 'ShowRoles';
  current: boolean;
  catalog?: Identifier;
}
export interface ShowRoleGrants extends NodeBase {
  kind: 'ShowRoleGrants';
  catalog?: Identifier;
}
/** SET SESSION AUTHORIZATION user | 'user' */
export interface SetSessionAuthorization extends NodeBase {
  kind: 'SetSessionAuthorization';
  user: Identifier | StringLiteral;
}
export interface ResetSessionAuthorization extends NodeBase {
  kind: 'ResetSessionAuthorization';
}

export interface StartTransaction extends NodeBase {
  kind: 'StartTransaction';
  modes: TransactionMode[];
}
export type TransactionMode =
  | {
      kind: 'IsolationLevel';
      level: 'READ UNCOMMITTED' | 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
      location: NodeBase['location'];
    }
  | { kind: 'AccessMode'; readOnly: boolean; location: NodeBase['location'] };
/** COMMIT [WORK] */
export interface Commit extends NodeBase {
  kind: 'Commit';
}
/** ROLLBACK [WORK] */
export interface Rollback extends NodeBase {
  kind: 'Rollback';
}
/** SET PATH catalog.schema, schema, ... */
export interface SetPath extends NodeBase {
  kind: 'SetPath';
  path: PathElement[];
}
export interface PathElement extends NodeBase {
  kind: 'PathElement';
  catalog?: Identifier;
  schema: Identifier;
}
/** SET TIME ZONE LOCAL (no value) | SET TIME ZONE expression */
export interface SetTimeZone extends NodeBase {
  kind: 'SetTimeZone';
  value?: Expression;
}
/** EXECUTE IMMEDIATE 'sql' [USING value, ...] */
export interface ExecuteImmediate extends NodeBase {
  kind: 'ExecuteImmediate';
  statement: StringLiteral;
  parameters: Expression[];
}
