// The rules of row(name type, ...) that are about the type itself: field lookup, coercion to a
// common row type, casts between rows, and the spellings Trino gives a row type on the wire.
// A row value (a Scalar) is a JS array holding one value per field, in field order.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { type RowField, type SqlType, rowOf, typeName } from './types.js';

export type RowType = SqlType & { kind: 'row' };

/** The row type with the field types `types` and no names (what ROW(a, b) and (a, b) build). */
export function anonymousRow(types: readonly SqlType[]): RowType {
  return rowOf(types.map((type) => ({ type }))) as RowType;
}

/** The index of the field named `name` (case-insensitive, as Trino matches row fields), or -1; AMBIGUOUS_NAME when two match. */
export function rowFieldIndex(type: RowType, name: string): number {
  const wanted = name.toLowerCase();
  let found = -1;
  type.fields.forEach((f, i) => {
    if (f.name === undefined || f.name.toLowerCase() !== wanted) return;
    if (found >= 0) throw new EngineError('AMBIGUOUS_NAME', `Ambiguous row field reference: ${name}`);
    found = i;
  });
  return found;
}

/**
 * Two row types meet field by field when they have as many fields; the names of the first are kept
 * where both sides name a field alike, else the field is anonymous (Trino's row super type).
 */
export function rowSuperType(a: RowType, b: RowType, superOf: (x: SqlType, y: SqlType) => SqlType | undefined): SqlType | undefined {
  if (a.fields.length !== b.fields.length) return undefined;
  const fields: RowField[] = [];
  for (let i = 0; i < a.fields.length; i++) {
    const type = superOf(a.fields[i].type, b.fields[i].type);
    if (type === undefined) return undefined;
    const name = a.fields[i].name;
    const sameName =
      name !== undefined && b.fields[i].name !== undefined && name.toLowerCase() === (b.fields[i].name as string).toLowerCase();
    fields.push(sameName ? { name, type } : { type });
  }
  return rowOf(fields);
}

/** CAST(row AS row): as many fields, each castable; the target's names replace the source's. */
export function canCastRow(from: RowType, to: RowType, canCastField: (x: SqlType, y: SqlType) => boolean): boolean {
  return from.fields.length === to.fields.length && from.fields.every((f, i) => canCastField(f.type, to.fields[i].type));
}

/** Why a row cast does not exist, in the words of the message (field counts first, as they explain most). */
export function rowCastMismatch(from: SqlType, to: SqlType): string {
  const base = `Cannot cast ${typeName(from)} to ${typeName(to)}`;
  if (from.kind === 'row' && to.kind === 'row' && from.fields.length !== to.fields.length) {
    return `${base}: the source has ${from.fields.length} field(s), the target ${to.fields.length}`;
  }
  return base;
}

/** A row cast: each non-null field through its own cast. */
export function fieldwiseCast(casts: readonly ((v: Scalar) => Scalar)[]): (value: readonly Scalar[]) => Scalar {
  return (value) => value.map((v, i) => (v === null ? null : casts[i](v)));
}

/** The type name the client protocol sends in `columns`: row field names without quotes (Trino's formatType). */
export function clientTypeName(t: SqlType): string {
  if (t.kind === 'row')
    return `row(${t.fields.map((f) => (f.name === undefined ? '' : `${f.name} `) + clientTypeName(f.type)).join(', ')})`;
  if (t.kind === 'array') return `array(${clientTypeName(t.element)})`;
  return typeName(t);
}

/** A row value field by field through `each` (JSON values, text), NULL fields as null. */
export function mapRowValue<T>(value: Scalar, type: RowType, each: (field: Scalar, type: SqlType) => T): (T | null)[] {
  return (value as readonly Scalar[]).map((v, i) => (v === null ? null : each(v, type.fields[i].type)));
}
