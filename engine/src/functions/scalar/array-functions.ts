// Array functions without lambdas (Trino's functions/array.md), over the JS-array scalar of one row
// (page.ts). Element equality is IS NOT DISTINCT FROM (NULL matches NULL, NaN matches NaN) wherever
// Trino deduplicates (array_distinct, array_union, ...); `contains` and `array_position` use `=`.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { formatValueAsText } from '../../types/values.js';
import { BIGINT, BOOLEAN, DATE, INTERVAL_DAY_SECOND, INTERVAL_YEAR_MONTH, VARCHAR, type SqlType, arrayOf } from '../../types/types.js';
import { MICROS_PER_DAY, addMonthsToDays, timestampDays, timestampMicrosOfDay } from '../../types/datetime.js';
import { type ArrayPattern, type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';
import { equalityFor, scalarComparator } from './value-comparison.js';
import { type DistinctKey, distinctKeyOf } from './distinct-key.js';

type Values = readonly Scalar[];

const T = { variable: 'T' } as const;
const ARRAY_T: ArrayPattern = { arrayOf: 'T' };
const ARRAY_ARRAY_T: ArrayPattern = { arrayOf: 'T', depth: 2 };
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];
const elementOfFirst = (types: readonly SqlType[]): SqlType => (types[0] as { element: SqlType }).element;

/** Trino caps generated arrays (sequence, repeat) at this many entries. */
export const MAX_GENERATED_ENTRIES = 10_000;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

type Key = DistinctKey;

/** The element type of the first argument (an array). */
function elementKey(types: readonly SqlType[]): Key {
  return distinctKeyOf((types[0] as { element: SqlType }).element);
}

function distinctValues(values: Values, keyOf: Key): Scalar[] {
  const seen = new Set<unknown>();
  const out: Scalar[] = [];
  for (const v of values) {
    const key = keyOf(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}

function keySet(values: Values, keyOf: Key): Set<unknown> {
  return new Set(values.map(keyOf));
}

function checkedIndex(index: bigint): number {
  if (index === 0n) throw invalidArgument('SQL array indices start at 1');
  return Number(index);
}

function subscript(values: Values, index: bigint): Scalar {
  const i = checkedIndex(index);
  if (i < 0) throw invalidArgument(`Array subscript is negative: ${index}`);
  if (i > values.length) throw invalidArgument(`Array subscript must be less than or equal to array length: ${index} > ${values.length}`);
  return values[i - 1];
}

function elementAt(values: Values, index: bigint): Scalar {
  const i = checkedIndex(index);
  const position = i > 0 ? i - 1 : values.length + i;
  return position < 0 || position >= values.length ? null : values[position];
}

function slice(values: Values, start: bigint, length: bigint): Scalar[] {
  const from = checkedIndex(start);
  if (length < 0n) throw invalidArgument(`length must be greater than or equal to 0`);
  const begin = from > 0 ? from - 1 : values.length + from;
  if (begin < 0 || begin >= values.length) return [];
  return values.slice(begin, begin + Math.min(Number(length), values.length));
}

function arraysOverlap(a: Values, b: Values, keyOf: Key): boolean | null {
  const keys = keySet(
    b.filter((v) => v !== null),
    keyOf,
  );
  let anyNull = b.some((v) => v === null);
  for (const v of a) {
    if (v === null) anyNull = true;
    else if (keys.has(keyOf(v))) return true;
  }
  return anyNull ? null : false;
}

function checkedCount(count: bigint): number {
  if (count < 0n) throw invalidArgument('count argument of repeat function must be greater than or equal to 0');
  if (count > BigInt(MAX_GENERATED_ENTRIES))
    throw invalidArgument(`count argument of repeat function must be less than or equal to ${MAX_GENERATED_ENTRIES}`);
  return Number(count);
}

function split(text: string, delimiter: string, limit?: bigint): string[] {
  if (delimiter === '') throw invalidArgument('The delimiter may not be the empty string');
  if (limit !== undefined && limit <= 0n) throw invalidArgument('Limit must be positive');
  const parts = text.split(delimiter);
  if (limit === undefined || BigInt(parts.length) <= limit) return parts;
  const n = Number(limit);
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(delimiter)];
}

/** One signature over array(T) and friends, returning `returnType` (a type or computed from the bound arguments). */
function over(
  params: SignatureTemplate['params'],
  returnType: SignatureTemplate['returnType'],
  returnTypeDisplay: string | undefined,
  implement: SignatureTemplate['implement'],
): SignatureTemplate {
  return { params, returnType, returnTypeDisplay, implement };
}

function define(names: string[], description: string, ...signatures: SignatureTemplate[]): ScalarFunctionDefinition {
  return { names, description, signatures };
}

// ---- sequence ----

export function sequenceLength(start: bigint, stop: bigint, step: bigint): number {
  if (step === 0n) throw invalidArgument('step must not be zero');
  if (step > 0n ? stop < start : stop > start) {
    throw invalidArgument(
      'sequence stop value should be greater than or equal to start value if step is greater than zero otherwise stop should be less than or equal to start',
    );
  }
  const length = (stop - start) / step + 1n;
  if (length > BigInt(MAX_GENERATED_ENTRIES))
    throw invalidArgument(`result of sequence function must not have more than ${MAX_GENERATED_ENTRIES} entries`);
  return Number(length);
}

function bigintSequence(start: bigint, stop: bigint, step: bigint = stop >= start ? 1n : -1n): bigint[] {
  const length = sequenceLength(start, stop, step);
  return Array.from({ length }, (_, i) => start + BigInt(i) * step);
}

const MILLIS_PER_DAY = 86_400_000;

function dateSequenceByDays(start: number, stop: number, stepMillis: number): number[] {
  if (stepMillis % MILLIS_PER_DAY !== 0) throw invalidArgument('sequence step must be a day interval if start and end values are dates');
  const step = stepMillis / MILLIS_PER_DAY;
  const length = sequenceLength(BigInt(start), BigInt(stop), BigInt(step));
  return Array.from({ length }, (_, i) => start + i * step);
}

export function dateSequenceByMonths(start: number, stop: number, months: number): number[] {
  if (months === 0) throw invalidArgument('step must not be zero');
  if (months > 0 ? stop < start : stop > start) sequenceLength(BigInt(start), BigInt(stop), BigInt(months));
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const value = addMonthsToDays(start, k * months);
    if (months > 0 ? value > stop : value < stop) break;
    if (out.length === MAX_GENERATED_ENTRIES)
      throw invalidArgument(`result of sequence function must not have more than ${MAX_GENERATED_ENTRIES} entries`);
    out.push(value);
  }
  return out;
}

