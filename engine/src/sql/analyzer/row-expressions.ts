// Row values in expressions: ROW(a, b) and (a, b), field access by name (r.x) and by a constant
// position (r[1]), with Trino's messages for what does not exist.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { ROW_CONSTRUCTOR, ROW_FIELD } from '../../functions/scalar/row-operators.js';
import { type RowType, rowFieldIndex } from '../../types/row-type.js';
import { INTEGER, type RowField, type SqlType, isIntegral, rowOf, typeName } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { formatExpression } from '../parser/formatter.js';
import type { Scope } from './scope.js';
import { constant, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';

type Translate = (e: ast.Expression) => RowExpression;

/** `ROW(a, b)`, `(a, b)` or `ROW(a AS x, b AS y)`: a row of the items' types, named where the syntax names a field. */
export function rowConstructor(e: ast.RowConstructor, translate: Translate): RowExpression {
  const args = e.items.map(translate);
  const fields: RowField[] = args.map((a, i) => {
    const name = e.fieldNames?.[i];
    return name === null || name === undefined ? { type: a.type } : { name: name.value, type: a.type };
  });
  return { kind: 'call', name: ROW_CONSTRUCTOR, args, type: rowOf(fields) };
}

/** The row of several columns (a scalar subquery's), its fields named as the columns are. */
export function rowOfColumns(columns: readonly Symbol[], names: readonly (string | undefined)[]): RowExpression {
  const fields: RowField[] = columns.map((c, i) => (names[i] === undefined ? { type: c.type } : { name: names[i], type: c.type }));
  return { kind: 'call', name: ROW_CONSTRUCTOR, args: columns.map(symbolRef), type: rowOf(fields) };
}

/** Field `index` (0-based) of a row-valued expression. */
function fieldOf(base: RowExpression, index: number): RowExpression {
  const type = (base.type as RowType).fields[index].type;
  return { kind: 'call', name: ROW_FIELD, args: [base, constant(index, INTEGER)], type };
}

/** `base.field` where `base` is not a column name: the row field named `field`. */
export function rowFieldByName(base: RowExpression, e: ast.DereferenceExpression): RowExpression {
  if (base.type.kind !== 'row') {
    throw new EngineError('TYPE_MISMATCH', `Expression ${formatExpression(e.base)} is not of type ROW`, e.base.location);
  }
  const name = e.field.value;
  let index: number;
  try {
    index = rowFieldIndex(base.type as RowType, name);
  } catch (error) {
    throw error instanceof EngineError ? new EngineError(error.errorName, error.rawMessage, e.field.location) : error;
  }
  if (index < 0) {
    throw new EngineError(
      'COLUMN_NOT_FOUND',
      `Column '${formatExpression(e)}' cannot be resolved: ${typeName(base.type)} has no field '${name}'`,
      e.location,
    );
  }
  return fieldOf(base, index);
}

/** `base[index]` on a row: the index must be an integer constant from 1 to the number of fields. */
export function rowSubscript(base: RowExpression, index: ast.Expression, location: SourceLocation, translate: Translate): RowExpression {
  const fields = (base.type as RowType).fields;
  if (index.kind !== 'LongLiteral') {
    const value = translate(index);
    if (value.kind === 'constant' && !isIntegral(value.type)) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `Subscript expression on ROW requires integer index, found ${typeName(value.type)}`,
        index.location ?? location,
      );
    }
    throw new EngineError('EXPRESSION_NOT_CONSTANT', 'Subscript expression on ROW requires a constant index', index.location ?? location);
  }
  const value = index.value;
  if (value <= 0n)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid subscript index: ${value}. ROW indices start at 1`, index.location);
  if (value > BigInt(fields.length)) {
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `Subscript index out of bounds: ${value}, max value is ${fields.length}`,
      index.location,
    );
  }
  return fieldOf(base, Number(value) - 1);
}

/**
 * The columns UNNEST yields for one unnested element: an array of rows expands into one column per
 * field (named as the field), as Trino's UNNEST does; any other element is one column.
 */
export function unnestedColumns(
  element: Symbol,
  newSymbol: (name: string, type: SqlType) => Symbol,
): { name?: string; symbol: Symbol; expression: RowExpression }[] {
  if (element.type.kind !== 'row') return [{ symbol: element, expression: symbolRef(element) }];
  return element.type.fields.map((f, i) => ({
    ...(f.name === undefined ? {} : { name: f.name }),
    symbol: newSymbol(f.name ?? 'field', f.type),
    expression: fieldOf(symbolRef(element), i),
  }));
}

/** The field values of a row-valued expression: the items of ROW(...) itself, else a field access per field. */
export function rowFieldValues(value: RowExpression): RowExpression[] {
  if (value.kind === 'call' && value.name === ROW_CONSTRUCTOR) return value.args;
  return (value.type as RowType).fields.map((_, i) => fieldOf(value, i));
}

export interface RowFieldItem {
  expression: ast.Expression;
  name?: string;
}

/**
 * `r.*` in a select list where `r` names a row-valued column (no relation): one select item per
 * field. Undefined when `r` is no such column.
 */
export function rowFieldItems(prefix: ast.QualifiedName, scope: Scope, location: SourceLocation): RowFieldItem[] | undefined {
  const resolved = scope.tryResolve(
    prefix.parts.map((p) => p.value),
    location,
  );
  const type = resolved?.field.symbol.type;
  if (type?.kind !== 'row') return undefined;
  const base = prefix.parts
    .slice(1)
    .reduce<ast.Expression>((e, field) => ({ kind: 'Dereference', base: e, field, location }), prefix.parts[0]);
  return rowExpansion(base, type, undefined, location);
}

/**
 * `(expression).* [AS (a, b)]`: `expression[1]`, `expression[2]`, ... named by the aliases, else by
 * the fields (anonymous fields stay unnamed). The expression must be a row.
 */
export function rowExpansion(
  base: ast.Expression,
  type: SqlType,
  aliases: readonly ast.Identifier[] | undefined,
  location: SourceLocation,
): RowFieldItem[] {
  if (type.kind !== 'row')
    throw new EngineError('TYPE_MISMATCH', `expected expression of type Row but got ${typeName(type)}`, base.location ?? location);
  if (aliases !== undefined && aliases.length !== type.fields.length) {
    throw new EngineError(
      'MISMATCHED_COLUMN_ALIASES',
      `Column alias list has ${aliases.length} entries but ${type.fields.length} columns available`,
      aliases[0]?.location ?? location,
    );
  }
  return type.fields.map((f, i) => {
    const name = aliases?.[i].value ?? f.name;
    const expression: ast.Expression = {
      kind: 'Subscript',
      base,
      index: { kind: 'LongLiteral', value: BigInt(i + 1), text: String(i + 1), location },
      location,
    };
    return name === undefined ? { expression } : { expression, name };
  });
}
