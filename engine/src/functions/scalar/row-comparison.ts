// Equality and ordering of row values field by field, with Trino's NULL rules: `=` is NULL when no
// field differs but one is NULL; `<` is decided by the first field that is not equal, and is NULL
// when a NULL field comes first; IS DISTINCT FROM and ORDER BY treat NULL fields as values.

import type { Scalar } from '../../types/scalar.js';
import type { RowType } from '../../types/row-type.js';
import { type ScalarImplementation, body } from './signature.js';
import { type Comparator, type Equality, identityFor, lessThanFor, scalarComparator, sqlEquality } from './value-comparison.js';

type Row = readonly Scalar[];
/** SQL `=` on two non-null values: true, false, or null (unknown). */
export type NullableEquality = (a: Scalar, b: Scalar) => boolean | null;

export function rowEquality(type: RowType): NullableEquality {
  const fields = type.fields.map((f) => sqlEquality(f.type));
  return (a, b) => {
    const x = a as Row;
    const y = b as Row;
    let unknown = false;
    for (let i = 0; i < fields.length; i++) {
      if (x[i] === null || y[i] === null) {
        unknown = true;
        continue;
      }
      const same = fields[i](x[i], y[i]);
      if (same === null) unknown = true;
      else if (!same) return false;
    }
    return unknown ? null : true;
  };
}

/** IS NOT DISTINCT FROM on two non-null rows: NULL fields are equal to each other only. */
export function rowIdentity(type: RowType): Equality {
  const fields = type.fields.map((f) => identityFor(f.type));
  return (a, b) => {
    const x = a as Row;
    const y = b as Row;
    for (let i = 0; i < fields.length; i++) {
      if (x[i] === null || y[i] === null) {
        if (x[i] !== y[i]) return false;
      } else if (!fields[i](x[i], y[i])) return false;
    }
    return true;
  };
}

/**
 * The total order ORDER BY sorts rows in: field by field, a NULL field after every value (before
 * them with `nullsFirst`: Trino orders NULL fields as the sort key's NULLS FIRST or LAST asks,
 * before DESC reverses the order).
 */
export function rowComparator(type: RowType, nullsFirst = false): Comparator {
  const fields = type.fields.map((f) => (f.type.kind === 'row' ? rowComparator(f.type as RowType, nullsFirst) : scalarComparator(f.type)));
  const nullOrder = nullsFirst ? -1 : 1;
  return (a, b) => {
    const x = a as Row;
    const y = b as Row;
    for (let i = 0; i < fields.length; i++) {
      if (x[i] === null || y[i] === null) {
        if (x[i] === y[i]) continue;
        return x[i] === null ? nullOrder : -nullOrder;
      }
      const c = fields[i](x[i], y[i]);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/** `<` (or `<=`) of two non-null rows: the first field that is not equal decides; NULL when a NULL field or an unknown equality comes first. */
export function rowLessThan(type: RowType, orEqual: boolean): (a: Scalar, b: Scalar) => boolean | null {
  const equal = type.fields.map((f) => sqlEquality(f.type));
  const less = type.fields.map((f) => (f.type.kind === 'row' ? rowLessThan(f.type as RowType, false) : lessThanFor(f.type)));
  return (a, b) => {
    const x = a as Row;
    const y = b as Row;
    for (let i = 0; i < equal.length; i++) {
      if (x[i] === null || y[i] === null) return null;
      const same = equal[i](x[i], y[i]);
      if (same === null) return null;
      if (!same) return less[i](x[i], y[i]);
    }
    return orEqual;
  };
}

/** The bodies of the comparison operators on rows. */
export function rowComparisonBody(
  type: RowType,
  operator: 'equal' | 'not_equal' | 'less_than' | 'less_than_or_equal' | 'greater_than' | 'greater_than_or_equal',
): ScalarImplementation {
  const options = { mayReturnNull: true };
  switch (operator) {
    case 'equal':
    case 'not_equal': {
      const equal = rowEquality(type);
      const negate = operator === 'not_equal';
      return body((a: Row, b: Row) => {
        const same = equal(a, b);
        return same === null ? null : same !== negate;
      }, options);
    }
    case 'less_than':
    case 'less_than_or_equal': {
      const less = rowLessThan(type, operator === 'less_than_or_equal');
      return body((a: Row, b: Row) => less(a, b), options);
    }
    default: {
      const less = rowLessThan(type, operator === 'greater_than_or_equal');
      return body((a: Row, b: Row) => less(b, a), options);
    }
  }
}
