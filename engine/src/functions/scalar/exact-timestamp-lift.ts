// The datetime functions that read a plain timestamp, exact at every year (long-plain-temporal.ts):
// each timestamp argument is read as picoseconds since the epoch (a short one rounds back to whole
// millis, short-plain-timestamp.ts) and each body computes on bigints or whole days
// (exact-timestamp-arithmetic.ts), never on a double of micros, which is exact only within 2^53 of
// the epoch. The field functions reuse their micros bodies on the value moved by whole 400-year
// cycles of the Gregorian calendar (146097 days, which are 20871 whole weeks: every field but the
// year repeats) to within 200 years of 1970, where such a double is exact; the year moves back by
// 400 a cycle. Fields and the formatters read whole millis (Trino's functions compute on epoch
// millis: floor for fields, half up for the formatters). A call on short timestamps only, all
// within 2^53 micros of the epoch, takes the micros body directly.

import type { Scalar } from '../../types/scalar.js';
import { localPicosToZoned } from '../../types/long-plain-casts.js';
import { floorDiv, formatLongPlain, isLongPlain, readPicos, writePicos } from '../../types/long-plain-temporal.js';
import { zoneKeyOf } from '../../types/time-zones.js';
import type { SqlType } from '../../types/types.js';
import { PICOS_PER_DAY } from '../../types/zoned-time.js';
import { parseUnit } from './datetime-fields.js';
import { type TimestampParts, dateFormatParts, formatDatetimeParts } from './datetime-format.js';
import { addMonthsExact, addUnitsExact, diffUnitsExact, truncateExact } from './exact-timestamp-arithmetic.js';
import { longTimestampSequence } from './long-plain-sequence.js';
import type { ScalarImplementation } from './signature.js';

const PICOS_PER_MICRO = 1_000_000n;
const PICOS_PER_MILLI = 1_000_000_000n;
const CYCLE_DAYS = 146_097;
const CYCLE_PICOS = BigInt(CYCLE_DAYS) * PICOS_PER_DAY;
const CYCLE_MILLIS = CYCLE_DAYS * 86_400_000;
const CYCLE_YEARS = 400;
/** Micros doubles are exact integers below this magnitude. */
const EXACT_MICROS = 2 ** 53;
const EXACT_MILLIS = EXACT_MICROS / 1000;
const MAX_SAFE_MILLIS = 2 ** 53;

/** A body on picoseconds (timestamp arguments) returning picoseconds for a timestamp result. */
type Exact = (...args: never[]) => Scalar;
type ExactFactory = (types: readonly SqlType[], inner: () => ScalarImplementation) => Exact | undefined;

const FIELDS = [
  'quarter',
  'month',
  'week',
  'week_of_year',
  'day',
  'day_of_month',
  'day_of_week',
  'dow',
  'day_of_year',
  'doy',
  'hour',
  'minute',
  'second',
  'millisecond',
];
const YEAR_FIELDS = ['year', 'year_of_week', 'yow'];

const isTimestamp = (t: SqlType): boolean => t.kind === 'timestamp';

/**
 * The whole millis (floor) of a value moved by whole cycles to near 1970, as micros, and the cycles
 * moved: numbers while the millis are exact doubles (every year to ±285,000), bigints beyond.
 */
function inCycle(picos: bigint): { micros: number; cycles: number } {
  const millis = floorDiv(picos, PICOS_PER_MILLI);
  const ms = Number(millis);
  if (ms > -EXACT_MILLIS && ms < EXACT_MILLIS) return { micros: ms * 1000, cycles: 0 };
  if (ms > -MAX_SAFE_MILLIS && ms < MAX_SAFE_MILLIS) {
    // CYCLE_MILLIS is 2^10 times an odd number below 2^43: cycles * CYCLE_MILLIS is exact.
    const cycles = Math.floor((ms + CYCLE_MILLIS / 2) / CYCLE_MILLIS);
    return { micros: (ms - cycles * CYCLE_MILLIS) * 1000, cycles };
  }
  const cycles = floorDiv(millis * PICOS_PER_MILLI + CYCLE_PICOS / 2n, CYCLE_PICOS);
  return { micros: Number((millis * PICOS_PER_MILLI - cycles * CYCLE_PICOS) / PICOS_PER_MICRO), cycles: Number(cycles) };
}

/** The day and micros of the day of the value rounded half up to millis (as Trino's formatters read it). */
function roundedParts(picos: bigint): TimestampParts {
  const millis = floorDiv(picos + PICOS_PER_MILLI / 2n, PICOS_PER_MILLI) * PICOS_PER_MILLI;
  const days = floorDiv(millis, PICOS_PER_DAY);
  return { days: Number(days), microsOfDay: Number((millis - days * PICOS_PER_DAY) / PICOS_PER_MICRO) };
}

const field =
  (years: boolean): ExactFactory =>
  (_types, inner) => {
    const body = inner();
    return (t: bigint) => {
      const { micros, cycles } = inCycle(t);
      const value = body.invoke(micros) as bigint;
      return years && cycles !== 0 ? value + BigInt(cycles * CYCLE_YEARS) : value;
    };
  };

