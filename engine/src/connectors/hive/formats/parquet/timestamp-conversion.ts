// A Parquet timestamp column (INT64 millis, micros or nanos, INT32 millis, INT96) read as timestamp(p)
// of any precision: finer values round half up to p (Trino's Parquet reader at the catalog's
// timestamp precision), coarser ones scale up. A short timestamp (p <= 3, a double of micros holding
// whole millis, short-plain-timestamp.ts) is computed in doubles where every step is exact (within
// about 285 years of 1970) and through picoseconds otherwise; a long one (bigint picoseconds) from the
// exact int64.

import type { ColumnValues } from '../../../../columnar/page.js';
import { isLongPlain, roundPicos, writePicos } from '../../../../types/long-plain-temporal.js';
import { timestamp } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ParquetDataError } from './parquet-errors.js';
import type { PhysicalValues } from './physical-values.js';

type Unit = 'MILLIS' | 'MICROS' | 'NANOS';

const TWO_POW_32 = 4294967296;
/** Integers below this magnitude, plus half of any unit here, are still exact doubles. */
const EXACT = 2 ** 53 - 2 ** 30;
const NANOS_PER_DAY = 86_400_000_000_000n;
const UNIX_EPOCH_JULIAN_DAY = 2_440_588;
const PICOS_PER: Record<Unit, bigint> = { MILLIS: 1_000_000_000n, MICROS: 1_000_000n, NANOS: 1000n };

/** The converter of a timestamp column's physical values (its unit, undefined for INT96) to timestamp(precision). */
export function timestampConverter(
  element: SchemaElement,
  unit: Unit | undefined,
  precision: number,
): (values: PhysicalValues) => ColumnValues {
  if (element.type === 3) return (v) => int96Timestamps(int96Words(v), precision);
  const resolved = unit ?? 'MICROS';
  if (isLongPlain(timestamp(precision))) {
    const scale = PICOS_PER[resolved];
    // Rounding only where the file's unit is finer than the precision.
    const exact = precision >= 12 - digitsOf(scale);
    const toPicos = exact ? (x: bigint) => x * scale : (x: bigint) => roundPicos(x * scale, precision);
    if (element.type === 1) return (v) => Array.from(int32Values(v), (x) => toPicos(BigInt(x)));
    return (v) => {
      // A loop into a sized array: a third faster than Array.from's mapping.
      const counts = int64Values(v);
      const out = new Array<bigint>(counts.length);
      for (let i = 0; i < counts.length; i++) out[i] = toPicos(counts[i]);
      return out;
    };
  }
  if (element.type === 1) return (v) => shortOfCounts(Float64Array.from(int32Values(v)), resolved, precision);
  return (v) => shortOfInt64(int64Values(v), resolved, precision);
}

function digitsOf(scale: bigint): number {
  return scale.toString().length - 1;
}

/** Micros (whole units of the precision) of int64 counts of `unit`. */
function shortOfInt64(values: BigInt64Array, unit: Unit, precision: number): Float64Array {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const out = new Float64Array(values.length);
  const step = 10 ** (6 - precision);
  const slow = writePicos(timestamp(precision)) as (picos: bigint) => number;
  for (let i = 0; i < values.length; i++) {
    const low = words[2 * i] >>> 0;
    const high = words[2 * i + 1];
    // Nanoseconds: their floor micros (exact integer steps); the half of a unit of >= 1 milli is whole micros.
    const micros =
      unit === 'NANOS'
        ? high * 4294967 + Math.floor((high * 296 + low) / 1000)
        : (high * TWO_POW_32 + low) * (unit === 'MILLIS' ? 1000 : 1);
    if (micros > -EXACT && micros < EXACT) out[i] = Math.floor((micros + step / 2) / step) * step;
    else out[i] = slow(values[i] * PICOS_PER[unit]);
  }
  return out;
}

/** Micros (whole units of the precision) of counts of `unit` held exactly in doubles (INT32 millis). */
function shortOfCounts(counts: Float64Array, unit: Unit, precision: number): Float64Array {
  const step = 10 ** (6 - precision);
  const scale = unit === 'MILLIS' ? 1000 : 1;
  return counts.map((c) => Math.floor((c * scale + step / 2) / step) * step);
}

/** Julian day and nanoseconds of the day (INT96) as timestamp(precision) values. */
function int96Timestamps(words: Int32Array, precision: number): ColumnValues {
  const count = words.length / 3;
  const nanosOfDay = (i: number) => (words[3 * i + 1] >>> 0) * TWO_POW_32 + (words[3 * i] >>> 0);
  const day = (i: number) => words[3 * i + 2] - UNIX_EPOCH_JULIAN_DAY;
  if (isLongPlain(timestamp(precision))) {
    const out = new Array<bigint>(count);
    for (let i = 0; i < count; i++) out[i] = roundPicos((BigInt(day(i)) * NANOS_PER_DAY + BigInt(nanosOfDay(i))) * 1000n, precision);
    return out;
  }
  // A unit of the precision (1 ms .. 1 s) divides a day: whole units of the day plus the rounded units of its nanoseconds.
  const stepNanos = 10 ** (9 - precision);
  const unitsPerDay = 86_400_000_000_000 / stepNanos;
  const step = stepNanos / 1000;
  const slow = writePicos(timestamp(precision)) as (picos: bigint) => number;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const units = day(i) * unitsPerDay + Math.floor((nanosOfDay(i) + stepNanos / 2) / stepNanos);
    out[i] = Math.abs(units * step) < EXACT ? units * step : slow((BigInt(day(i)) * NANOS_PER_DAY + BigInt(nanosOfDay(i))) * 1000n);
  }
  return out;
}

function int96Words(v: PhysicalValues): Int32Array {
  if (v.kind !== 'int96') throw new ParquetDataError(`${v.kind} values where int96 values belong`);
  return v.values;
}

function int64Values(v: PhysicalValues): BigInt64Array {
  if (v.kind !== 'int64') throw new ParquetDataError(`${v.kind} values where int64 values belong`);
  return v.values;
}

function int32Values(v: PhysicalValues): Int32Array {
  if (v.kind !== 'int32') throw new ParquetDataError(`${v.kind} values where int32 values belong`);
  return v.values;
}
