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
  nestedCount: number;
}

function columnSpecs(columns: readonly JsonTableColumn[], collected: Collected, translate: Translate, coerce: Coerce): TableColumnSpec[] {
  return columns.map((column): TableColumnSpec => {
    switch (column.kind) {
      case 'JsonOrdinalityColumn':
        collected.fields.push({ name: column.name.value, type: BIGINT });
        return { kind: 'ordinality' };
      case 'JsonValueColumn': {
        const type = sqlTypeOf(column.type);
        if (!isString(type) && !isNumeric(type) && !isTemporal(type) && type.kind !== 'boolean') {
          throw new EngineError('TYPE_MISMATCH', `Invalid type of JSON_TABLE value column: ${typeName(type)}`, column.location);
        }
        collected.fields.push({ name: column.name.value, type });
        const defaultIndex = (behavior: typeof column.onEmpty): number | undefined => {
          if (behavior?.type !== 'DEFAULT') return undefined;
          collected.defaults.push(coerce(translate(behavior.value), type, behavior.value.location));
          return collected.defaults.length - 1;
        };
        const emptyDefault = defaultIndex(column.onEmpty);
        const errorDefault = defaultIndex(column.onError);
        return { kind: 'value', path: columnPath(column), onEmpty: column.onEmpty?.type, onError: column.onError?.type, emptyDefault, errorDefault };
      }
      case 'JsonQueryColumn': {
        const { type, encoding } = jsonReturning(column.type, column.format, column.location);
        collected.fields.push({ name: column.name.value, type });
        const omitQuotes = column.quotes !== undefined && !column.quotes.keep;
        return { kind: 'query', path: columnPath(column), wrapper: column.wrapper, omitQuotes, onEmpty: column.onEmpty, onError: column.onError, encoding };
      }
      case 'JsonNestedColumns': {
        checkedPath(column.path, column.location);
        const name = column.pathName?.value ?? `$nested_path_${collected.nestedCount++}`;
        return { kind: 'nested', path: column.path, name, columns: columnSpecs(column.columns, collected, translate, coerce) };
      }
    }
  });
}

/** A column without PATH reads the member of its name. */
function defaultPath(name: string): string {
  return `lax $."${name.replace(/"/g, '""')}"`;
}

function columnPath(column: { path?: string; name: ast.Identifier; location: ast.Expression['location'] }): string {
  const path = column.path ?? defaultPath(column.name.value);
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
        spec.joins[p.parent.value] = p.type;
        visit(p.child, p.parent.value);
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
  const collected: Collected = { fields: [], defaults: [], nestedCount: 0 };
  const columns = columnSpecs(table.columns, collected, translate, coerce);
  const names = collected.fields.map((f) => f.name as string);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw new EngineError('DUPLICATE_COLUMN_NAME', `All column and path names in JSON_TABLE invocation must be unique. Found duplicate name: ${duplicate}`, table.location);
  const rootName = table.invocation.pathName?.value ?? '$root_path';
  const tableSpec: JsonTableSpec = { ...spec, rootName, columns, tableOnError: table.onError, joins: {}, siblings: {} };
  planChoices(table.plan, rootName, tableSpec, nestedNames(columns));
  const type = arrayOf(rowOf(collected.fields));
  const text = JSON.stringify(tableSpec);
  return { kind: 'call', name: '$json_table', args: [constant(text, varchar(text.length)), lazyDefaults(collected.defaults), ...args], type };
}
