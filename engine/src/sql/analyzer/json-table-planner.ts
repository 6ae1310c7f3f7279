// JSON_TABLE in FROM becomes an UNNEST of $json_table(...), an array of rows with one field per
// column (nested columns flattened in declaration order): the unnest planner gives it its columns and
// its lateral references to the relations on its left, as Trino allows.

import { EngineError } from '../../errors/engine-error.js';
import type { ChildCombination, JsonTableSpec, TableColumnSpec } from '../../functions/scalar/json/sqljson/json-table-function.js';
import {
  BIGINT,
  type RowField,
  type SqlType,
  arrayOf,
  isNumeric,
  isString,
  isTemporal,
  rowOf,
  typeName,
  varchar,
} from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { JsonTable, JsonTableColumn, JsonTablePlan } from '../parser/ast-json.js';
import { constant, type RowExpression } from '../planner/row-expression.js';
import { checkedPath, jsonInvocation, jsonReturning, lazyDefaults } from './json-forms.js';
import { sqlTypeOf } from './type-spec.js';

type Translate = (e: ast.Expression) => RowExpression;
type Coerce = (e: RowExpression, type: SqlType, location?: ast.Expression['location']) => RowExpression;

interface Collected {
  readonly fields: RowField[];
  readonly defaults: RowExpression[];
  /** Canonical column and path names so far (Trino: all unique). */
  readonly names: Set<string>;
  nestedCount: number;
}

/** A name as Trino compares it: a quoted identifier as written, an unquoted one upper-cased. */
function canonicalName(identifier: ast.Identifier): string {
  return identifier.quoted ? identifier.value : identifier.value.toUpperCase();
}

function claimName(collected: Collected, identifier: ast.Identifier): void {
  const name = canonicalName(identifier);
  if (collected.names.has(name))
    throw new EngineError(
      'DUPLICATE_COLUMN_OR_PATH_NAME',
      'All column and path names in JSON_TABLE invocation must be unique',
      identifier.location,
    );
  collected.names.add(name);
}

function columnSpecs(
  columns: readonly JsonTableColumn[],
  collected: Collected,
  translate: Translate,
  coerce: Coerce,
  tableOnError: string | undefined,
): TableColumnSpec[] {
  // A column without ON ERROR fails where the table does (ERROR ON ERROR), else gives NULL.
  const columnOnError = tableOnError === 'ERROR' ? 'ERROR' : undefined;
  return columns.map((column): TableColumnSpec => {
    switch (column.kind) {
      case 'JsonOrdinalityColumn':
        claimName(collected, column.name);
        collected.fields.push({ name: column.name.value, type: BIGINT });
        return { kind: 'ordinality' };
      case 'JsonValueColumn': {
        const type = sqlTypeOf(column.type);
        if (!isString(type) && !isNumeric(type) && !isTemporal(type) && type.kind !== 'boolean') {
          throw new EngineError('TYPE_MISMATCH', `Invalid type of JSON_TABLE value column: ${typeName(type)}`, column.location);
        }
        claimName(collected, column.name);
        collected.fields.push({ name: column.name.value, type });
        const defaultIndex = (behavior: typeof column.onEmpty): number | undefined => {
          if (behavior?.type !== 'DEFAULT') return undefined;
          collected.defaults.push(coerce(translate(behavior.value), type, behavior.value.location));
          return collected.defaults.length - 1;
        };
        const emptyDefault = defaultIndex(column.onEmpty);
        const errorDefault = defaultIndex(column.onError);
        return {
          kind: 'value',
          path: columnPath(column),
          onEmpty: column.onEmpty?.type,
          onError: column.onError?.type ?? columnOnError,
          emptyDefault,
          errorDefault,
        };
      }
      case 'JsonQueryColumn': {
        const { type, encoding } = jsonReturning(column.type, column.format, column.location);
        claimName(collected, column.name);
        collected.fields.push({ name: column.name.value, type });
        const omitQuotes = column.quotes !== undefined && !column.quotes.keep;
        return {
          kind: 'query',
          path: columnPath(column),
          wrapper: column.wrapper,
          omitQuotes,
          onEmpty: column.onEmpty,
          onError: column.onError ?? columnOnError,
          encoding,
        };
      }
      case 'JsonNestedColumns': {
        checkedPath(column.path, column.location);
        if (column.pathName !== undefined) claimName(collected, column.pathName);
        const name = column.pathName === undefined ? `$nested_path_${collected.nestedCount++}` : canonicalName(column.pathName);
        return {
          kind: 'nested',
          path: column.path,
          name,
          columns: columnSpecs(column.columns, collected, translate, coerce, tableOnError),
        };
      }
    }
  });
}

/** A column without PATH reads the member of its canonical name (Trino: `x` reads "X", `"x"` reads "x"). */
function defaultPath(name: string): string {
  return `lax $."${name.replace(/"/g, '""')}"`;
}