/** Timestamps (microseconds) from start to stop by a day-time interval (milliseconds). */
function timestampSequenceByTime(start: number, stop: number, stepMillis: number): number[] {
  const step = stepMillis * 1000;
  const length = sequenceLength(BigInt(start), BigInt(stop), BigInt(step));
  return Array.from({ length }, (_, i) => start + i * step);
}

function timestampSequenceByMonths(start: number, stop: number, months: number): number[] {
  if (months !== 0 && (months > 0 ? stop < start : stop > start)) sequenceLength(BigInt(start), BigInt(stop), BigInt(months));
  const time = timestampMicrosOfDay(start);
  return dateSequenceByMonths(timestampDays(start), timestampDays(stop), months)
    .map((d) => d * MICROS_PER_DAY + time)
    .filter((t) => (months > 0 ? t <= stop : t >= stop));
}

const TIMESTAMP_P = { family: 'timestamp', strict: true } as const;
const laterTimestamp = (types: readonly SqlType[]): SqlType =>
  arrayOf((types[0] as { precision: number }).precision >= (types[1] as { precision: number }).precision ? types[0] : types[1]);

const ARRAY_BIGINT = arrayOf(BIGINT);
const ARRAY_DATE = arrayOf(DATE);

export const ARRAY_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  define(
    ['cardinality'],
    'Returns the cardinality (size) of the array',
    over([ARRAY_T], BIGINT, undefined, () => body((a: Values) => BigInt(a.length))),
  ),
  define(
    ['element_at'],
    'Get element of array at given index',
    over([ARRAY_T, BIGINT], elementOfFirst, 'T', () => body(elementAt, { mayReturnNull: true })),
  ),
  define(
    ['contains'],
    'Determines whether given value exists in the array',
    over([ARRAY_T, T], BOOLEAN, undefined, ([type]) => {
      const equal = equalityFor((type as { element: SqlType }).element);
      return body(
        (a: Values, x: Scalar) => {
          let anyNull = false;
          for (const v of a) {
            if (v === null) anyNull = true;
            else if (equal(v, x)) return true;
          }
          return anyNull ? null : false;
        },
        { mayReturnNull: true },
      );
    }),
  ),
  define(
    ['array_position'],
    'Returns the position of the first occurrence of the given value in array (or 0 if not found)',
    over([ARRAY_T, T], BIGINT, undefined, ([type]) => {
      const equal = equalityFor((type as { element: SqlType }).element);
      return body((a: Values, x: Scalar) => BigInt(a.findIndex((v) => v !== null && equal(v, x)) + 1));
    }),
  ),
  define(
    ['array_distinct'],
    'Remove duplicate values from the given array',
    over([ARRAY_T], sameAsFirst, 'array(T)', (types) => {
      const keyOf = elementKey(types);
      return body((values: Values) => distinctValues(values, keyOf));
    }),
  ),
  define(
    ['array_max'],
    'Get maximum value of array',
    over([ARRAY_T], elementOfFirst, 'T', ([type]) => extremum((type as { element: SqlType }).element, 1)),
  ),
  define(
    ['array_min'],
    'Get minimum value of array',
    over([ARRAY_T], elementOfFirst, 'T', ([type]) => extremum((type as { element: SqlType }).element, -1)),
  ),
  define(
    ['array_join'],
    'Concatenates the elements of the given array using a delimiter and an optional string to replace nulls',
    over([ARRAY_T, VARCHAR], VARCHAR, undefined, ([type]) => arrayJoin((type as { element: SqlType }).element)),
    over([ARRAY_T, VARCHAR, VARCHAR], VARCHAR, undefined, ([type]) => arrayJoin((type as { element: SqlType }).element)),
  ),
  define(
    ['array_sort'],
    'Sorts the given array in ascending order according to the natural ordering of its elements',
    over([ARRAY_T], sameAsFirst, 'array(T)', ([type]) => {
      const compare = scalarComparator((type as { element: SqlType }).element);
      return body((a: Values) => [...a].sort((x, y) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : compare(x, y))));
    }),
  ),
  define(
    ['array_remove'],
    'Remove specified values from the given array',
    over([ARRAY_T, T], sameAsFirst, 'array(T)', ([type]) => {
      const equal = equalityFor((type as { element: SqlType }).element);
      return body((a: Values, x: Scalar) => a.filter((v) => v === null || !equal(v, x)));
    }),
  ),
  define(
    ['slice'],
    'Subsets an array given an offset (1-indexed) and length',
    over([ARRAY_T, BIGINT, BIGINT], sameAsFirst, 'array(T)', () => body(slice)),
  ),
  define(
    ['sequence'],
    'Sequence function to generate synthetic arrays',
    over([BIGINT, BIGINT], ARRAY_BIGINT, undefined, () => body((a: bigint, b: bigint) => bigintSequence(a, b))),
    over([BIGINT, BIGINT, BIGINT], ARRAY_BIGINT, undefined, () => body(bigintSequence)),
    over([DATE, DATE], ARRAY_DATE, undefined, () =>
      body((a: number, b: number) => dateSequenceByDays(a, b, b >= a ? MILLIS_PER_DAY : -MILLIS_PER_DAY)),
    ),
    over([DATE, DATE, INTERVAL_DAY_SECOND], ARRAY_DATE, undefined, () => body(dateSequenceByDays)),
    over([DATE, DATE, INTERVAL_YEAR_MONTH], ARRAY_DATE, undefined, () => body(dateSequenceByMonths)),
    over([TIMESTAMP_P, TIMESTAMP_P, INTERVAL_DAY_SECOND], laterTimestamp, 'array(timestamp(p))', () => body(timestampSequenceByTime)),
    over([TIMESTAMP_P, TIMESTAMP_P, INTERVAL_YEAR_MONTH], laterTimestamp, 'array(timestamp(p))', () => body(timestampSequenceByMonths)),
  ),
  define(
    ['flatten'],
    'Flattens the given array',
    over([ARRAY_ARRAY_T], elementOfFirst, 'array(T)', () =>
      body((a: readonly (Values | null)[]) => a.flatMap((inner) => (inner === null ? [] : inner))),
    ),
  ),
  define(
    ['array_union'],
    'Union elements of the two given arrays',
    over([ARRAY_T, ARRAY_T], sameAsFirst, 'array(T)', (types) => {
      const keyOf = elementKey(types);
      return body((a: Values, b: Values) => distinctValues([...a, ...b], keyOf));
    }),
  ),
  define(
    ['array_intersect'],
    'Intersects elements of the two given arrays',
    over([ARRAY_T, ARRAY_T], sameAsFirst, 'array(T)', (types) => {
      const keyOf = elementKey(types);
      return body((a: Values, b: Values) => {
        const keys = keySet(b, keyOf);
        return distinctValues(
          a.filter((v) => keys.has(keyOf(v))),
          keyOf,
        );
      });
    }),
  ),
  define(
    ['array_except'],
    'Returns an array of elements that are in the first array but not the second, without duplicates',
    over([ARRAY_T, ARRAY_T], sameAsFirst, 'array(T)', (types) => {
      const keyOf = elementKey(types);
      return body((a: Values, b: Values) => {
        const keys = keySet(b, keyOf);
        return distinctValues(
          a.filter((v) => !keys.has(keyOf(v))),
          keyOf,
        );
      });
    }),
  ),
  define(
    ['arrays_overlap'],
    'Returns true if arrays have common elements',
    over([ARRAY_T, ARRAY_T], BOOLEAN, undefined, (types) => {
      const keyOf = elementKey(types);
      return body((a: Values, b: Values) => arraysOverlap(a, b, keyOf), { mayReturnNull: true });
    }),
  ),
  define(
    ['repeat'],
    'Repeat an element for a given number of times',
    over(
      [T, BIGINT],
      (types) => arrayOf(types[0]),
      'array(T)',
      () => body((x: Scalar, count: bigint) => new Array<Scalar>(checkedCount(count)).fill(x), { acceptsNulls: true, mayReturnNull: true }),
    ),
  ),
  {
    names: ['shuffle'],
    description: 'Generates a random permutation of the given array',
    deterministic: false,
    signatures: [
      over([ARRAY_T], sameAsFirst, 'array(T)', () =>
        body((a: Values) => {
          const out = [...a];
          for (let i = out.length - 1; i > 0; i--) {
            const j = Math.floor(Math.random() * (i + 1));
            [out[i], out[j]] = [out[j], out[i]];
          }
          return out;
        }),
      ),
    ],
  },
  define(
    ['reverse'],
    'Returns an array which has the reversed order of the given array',
    over([ARRAY_T], sameAsFirst, 'array(T)', () => body((a: Values) => [...a].reverse())),
  ),
  define(
    ['concat'],
    'Concatenates given arrays',
    { ...over([ARRAY_T], sameAsFirst, 'array(T)', () => body((...arrays: Values[]) => arrays.flat())), variadic: { minArgs: 1 } },
    over([ARRAY_T, T], sameAsFirst, 'array(T)', () =>
      body((a: Values, x: Scalar) => [...a, x], { acceptsNulls: true, mayReturnNull: true }),
    ),
    over(
      [T, ARRAY_T],
      (types) => types[1],
      'array(T)',
      () => body((x: Scalar, a: Values) => [x, ...a], { acceptsNulls: true, mayReturnNull: true }),
    ),
  ),
  define(
    ['split'],
    'Splits a string by a delimiter, with an optional limit on the number of parts',
    over([VARCHAR, VARCHAR], arrayOf(VARCHAR), undefined, () => body((s: string, d: string) => split(s, d))),
    over([VARCHAR, VARCHAR, BIGINT], arrayOf(VARCHAR), undefined, () => body(split)),
  ),
];