const lastDayOfMonth: ExactFactory = (_types, inner) => {
  const body = inner();
  return (t: bigint) => {
    const { micros, cycles } = inCycle(t);
    return (body.invoke(micros) as number) + cycles * CYCLE_DAYS;
  };
};

/** timestamp ± interval (day to second: millis; year to month: months), either operand order for add. */
function plusOrMinus(sign: 1n | -1n): ExactFactory {
  return (types) => {
    const at = types.findIndex(isTimestamp);
    const other = types[1 - at];
    if (at < 0 || other === undefined) return undefined;
    const add =
      other.kind === 'interval day to second'
        ? (t: bigint, ms: number) => t + sign * BigInt(ms) * PICOS_PER_MILLI
        : other.kind === 'interval year to month'
          ? (t: bigint, months: number) => addMonthsExact(t, sign * BigInt(months))
          : undefined;
    if (add === undefined) return undefined;
    return at === 0 ? add : (n: number, t: bigint) => add(t, n);
  };
}

/** timestamp - timestamp: the difference of whole micros rounded half up to millis (Trino). */
const subtract: ExactFactory = (types, inner) => {
  if (types.every(isTimestamp))
    return (a: bigint, b: bigint) => Number(floorDiv(floorDiv(a, PICOS_PER_MICRO) - floorDiv(b, PICOS_PER_MICRO) + 500n, 1000n));
  return plusOrMinus(-1n)(types, inner);
};

const EXACT: ReadonlyMap<string, ExactFactory> = new Map<string, ExactFactory>([
  ...FIELDS.map((name) => [name, field(false)] as const),
  ...YEAR_FIELDS.map((name) => [name, field(true)] as const),
  ['last_day_of_month', lastDayOfMonth],
  ['date_add', () => (unit: string, amount: bigint, t: bigint) => addUnitsExact(parseUnit(unit, 'timestamp'), amount, t)],
  ['date_diff', () => (unit: string, a: bigint, b: bigint) => diffUnitsExact(parseUnit(unit, 'timestamp'), a, b)],
  ['date_trunc', () => (unit: string, t: bigint) => truncateExact(parseUnit(unit, 'timestamp'), t)],
  ['format_datetime', () => (t: bigint, pattern: string) => formatDatetimeParts(roundedParts(t), pattern)],
  ['date_format', () => (t: bigint, format: string) => dateFormatParts(roundedParts(t), format)],
  [
    'to_iso8601',
    ([type]) =>
      (t: bigint) =>
        formatLongPlain(t, type).replace(' ', 'T'),
  ],
  [
    'with_timezone',
    ([type]) =>
      (t: bigint, zone: string) =>
        localPicosToZoned(t, zoneKeyOf(zone), (type as { precision: number }).precision),
  ],
  ['add', plusOrMinus(1n)],
  ['subtract', subtract],
  ['sequence', (types) => (types.some(isLongPlain) ? (longTimestampSequence(types).invoke as Exact) : undefined)],
]);

/** Whether a call of `name` reads or returns a plain timestamp (of any precision). */
export function isTimestampCall(types: readonly SqlType[], returnType: SqlType): boolean {
  return types.some(isTimestamp) || isTimestamp(returnType);
}

/** Whether `name` has an exact body for a call with a long timestamp. */
export function hasExactTimestampBody(name: string): boolean {
  return EXACT.has(name);
}

/**
 * The body of `name` on these types that is exact at every year, or undefined when there is none
 * (the micros body `inner` is then exact only within 2^53 micros of the epoch).
 */
export function exactTimestampImplementation(
  name: string,
  types: readonly SqlType[],
  returnType: SqlType,
  inner: () => ScalarImplementation,
): ScalarImplementation | undefined {
  const exact = EXACT.get(name)?.(types, inner);
  if (exact === undefined) return undefined;
  const invokeExact = exact as (...args: Scalar[]) => Scalar;
  const base = { mayReturnNull: true, acceptsNulls: false };
  // Long values in, a long value or another type out: picoseconds as they are (results keep the precision).
  const isShort = (t: SqlType) => isTimestamp(t) && !isLongPlain(t);
  if (!types.some(isShort) && !isShort(returnType)) return { ...base, invoke: invokeExact };
  const reads = types.map((t) => (isTimestamp(t) ? readPicos(t) : undefined));
  const write = isTimestamp(returnType) ? writePicos(returnType) : (v: Scalar) => v;
  const exactCall = (...args: Scalar[]): Scalar => {
    const result = invokeExact(...args.map((a, i) => (a === null || reads[i] === undefined ? a : reads[i](a))));
    return result === null ? null : write(result as bigint);
  };
  if (types.some(isLongPlain) || isLongPlain(returnType)) return { ...base, invoke: exactCall };
  // Short timestamps only: the micros body while every value is an exact double.
  const fast = inner();
  const at = types.flatMap((t, i) => (isTimestamp(t) ? [i] : []));
  return {
    mayReturnNull: fast.mayReturnNull,
    acceptsNulls: fast.acceptsNulls,
    invoke: (...args: Scalar[]) =>
      at.every((i) => args[i] === null || Math.abs(args[i] as number) < EXACT_MICROS) ? fast.invoke(...args) : exactCall(...args),
  };
}
