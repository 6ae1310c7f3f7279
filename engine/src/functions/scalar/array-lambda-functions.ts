// Array functions taking lambdas (Trino's functions/array.md): transform, filter, reduce, zip_with,
// any_match / all_match / none_match, array_sort with a comparator, array_first with a predicate.
// A lambda arrives as a JS function over scalars (null for SQL NULL), compiled with the expression
// that holds it; its errors propagate as the query's.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { BOOLEAN, INTEGER, type SqlType, arrayOf } from '../../types/types.js';
import { functionOf as fn, lambdaResult } from './function-parameters.js';
import { type ArrayPattern, type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

type Values = readonly Scalar[];
/** A compiled lambda: its arguments and result as scalars. */
type Lambda = (...args: Scalar[]) => Scalar;

const T = { variable: 'T' } as const;
const U = { variable: 'U' } as const;
const R = { variable: 'R' } as const;
const S = { variable: 'S' } as const;
const ARRAY_T: ArrayPattern = { arrayOf: 'T' };
const ARRAY_U: ArrayPattern = { arrayOf: 'U' };

function define(name: string, description: string, signature: SignatureTemplate): ScalarFunctionDefinition {
  return { names: [name], description, signatures: [signature] };
}

/** any_match (on TRUE: TRUE), all_match (on FALSE: FALSE), none_match (on TRUE: FALSE); NULL when no element decides but one gave NULL. */
function match(decisive: boolean, decided: boolean) {
  return body(
    (a: Values, predicate: Lambda) => {
      let sawNull = false;
      for (const v of a) {
        const result = predicate(v);
        if (result === null) sawNull = true;
        else if (result === decisive) return decided;
      }
      return sawNull ? null : !decided;
    },
    { mayReturnNull: true },
  );
}

function sortWith(a: Values, comparator: Lambda): Scalar[] {
  return [...a].sort((x, y) => {
    const order = comparator(x, y);
    if (order !== -1 && order !== 0 && order !== 1)
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Lambda comparator must return either -1, 0, or 1');
    return order;
  });
}

function zipWith(a: Values, b: Values, combine: Lambda): Scalar[] {
  const length = Math.max(a.length, b.length);
  const out: Scalar[] = new Array(length);
  for (let i = 0; i < length; i++) out[i] = combine(i < a.length ? a[i] : null, i < b.length ? b[i] : null);
  return out;
}

export const ARRAY_LAMBDA_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  define('transform', 'Apply lambda to each element of the array', {
    params: [ARRAY_T, fn([T], U)],
    returnType: (types) => arrayOf(lambdaResult(types, 1)),
    returnTypeDisplay: 'array(U)',
    implement: () => body((a: Values, f: Lambda) => a.map((v) => f(v))),
  }),
  define('filter', 'Return array containing elements that match the given predicate', {
    params: [ARRAY_T, fn([T], BOOLEAN)],
    returnType: (types) => types[0],
    returnTypeDisplay: 'array(T)',
    implement: () => body((a: Values, predicate: Lambda) => a.filter((v) => predicate(v) === true)),
  }),
  define('reduce', 'Reduce elements of the array into a single value', {
    params: [ARRAY_T, S, fn([S, T], S), fn([S], R)],
    returnType: (types) => lambdaResult(types, 3),
    returnTypeDisplay: 'R',
    // The initial state may be NULL; a NULL array gives NULL.
    implement: () =>
      body(
        (a: Values | null, initial: Scalar, input: Lambda, output: Lambda) => {
          if (a === null) return null;
          let state = initial;
          for (const v of a) state = input(state, v);
          return output(state);
        },
        { acceptsNulls: true, mayReturnNull: true },
      ),
  }),
  define('zip_with', 'Merge two arrays, element-wise, into a single array using the lambda function', {
    params: [ARRAY_T, ARRAY_U, fn([T, U], R)],
    returnType: (types) => arrayOf(lambdaResult(types, 2)),
    returnTypeDisplay: 'array(R)',
    implement: () => body(zipWith),
  }),
  define('any_match', 'Returns true if the array contains one or more elements that match the given predicate', {
    params: [ARRAY_T, fn([T], BOOLEAN)],
    returnType: BOOLEAN,
    implement: () => match(true, true),
  }),
  define('all_match', 'Returns true if all elements of the array match the given predicate', {
    params: [ARRAY_T, fn([T], BOOLEAN)],
    returnType: BOOLEAN,
    implement: () => match(false, false),
  }),
  define('none_match', "Returns true if all elements of the array don't match the given predicate", {
    params: [ARRAY_T, fn([T], BOOLEAN)],
    returnType: BOOLEAN,
    implement: () => match(true, false),
  }),
  define('array_sort', 'Sorts the given array with a lambda comparator.', {
    params: [ARRAY_T, fn([T, T], INTEGER)],
    returnType: (types) => types[0],
    returnTypeDisplay: 'array(T)',
    implement: () => body(sortWith),
  }),
  define('array_first', 'Get the first element of an array matching the given predicate', {
    params: [ARRAY_T, fn([T], BOOLEAN)],
    returnType: (types) => (types[0] as { element: SqlType }).element,
    returnTypeDisplay: 'T',
    implement: () => body((a: Values, predicate: Lambda) => a.find((v) => predicate(v) === true) ?? null, { mayReturnNull: true }),
  }),
];
