// =, <>, <, <=, >, >= and IS DISTINCT FROM: both arguments coerced to their common super type.

import type { Scalar } from '../../spi/page.js';
import type { SqlType } from '../../types/types.js';
import { BOOLEAN } from '../../types/types.js';
import type { RowType } from '../../types/row-type.js';
import { rowComparisonBody } from './row-comparison.js';
import { type ScalarFunctionDefinition, type ScalarImplementation, body, operatorBody } from './signature.js';
import { arrayEquality, equalityFor, hasJsOrder, identityFor, lessThanFor, lessThanOrEqualFor } from './value-comparison.js';

const T = { variable: 'T' } as const;

/** Values JS's === tells equal: numbers, bigints, strings (chars are stored unpadded), booleans. */
function hasJsEquality(t: SqlType): boolean {
  return t.kind !== 'varbinary' && t.kind !== 'array' && t.kind !== 'row';
}

/** Array `=` is NULL when the arrays differ only where an element is NULL (Trino). */
function arrayEqualityBody(t: SqlType, negate: boolean): ScalarImplementation {
  const equal = arrayEquality((t as { element: SqlType }).element);
  return body(
    (a: readonly Scalar[], b: readonly Scalar[]) => {
      const same = equal(a, b);
      return same === null ? null : negate ? !same : same;
    },
    { mayReturnNull: true },
  );
}

function comparison(name: string, description: string, implement: (type: SqlType) => ScalarImplementation): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    // Rows compare field by field with NULL results of their own (row-comparison.ts).
    signatures: [{ params: [T, T], returnType: BOOLEAN, implement: ([type]) => (type.kind === 'row' && name !== 'is_distinct_from' ? rowComparisonBody(type as RowType, name as Parameters<typeof rowComparisonBody>[1]) : implement(type)) }],
  };
}

export const COMPARISON_OPERATORS: readonly ScalarFunctionDefinition[] = [
  comparison('equal', 'Equality', (t) => (t.kind === 'array' ? arrayEqualityBody(t, false) : hasJsEquality(t) ? operatorBody('===') : body(equalityFor(t)))),
  comparison('not_equal', 'Inequality', (t) => {
    if (t.kind === 'array') return arrayEqualityBody(t, true);
    if (hasJsEquality(t)) return operatorBody('!==');
    const eq = equalityFor(t);
    return body((a: Scalar, b: Scalar) => !eq(a, b));
  }),
  comparison('less_than', 'Less than', (t) => (hasJsOrder(t) ? operatorBody('<') : body(lessThanFor(t)))),
  comparison('less_than_or_equal', 'Less than or equal', (t) => (hasJsOrder(t) ? operatorBody('<=') : body(lessThanOrEqualFor(t)))),
  comparison('greater_than', 'Greater than', (t) => {
    if (hasJsOrder(t)) return operatorBody('>');
    const lt = lessThanFor(t);
    return body((a: Scalar, b: Scalar) => lt(b, a));
  }),
  comparison('greater_than_or_equal', 'Greater than or equal', (t) => {
    if (hasJsOrder(t)) return operatorBody('>=');
    const le = lessThanOrEqualFor(t);
    return body((a: Scalar, b: Scalar) => le(b, a));
  }),
  comparison('is_distinct_from', 'Distinctness, treating NULL as a value', (t) => {
    const same = identityFor(t);
    return body((a: Scalar, b: Scalar) => (a === null || b === null ? a !== b : !same(a, b)), { acceptsNulls: true });
  }),
];
