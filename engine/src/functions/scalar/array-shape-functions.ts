// Array functions that cut an array into parts or read it as a vector: trim_array, ngrams,
// combinations, array_first/array_last, contains_sequence, and the vector functions over
// array(double) (euclidean_distance, dot_product, cosine_similarity, cosine_distance).

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { BIGINT, BOOLEAN, DOUBLE, INTEGER, type SqlType, arrayOf } from '../../types/types.js';
import { type ArrayPattern, type ScalarFunctionDefinition, body } from './signature.js';
import { identityFor } from './value-comparison.js';

type Values = readonly Scalar[];

const ARRAY_T: ArrayPattern = { arrayOf: 'T' };
const ARRAY_DOUBLE = arrayOf(DOUBLE);
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];
const elementOfFirst = (types: readonly SqlType[]): SqlType => (types[0] as { element: SqlType }).element;

const MAX_COMBINATION_LENGTH = 5;
const MAX_COMBINATION_ELEMENTS = 100_000;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

function trimArray(values: Values, size: bigint): Scalar[] {
  if (size < 0n) throw invalidArgument(`size must not be negative: ${size}`);
  if (size > BigInt(values.length)) throw invalidArgument(`size must not exceed array cardinality ${values.length}: ${size}`);
  return values.slice(0, values.length - Number(size));
}

function ngrams(values: Values, n: number): Scalar[][] {
  if (n <= 0) throw invalidArgument('N must be positive');
  const size = Math.min(values.length, n);
  const out: Scalar[][] = [];
  for (let start = 0; start + size <= values.length; start++) out.push(values.slice(start, start + size));
  return out;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** The k-element sub-groups in lexicographic order of their positions. */
function combinations(values: Values, k: number): Scalar[][] {
  if (k < 0) throw invalidArgument(`combination size must not be negative: ${k}`);
  if (k > MAX_COMBINATION_LENGTH) throw invalidArgument(`combination size must not exceed ${MAX_COMBINATION_LENGTH}: ${k}`);
  if (k > values.length) return [];
  if (binomial(values.length, k) * k > MAX_COMBINATION_ELEMENTS) throw invalidArgument('combinations exceed max size');
  const out: Scalar[][] = [];
  const positions = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    out.push(positions.map((p) => values[p]));
    let i = k - 1;
    while (i >= 0 && positions[i] === values.length - k + i) i--;
    if (i < 0) return out;
    positions[i]++;
    for (let j = i + 1; j < k; j++) positions[j] = positions[j - 1] + 1;
  }
}

function sameLength(a: Values, b: Values): void {
  if (a.length !== b.length) throw invalidArgument('The arguments must have the same length');
}

/** A NULL element reads as 0, as Trino's vector functions read the element block. */
function at(values: Values, i: number): number {
  return (values[i] as number | null) ?? 0;
}

function dotProduct(a: Values, b: Values): number {
  sameLength(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += at(a, i) * at(b, i);
  return sum;
}

function euclideanDistance(a: Values, b: Values): number {
  sameLength(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = at(a, i) - at(b, i);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

function cosineSimilarity(a: Values, b: Values): number | null {
  sameLength(a, b);
  if (a.includes(null) || b.includes(null)) return null;
  let aa = 0;
  let bb = 0;
  let ab = 0;
  for (let i = 0; i < a.length; i++) {
    aa += at(a, i) * at(a, i);
    bb += at(b, i) * at(b, i);
    ab += at(a, i) * at(b, i);
  }
  if (aa === 0 || bb === 0) throw invalidArgument('Vector magnitude cannot be zero');
  return ab / Math.sqrt(aa * bb);
}

function define(name: string, description: string, signature: ScalarFunctionDefinition['signatures'][number]): ScalarFunctionDefinition {
  return { names: [name], description, signatures: [signature] };
}

export const ARRAY_SHAPE_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  define('trim_array', 'Remove elements from the end of array', {
    params: [ARRAY_T, BIGINT],
    returnType: sameAsFirst,
    returnTypeDisplay: 'array(T)',
    implement: () => body(trimArray),
  }),
  define('ngrams', 'Return N-grams for the input', {
    params: [ARRAY_T, INTEGER],
    returnType: (types) => arrayOf(types[0]),
    returnTypeDisplay: 'array(array(T))',
    implement: () => body(ngrams),
  }),
  define('combinations', 'Return n-element subsets from array', {
    params: [ARRAY_T, INTEGER],
    returnType: (types) => arrayOf(types[0]),
    returnTypeDisplay: 'array(array(T))',
    implement: () => body(combinations),
  }),
  define('array_first', 'Get the first element of an array', {
    params: [ARRAY_T],
    returnType: elementOfFirst,
    returnTypeDisplay: 'T',
    implement: () => body((a: Values) => (a.length === 0 ? null : a[0]), { mayReturnNull: true }),
  }),
  define('array_last', 'Get the last element of an array', {
    params: [ARRAY_T],
    returnType: elementOfFirst,
    returnTypeDisplay: 'T',
    implement: () => body((a: Values) => (a.length === 0 ? null : a[a.length - 1]), { mayReturnNull: true }),
  }),
  define('contains_sequence', 'Determines whether an array contains a sequence, with the values in the exact order', {
    params: [ARRAY_T, ARRAY_T],
    returnType: BOOLEAN,
    implement: ([type]) => {
      const same = identityFor(type.kind === 'array' ? type.element : type);
      const equal = (x: Scalar, y: Scalar) => (x === null || y === null ? x === y : same(x, y));
      return body((a: Values, seq: Values) => {
        for (let start = 0; start + seq.length <= a.length; start++) if (seq.every((v, i) => equal(a[start + i], v))) return true;
        return false;
      });
    },
  }),
  define('euclidean_distance', 'Calculates the euclidean distance between two vectors', {
    params: [ARRAY_DOUBLE, ARRAY_DOUBLE],
    returnType: DOUBLE,
    implement: () => body(euclideanDistance),
  }),
  define('dot_product', 'Calculates the dot product between two vectors', {
    params: [ARRAY_DOUBLE, ARRAY_DOUBLE],
    returnType: DOUBLE,
    implement: () => body(dotProduct),
  }),
  define('cosine_similarity', 'Calculates the cosine similarity between two vectors', {
    params: [ARRAY_DOUBLE, ARRAY_DOUBLE],
    returnType: DOUBLE,
    implement: () => body(cosineSimilarity, { mayReturnNull: true }),
  }),
  define('cosine_distance', 'Calculates the cosine distance between two vectors', {
    params: [ARRAY_DOUBLE, ARRAY_DOUBLE],
    returnType: DOUBLE,
    implement: () =>
      body(
        (a: Values, b: Values) => {
          const similarity = cosineSimilarity(a, b);
          return similarity === null ? null : 1 - similarity;
        },
        { mayReturnNull: true },
      ),
  }),
];
