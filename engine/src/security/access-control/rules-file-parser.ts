// Reads the JSON of a rules file into AccessRules, refusing what it cannot honour: a syntax error
// (named by line and column), an unknown section or field, a bad regex or value (named by its
// path in the file), and what Trino has but the engine does not do yet (NOT_SUPPORTED, named).

import { EngineError } from '../../errors/engine-error.js';
import { containsSubquery, rejectAggregatesAndWindows } from '../../sql/analyzer/ast-utils.js';
import type * as ast from '../../sql/parser/ast.js';
import { parseExpression } from '../../sql/parser/parser.js';
import { jsonSyntaxErrorPosition } from './json-syntax-position.js';
import {
  QUERY_ACCESS_MODES,
  TABLE_PRIVILEGES,
  fullMatch,
  type AccessRules,
  type CatalogAccess,
  type CatalogRule,
  type ImpersonationRule,
  type QueryAccessMode,
  type QueryRule,
  type SchemaRule,
  type SessionPropertyRule,
  type SubjectConditions,
  type TablePrivilege,
  type TableRule,
} from './access-rules.js';

/** Why a rules file cannot be used; the message names the place in the file. */
export class RulesFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RulesFileError';
  }
}

/** Sections Trino's file has that the engine does not enforce: refused, so that nobody believes them enforced. */
const UNSUPPORTED_SECTIONS: Readonly<Record<string, string>> = {
  principals: 'principal rules (deprecated in Trino: use impersonation rules)',
  system_information: 'system information rules',
  authorization: 'authorization rules',
  catalog_session_properties: 'catalog session property rules',
  functions: 'function rules',
  procedures: 'procedure rules',
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export function parseRulesText(text: string): AccessRules {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (e) {
    const at = jsonSyntaxErrorPosition(text);
    const where = at === undefined ? '' : `line ${at.line}:${at.column}: `;
    // JSON.parse's own offset (when it gives one) is 0-based and counts characters: the line and column say it better.
    const reason = (e as Error).message.split('\n')[0].replace(/ in JSON at position \d+.*$/, '');
    throw new RulesFileError(`${where}invalid JSON (${reason})`);
  }
  const root = object(json, '(the file)');
  for (const key of Object.keys(root)) {
    if (key in UNSUPPORTED_SECTIONS) throw new RulesFileError(`'${key}': ${UNSUPPORTED_SECTIONS[key]} are NOT_SUPPORTED`);
    if (!(key in SECTIONS)) throw new RulesFileError(`unknown section '${key}' (expected one of ${Object.keys(SECTIONS).join(', ')})`);
  }
  const section = <R>(name: keyof typeof SECTIONS, read: (rule: Fields, path: string) => R): R[] | undefined =>
    root[name] === undefined
      ? undefined
      : array(root[name], name).map((rule, i) =>
          read(new Fields(object(rule, `${name}[${i}]`), `${name}[${i}]`, SECTIONS[name]), `${name}[${i}]`),
        );
  return {
    // Without catalog rules every catalog is open; with them, the system catalog stays open after them (Trino's rule for its status checks).
    catalogs: withSystemCatalogOpen(section('catalogs', catalogRule)),
    schemas: section('schemas', schemaRule) ?? [{ owner: true }],
    tables: section('tables', tableRule) ?? [{ privileges: new Set(TABLE_PRIVILEGES), deniedColumns: new Set(), masks: new Map() }],
    queries: section('queries', queryRule),
    impersonation: section('impersonation', impersonationRule),
    systemSessionProperties: section('system_session_properties', sessionPropertyRule) ?? [{ allow: true }],
  };
}

const SUBJECT = ['user', 'role', 'group'];
const SECTIONS = {
  catalogs: [...SUBJECT, 'catalog', 'allow'],
  schemas: [...SUBJECT, 'catalog', 'schema', 'owner'],
  tables: [...SUBJECT, 'catalog', 'schema', 'table', 'privileges', 'columns', 'filter', 'filter_environment'],
  queries: [...SUBJECT, 'queryOwner', 'allow'],
  impersonation: ['original_user', 'originalUser', 'original_role', 'new_user', 'newUser', 'allow'],
  system_session_properties: [...SUBJECT, 'property', 'allow'],
} as const;

function withSystemCatalogOpen(rules: CatalogRule[] | undefined): CatalogRule[] {
  if (rules === undefined) return [{ allow: 'all' }];
  return [...rules, { catalog: fullMatch('system'), allow: 'all' }];
}

function catalogRule(f: Fields): CatalogRule {
  return { ...subject(f), catalog: f.regex('catalog'), allow: catalogAccess(f.required('allow'), `${f.path}.allow`) };
}

function schemaRule(f: Fields): SchemaRule {
  return { ...subject(f), catalog: f.regex('catalog'), schema: f.regex('schema'), owner: f.boolean('owner', false) };
}

function tableRule(f: Fields): TableRule {
  const privileges = array(f.required('privileges'), `${f.path}.privileges`).map((p, i) =>
    oneOf(p, TABLE_PRIVILEGES, `${f.path}.privileges[${i}]`, 'privilege'),
  );
  const deniedColumns = new Set<string>();
  const masks = new Map<string, ast.Expression>();
  const columns = f.has('columns') ? array(f.get('columns'), `${f.path}.columns`) : [];
  columns.forEach((c, i) => {
    const column = new Fields(object(c, `${f.path}.columns[${i}]`), `${f.path}.columns[${i}]`, [
      'name',
      'allow',
      'mask',
      'mask_environment',
    ]);
    const name = string(column.required('name'), `${column.path}.name`);
    if (!column.boolean('allow', false, true)) deniedColumns.add(name);
    if (column.has('mask')) masks.set(name, ruleExpression(column.get('mask'), `${column.path}.mask`, 'Column mask'));
    environment(column, 'mask_environment');
  });
  const filter = f.has('filter') ? ruleExpression(f.get('filter'), `${f.path}.filter`, 'Row filter') : undefined;
  environment(f, 'filter_environment');
  return {
    ...subject(f),
    catalog: f.regex('catalog'),
    schema: f.regex('schema'),
    table: f.regex('table'),
    privileges: new Set<TablePrivilege>(privileges),
    deniedColumns,
    filter,
    masks,
  };
}

/**
 * A row filter or column mask: a scalar SQL expression over the table's columns. Its subqueries (the
 * only part whose rights `*_environment` would decide) are NOT_SUPPORTED yet.
 */
function ruleExpression(value: Json, path: string, what: string): ast.Expression {
  const sql = string(value, path);
  let expression: ast.Expression;
  try {
    expression = parseExpression(sql);
    if (containsSubquery(expression)) throw new EngineError('NOT_SUPPORTED', `subqueries in ${what.toLowerCase()}s are NOT_SUPPORTED yet`);
    rejectAggregatesAndWindows(expression, what);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw new RulesFileError(`${path}: ${JSON.stringify(sql)}: ${e.message}`);
  }
  return expression;
}

/** `filter_environment` / `mask_environment`: `{"user": ...}`, whose rights a filter's or mask's subqueries would read with. */
function environment(f: Fields, key: string): void {
  if (!f.has(key)) return;
  const env = new Fields(object(f.get(key), `${f.path}.${key}`), `${f.path}.${key}`, ['user']);
  if (env.has('user')) string(env.get('user'), `${env.path}.user`);
}

function queryRule(f: Fields): QueryRule {
  const allow = new Set<QueryAccessMode>(
    array(f.required('allow'), `${f.path}.allow`).map((m, i) =>
      oneOf(typeof m === 'string' ? m.toLowerCase() : m, QUERY_ACCESS_MODES, `${f.path}.allow[${i}]`, 'query access'),
    ),
  );
  const queryOwner = f.regex('queryOwner');
  if (queryOwner !== undefined && allow.has('execute'))
    throw new RulesFileError(`${f.path}: a rule with 'queryOwner' cannot allow 'execute'`);
  return { ...subject(f), queryOwner, allow };
}

function impersonationRule(f: Fields): ImpersonationRule {
  const originalUser = f.regex('original_user') ?? f.regex('originalUser');
  const newUserKey = f.has('new_user') ? 'new_user' : 'newUser';
  const newUser = string(f.required(newUserKey), `${f.path}.${newUserKey}`);
  checkRegex(newUser.replace(/\$\d+/g, ''), `${f.path}.${newUserKey}`);
  const groups = originalUser === undefined ? 0 : new RegExp(`${originalUser.source}|`).exec('')!.length - 1;
  for (const ref of newUser.matchAll(/\$(\d+)/g)) {
    if (Number(ref[1]) > groups)
      throw new RulesFileError(`${f.path}.${newUserKey}: refers to group $${ref[1]}, which original_user does not capture`);
  }
  return { originalUser, originalRole: f.regex('original_role'), newUser, allow: f.boolean('allow', false, true) };
}

function sessionPropertyRule(f: Fields): SessionPropertyRule {
  return { ...subject(f), property: f.regex('property'), allow: f.boolean('allow', true) };
}

function subject(f: Fields): SubjectConditions {
  return { user: f.regex('user'), role: f.regex('role'), group: f.regex('group') };
}

function catalogAccess(value: Json, path: string): CatalogAccess {
  if (value === true) return 'all';
  if (value === false) return 'none';
  return oneOf(
    typeof value === 'string' ? value.toLowerCase() : value,
    ['owner', 'all', 'read-only', 'none'] as const,
    path,
    'catalog access',
  );
}

/** One rule's fields: unknown ones are refused, each read with its path for messages. */
class Fields {
  constructor(
    private readonly fields: JsonObject,
    readonly path: string,
    known: readonly string[],
  ) {
    for (const key of Object.keys(fields)) {
      if (!known.includes(key)) throw new RulesFileError(`${path}: unknown field '${key}' (expected one of ${known.join(', ')})`);
    }
  }

  has(key: string): boolean {
    return this.fields[key] !== undefined;
  }

  get(key: string): Json {
    return this.fields[key];
  }

  required(key: string): Json {
    if (!this.has(key)) throw new RulesFileError(`${this.path}: '${key}' is required`);
    return this.fields[key];
  }

  regex(key: string): RegExp | undefined {
    if (!this.has(key)) return undefined;
    const source = string(this.fields[key], `${this.path}.${key}`);
    checkRegex(source, `${this.path}.${key}`);
    return fullMatch(source);
  }

  /** A boolean field; `required`: absent is an error, else absent is `fallback`. */
  boolean(key: string, required: boolean, fallback = false): boolean {
    if (!this.has(key)) {
      if (required) this.required(key);
      return fallback;
    }
    const value = this.fields[key];
    if (typeof value !== 'boolean') throw new RulesFileError(`${this.path}.${key}: expected true or false, got ${JSON.stringify(value)}`);
    return value;
  }
}

function checkRegex(source: string, path: string): void {
  try {
    new RegExp(source);
  } catch (e) {
    throw new RulesFileError(`${path}: invalid regular expression ${JSON.stringify(source)} (${(e as Error).message})`);
  }
}

function object(value: Json, path: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RulesFileError(`${path}: expected an object, got ${JSON.stringify(value)}`);
  return value;
}

function array(value: Json, path: string): Json[] {
  if (!Array.isArray(value)) throw new RulesFileError(`${path}: expected a list, got ${JSON.stringify(value)}`);
  return value;
}

function string(value: Json, path: string): string {
  if (typeof value !== 'string') throw new RulesFileError(`${path}: expected a string, got ${JSON.stringify(value)}`);
  return value;
}

function oneOf<T extends string>(value: Json, allowed: readonly T[], path: string, what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new RulesFileError(`${path}: unknown ${what} ${JSON.stringify(value)} (expected one of ${allowed.join(', ')})`);
  }
  return value as T;
}