/** array_max (sign 1) / array_min (sign -1): NULL when any element is NULL, as Trino. */
function extremum(element: SqlType, sign: 1 | -1) {
  const compare = scalarComparator(element);
  return body(
    (a: Values) => {
      let best: Scalar = null;
      for (const v of a) {
        if (v === null) return null;
        if (best === null || sign * compare(v, best) > 0) best = v;
      }
      return best;
    },
    { mayReturnNull: true },
  );
}

function arrayJoin(element: SqlType) {
  return body((a: Values, delimiter: string, nullReplacement?: string) => {
    const parts: string[] = [];
    for (const v of a) {
      if (v !== null) parts.push(formatValueAsText(v, element));
      else if (nullReplacement !== undefined) parts.push(nullReplacement);
    }
    return parts.join(delimiter);
  });
}

/** `a[i]` and the ARRAY[...] constructor: operators of the syntax, not listed by SHOW FUNCTIONS. */
export const ARRAY_OPERATORS: readonly ScalarFunctionDefinition[] = [
  define(
    ['subscript'],
    'Array subscript',
    over([ARRAY_T, BIGINT], elementOfFirst, 'T', () => body(subscript, { mayReturnNull: true })),
  ),
  define(['array_constructor'], 'Array constructor', {
    ...over(
      [T],
      (types) => arrayOf(types[0] ?? { kind: 'unknown' }),
      'array(T)',
      () => body((...elements: Scalar[]) => elements, { acceptsNulls: true }),
    ),
    variadic: { minArgs: 1 },
  }),
];
