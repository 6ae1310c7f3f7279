// JSON_TABLE in FROM becomes an UNNEST of $json_table(...), an array of rows with one field per
// column (nested columns flattened in declaration order): the unnest planner gives it its columns and
// its lateral references to the relations on its left, as Trino allows.

import { EngineError } from '../../errors/engine-error.js';
import type { JsonTableSpec, TableColumnSpec } from '../../functions/scalar/json/sqljson/json-table-function.js';
import { BIGINT, type RowField, type SqlType, arrayOf, isNumeric, isString, isTemporal, rowOf, typeName, varchar } from '../../types/types.js';
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
  if (collected.names.has(name)) throw new EngineError('DUPLICATE_COLUMN_OR_PATH_NAME', 'All column and path names in JSON_TABLE invocation must be unique', identifier.location);
  collected.names.add(name);
}

function columnSpecs(columns: readonly JsonTableColumn[], collected: Collected, translate: Translate, coerce: Coerce, tableOnError: string | undefined): TableColumnSpec[] {
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
        return { kind: 'value', path: columnPath(column), onEmpty: column.onEmpty?.type, onError: column.onError?.type ?? columnOnError, emptyDefault, errorDefault };
      }
      case 'JsonQueryColumn': {
        const { type, encoding } = jsonReturning(column.type, column.format, column.location);
        claimName(collected, column.name);
        collected.fields.push({ name: column.name.value, type });
        const omitQuotes = column.quotes !== undefined && !column.quotes.keep;
        return { kind: 'query', path: columnPath(column), wrapper: column.wrapper, omitQuotes, onEmpty: column.onEmpty, onError: column.onError ?? columnOnError, encoding };
      }
      case 'JsonNestedColumns': {
        checkedPath(column.path, column.location);
        if (column.pathName !== undefined) claimName(collected, column.pathName);
        const name = column.pathName === undefined ? `$nested_path_${collected.nestedCount++}` : canonicalName(column.pathName);
        return { kind: 'nested', path: column.path, name, columns: columnSpecs(column.columns, collected, translate, coerce, tableOnError) };
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

/** The join of each parent path with its children and the combination of siblings an explicit or default PLAN gives. */
function planChoices(plan: JsonTablePlan | undefined, rootName: string, spec: { joins: Record<string, 'OUTER' | 'INNER'>; siblings: Record<string, 'UNION' | 'CROSS'> }, nestedNames: string[]): void {
  if (plan === undefined) return;
  if (plan.kind === 'JsonTableDefaultPlan') {
    for (const name of [rootName, ...nestedNames]) {
      if (plan.parentChild !== undefined) spec.joins[name] = plan.parentChild;
      if (plan.siblings !== undefined) spec.siblings[name] = plan.siblings;
    }
    return;
  }
  const visit = (p: JsonTablePlan, parent: string | undefined): void => {
    switch (p.kind) {
      case 'JsonTablePlanJoin':
        spec.joins[canonicalName(p.parent)] = p.type;
        visit(p.child, canonicalName(p.parent));
        return;
      case 'JsonTablePlanSiblings':
        if (parent !== undefined) spec.siblings[parent] = p.type;
        for (const sibling of p.plans) visit(sibling, parent);
        return;
      default:
        return;
    }
  };
  visit(plan, undefined);
}

function nestedNames(columns: readonly TableColumnSpec[]): string[] {
  return columns.flatMap((c) => (c.kind === 'nested' ? [c.name, ...nestedNames(c.columns)] : []));
}

/** The $json_table call whose rows are the table's. */
export function jsonTableCall(table: JsonTable, translate: Translate, coerce: Coerce): RowExpression {
  const { args, spec } = jsonInvocation(table.invocation, 'JSON_TABLE', translate);
  const collected: Collected = { fields: [], defaults: [], names: new Set(), nestedCount: 0 };
  if (table.invocation.pathName !== undefined) claimName(collected, table.invocation.pathName);
  const columns = columnSpecs(table.columns, collected, translate, coerce, table.onError);
  const rootName = table.invocation.pathName === undefined ? '$root_path' : canonicalName(table.invocation.pathName);
  const tableSpec: JsonTableSpec = { ...spec, rootName, columns, tableOnError: table.onError, joins: {}, siblings: {} };
  planChoices(table.plan, rootName, tableSpec, nestedNames(columns));
  const type = arrayOf(rowOf(collected.fields));
  const text = JSON.stringify(tableSpec);
  return { kind: 'call', name: '$json_table', args: [constant(text, varchar(text.length)), lazyDefaults(collected.defaults), ...args], type };
}
