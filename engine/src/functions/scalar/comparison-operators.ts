// =, <>, <, <=, >, >= and IS DISTINCT FROM: both arguments coerced to their common super type.

import { comparesByInstant } from '../../types/zoned-time.js';
import type { Scalar } from '../../types/scalar.js';
import type { SqlType } from '../../types/types.js';
import { BOOLEAN } from '../../types/types.js';
import type { RowType } from '../../types/row-type.js';
import { rowComparisonBody } from './row-comparison.js';
import { type ScalarFunctionDefinition, type ScalarImplementation, body, operatorBody } from './signature.js';
import { equalityFor, hasJsOrder, identityFor, lessThanFor, lessThanOrEqualFor, sqlEquality } from './value-comparison.js';
import { isComparable, isOrderable } from './map-comparison.js';

const T = { variable: 'T' } as const;

/** Values JS's === tells equal: numbers, bigints, strings (chars are stored unpadded), booleans. */
function hasJsEquality(t: SqlType): boolean {
  return (
    t.kind !== 'varbinary' && t.kind !== 'variant' && t.kind !== 'number' && t.kind !== 'row' && !isContainer(t) && !comparesByInstant(t)
  );
}

function isContainer(t: SqlType): boolean {
  return t.kind === 'array' || t.kind === 'map';
}

/** Array and map `=` is NULL when the values differ only where an element is NULL (Trino). */
function containerEqualityBody(t: SqlType, negate: boolean): ScalarImplementation {
  const equal = sqlEquality(t);
  return body(
    (a: Scalar, b: Scalar) => {
      const same = equal(a, b);
      return same === null ? null : negate ? !same : same;
    },
    { mayReturnNull: true },
  );
}

function comparison(
  name: string,
  description: string,
  implement: (type: SqlType) => ScalarImplementation,
  ordering = false,
): ScalarFunctionDefinition {
  const accepts = ordering ? (types: readonly SqlType[]) => isOrderable(types[0]) : (types: readonly SqlType[]) => isComparable(types[0]);
  return {
    names: [name],
    description,
    // Rows compare field by field with NULL results of their own (row-comparison.ts).
    signatures: [
      {
        params: [T, T],
        returnType: BOOLEAN,
        accepts,
        implement: ([type]) =>
          type.kind === 'row' && name !== 'is_distinct_from'
            ? rowComparisonBody(type as RowType, name as Parameters<typeof rowComparisonBody>[1])
            : implement(type),
      },
    ],
  };
}

export const COMPARISON_OPERATORS: readonly ScalarFunctionDefinition[] = [
  comparison('equal', 'Equality', (t) =>
    isContainer(t) ? containerEqualityBody(t, false) : hasJsEquality(t) ? operatorBody('===') : body(equalityFor(t)),
  ),
  comparison('not_equal', 'Inequality', (t) => {
    if (isContainer(t)) return containerEqualityBody(t, true);
    if (hasJsEquality(t)) return operatorBody('!==');
    const eq = equalityFor(t);
    return body((a: Scalar, b: Scalar) => !eq(a, b));
  }),
  comparison('less_than', 'Less than', (t) => (hasJsOrder(t) ? operatorBody('<') : body(lessThanFor(t))), true),
  comparison('less_than_or_equal', 'Less than or equal', (t) => (hasJsOrder(t) ? operatorBody('<=') : body(lessThanOrEqualFor(t))), true),
  comparison(
    'greater_than',
    'Greater than',
    (t) => {
      if (hasJsOrder(t)) return operatorBody('>');
      const lt = lessThanFor(t);
      return body((a: Scalar, b: Scalar) => lt(b, a));
    },
    true,
  ),
  comparison(
    'greater_than_or_equal',
    'Greater than or equal',
    (t) => {
      if (hasJsOrder(t)) return operatorBody('>=');
      const le = lessThanOrEqualFor(t);
      return body((a: Scalar, b: Scalar) => le(b, a));
    },
    true,
  ),
  comparison('is_distinct_from', 'Distinctness, treating NULL as a value', (t) => {
    const same = identityFor(t);
    return body((a: Scalar, b: Scalar) => (a === null || b === null ? a !== b : !same(a, b)), { acceptsNulls: true });
  }),
];