function columnPath(column: { path?: string; name: ast.Identifier; location: ast.Expression['location'] }): string {
  const path = column.path ?? defaultPath(canonicalName(column.name));
  checkedPath(path, column.location);
  return path;
}

/** Each parent path's direct NESTED PATH children, by canonical name. */
function childrenByParent(columns: readonly TableColumnSpec[], parent: string, out: Map<string, string[]>): Map<string, string[]> {
  const nested = columns.filter((c): c is TableColumnSpec & { kind: 'nested' } => c.kind === 'nested');
  out.set(
    parent,
    nested.map((c) => c.name),
  );
  for (const child of nested) childrenByParent(child.columns, child.name, out);
  return out;
}

function invalidPlan(message: string, location: ast.Expression['location']): EngineError {
  return new EngineError('INVALID_PLAN', message, location);
}

/**
 * The PLAN clause as, per parent path, how its children join it and how they combine. PLAN DEFAULT
 * sets one choice for all; a specific plan names every path once (Trino's rule), else INVALID_PLAN.
 */
function planChoices(
  plan: JsonTablePlan | undefined,
  rootName: string,
  spec: Pick<JsonTableSpec, 'joins' | 'combinations'>,
  children: ReadonlyMap<string, string[]>,
  location: ast.Expression['location'],
): void {
  const defaults = plan?.kind === 'JsonTableDefaultPlan' ? plan : undefined;
  if (plan === undefined || defaults !== undefined) {
    for (const [parent, names] of children) {
      if (defaults?.parentChild !== undefined) spec.joins[parent] = defaults.parentChild;
      if (names.length > 0) spec.combinations[parent] = { op: defaults?.siblings ?? 'UNION', parts: names };
    }
    return;
  }
  const seen = new Set<string>();
  const mention = (name: string, at: ast.Expression['location']): string => {
    if (!children.has(name)) throw invalidPlan(`JSON_TABLE plan names an unknown path: ${name}`, at);
    if (seen.has(name)) throw invalidPlan(`JSON_TABLE plan names a path more than once: ${name}`, at);
    seen.add(name);
    return name;
  };
  const combination = (p: JsonTablePlan): ChildCombination => {
    switch (p.kind) {
      case 'JsonTablePlanLeaf':
        return mention(canonicalName(p.name), p.location);
      case 'JsonTablePlanJoin':
        return join(p);
      case 'JsonTablePlanSiblings':
        return { op: p.type, parts: p.plans.map(combination) };
      default:
        throw invalidPlan('PLAN DEFAULT cannot be part of a specific plan', p.location);
    }
  };
  const join = (p: JsonTablePlan & { kind: 'JsonTablePlanJoin' }): string => {
    const parent = mention(canonicalName(p.parent), p.location);
    spec.joins[parent] = p.type;
    spec.combinations[parent] = combination(p.child);
    return parent;
  };
  const root =
    plan.kind === 'JsonTablePlanJoin'
      ? join(plan)
      : plan.kind === 'JsonTablePlanLeaf'
        ? mention(canonicalName(plan.name), plan.location)
        : undefined;
  if (root !== rootName) throw invalidPlan('JSON_TABLE plan must start with the root path name', plan.location);
  for (const [parent, names] of children) {
    const planned = spec.combinations[parent];
    const covered = planned === undefined ? [] : namesIn(planned);
    if (covered.length !== names.length || names.some((n) => !covered.includes(n)))
      throw invalidPlan(`JSON_TABLE plan does not match the child paths of ${parent}`, location);
  }
}

function namesIn(combination: ChildCombination): string[] {
  return typeof combination === 'string' ? [combination] : combination.parts.flatMap(namesIn);
}

/** The $json_table call whose rows are the table's. */
export function jsonTableCall(table: JsonTable, translate: Translate, coerce: Coerce): RowExpression {
  const { args, spec } = jsonInvocation(table.invocation, 'JSON_TABLE', translate);
  const collected: Collected = { fields: [], defaults: [], names: new Set(), nestedCount: 0 };
  if (table.invocation.pathName !== undefined) claimName(collected, table.invocation.pathName);
  const columns = columnSpecs(table.columns, collected, translate, coerce, table.onError);
  const rootName = table.invocation.pathName === undefined ? '$root_path' : canonicalName(table.invocation.pathName);
  const tableSpec: JsonTableSpec = { ...spec, rootName, columns, tableOnError: table.onError, joins: {}, combinations: {} };
  planChoices(table.plan, rootName, tableSpec, childrenByParent(columns, rootName, new Map()), table.location);
  const type = arrayOf(rowOf(collected.fields));
  const text = JSON.stringify(tableSpec);
  return {
    kind: 'call',
    name: '$json_table',
    args: [constant(text, varchar(text.length)), lazyDefaults(collected.defaults), ...args],
    type,
  };
}
