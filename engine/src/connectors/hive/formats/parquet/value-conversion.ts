// A page's physical values in our column layout (see columnar/page.ts), one typed loop per pair of
// physical and SQL type, without a BigInt or an object per value where the layout allows:
//   INT32 integers, dates      shared or narrowed typed arrays
//   INT32 decimals             BigInt64Array written as 32-bit word pairs (sign-extended)
//   INT64                      the file's bytes as a BigInt64Array
//   times                      Float64Array of microseconds (nanoseconds round half up)
//   timestamps, INT96          at the column's precision, rounded half up (timestamp-conversion.ts)
//   BYTE_ARRAY / FIXED decimals big-endian two's complement -> word pairs, or bigint for p > 18
//   strings                    decoded from UTF-8 in one go (columnar/arrow.ts's decoder)

import { decodeStrings } from '../../../../columnar/arrow.js';
import type { ColumnValues } from '../../../../columnar/page.js';
import { PICOS_PER_MICRO, isLongPlain, writePicos } from '../../../../types/long-plain-temporal.js';
import { timestampConverter } from './timestamp-conversion.js';
import { SHORT_DECIMAL_PRECISION, typeName, type SqlType } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ParquetDataError } from './parquet-errors.js';
import { physicalCount, type PhysicalValues } from './physical-values.js';
import { effectiveLogicalType } from './type-mapping.js';

export type ValueConverter = (values: PhysicalValues) => ColumnValues;

const PICOS_PER_MILLI = 1_000_000_000n;
const TWO_POW_32 = 4294967296;

/** The converter of a field's physical values into its (natural) SQL type's storage. */
export function valueConverter(element: SchemaElement, type: SqlType): ValueConverter {
  const logical = effectiveLogicalType(element);
  const unit = logical?.kind === 'TIMESTAMP' || logical?.kind === 'TIME' ? logical.unit : undefined;
  const unsigned = logical?.kind === 'INTEGER' && !logical.isSigned;
  switch (type.kind) {
    case 'boolean':
      return (v) => expect(v, 'boolean').values;
    case 'tinyint':
      return (v) => Int8Array.from(expect(v, 'int32').values);
    case 'smallint':
      return (v) => Int16Array.from(expect(v, 'int32').values);
    case 'integer':
    case 'date':
      return (v) => expect(v, 'int32').values;
    case 'bigint':
      if (v32(element)) return (v) => int32ToInt64(expect(v, 'int32').values, unsigned);
      return (v) => expect(v, 'int64').values;
    case 'real':
      if (logical?.kind === 'FLOAT16') return (v) => float16ToFloat32(expect(v, 'fixed'));
      return (v) => expect(v, 'float').values;
    case 'double':
      return (v) => expect(v, 'double').values;
    case 'decimal':
      return decimalConverter(type.precision, unsigned);
    case 'varchar':
      if (logical?.kind === 'UUID') return (v) => uuidStrings(expect(v, 'fixed'));
      return (v) => {
        const b = expect(v, 'bytes');
        return decodeStrings(b.offsets, b.data, b.offsets.length - 1);
      };
    case 'varbinary':
      return binaryViews;
    case 'timestamp':
      return timestampConverter(element, unit, type.precision);
    case 'time':
      if (isLongPlain(type)) return longTimeConverter(element, unit, type);
      if (unit === 'MILLIS' && v32(element)) return (v) => Float64Array.from(expect(v, 'int32').values, (x) => x * 1000);
      return (v) => int64ToMicros(expect(v, 'int64').values, unit === 'MILLIS' ? 1000 : 1, unit === 'NANOS');
    default:
      throw new ParquetDataError(`no conversion to ${typeName(type)}`);
  }
}

function v32(e: SchemaElement): boolean {
  return e.type === 1;
}

function expect<K extends PhysicalValues['kind']>(v: PhysicalValues, kind: K): Extract<PhysicalValues, { kind: K }> {
  if (v.kind !== kind) throw new ParquetDataError(`${v.kind} values where ${kind} values belong`);
  return v as Extract<PhysicalValues, { kind: K }>;
}

function int32ToInt64(values: Int32Array, unsigned: boolean): BigInt64Array {
  const out = new BigInt64Array(values.length);
  const words = new Int32Array(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    words[2 * i] = v;
    words[2 * i + 1] = unsigned || v >= 0 ? 0 : -1;
  }
  return out;
}

/** Millisecond or microsecond counts (exact while below 2^53 microseconds), or nanoseconds rounded. */
function int64ToMicros(values: BigInt64Array, scale: number, nanos: boolean): Float64Array {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const low = words[2 * i] >>> 0;
    const high = words[2 * i + 1];
    if (!nanos) out[i] = (high * TWO_POW_32 + low) * scale;
    // high * 2^32 = high * 4294967 * 1000 + high * 296: exact integer arithmetic in doubles.
    else out[i] = high * 4294967 + Math.floor((high * 296 + low + 500) / 1000);
  }
  return out;
}

/** Picoseconds of the day of a time(7..12) (Parquet's TIME counts of millis, micros or nanos), rounded to its precision. */
function longTimeConverter(element: SchemaElement, unit: 'MILLIS' | 'MICROS' | 'NANOS' | undefined, type: SqlType): ValueConverter {
  const write = writePicos(type) as (picos: bigint) => bigint;
  const scale = unit === 'MILLIS' ? PICOS_PER_MILLI : unit === 'NANOS' ? 1000n : PICOS_PER_MICRO;
  if (v32(element)) return (v) => Array.from(expect(v, 'int32').values, (x) => write(BigInt(x) * scale));
  return (v) => Array.from(expect(v, 'int64').values, (x) => write(x * scale));
}

function decimalConverter(precision: number, unsigned: boolean): ValueConverter {
  const short = precision <= SHORT_DECIMAL_PRECISION;
  return (v) => {
    switch (v.kind) {
      case 'int32':
        return short ? int32ToInt64(v.values, false) : Array.from(v.values, (x) => BigInt(x));
      case 'int64':
        if (short) return v.values;
        return Array.from(v.values, (x) => (unsigned ? BigInt.asUintN(64, x) : x));
      case 'bytes':
      case 'fixed':
        return short ? bigEndianToInt64(v) : bigEndianToBigints(v);
      default:
        throw new ParquetDataError(`${v.kind} values where decimal values belong`);
    }
  };
}

function valueBounds(v: PhysicalValues & { kind: 'bytes' | 'fixed' }, i: number): [number, number] {
  return v.kind === 'bytes' ? [v.offsets[i], v.offsets[i + 1]] : [i * v.width, (i + 1) * v.width];
}

/** Big-endian two's complement values of up to 8 significant bytes (longer ones sign-extended). */
function bigEndianToInt64(v: PhysicalValues & { kind: 'bytes' | 'fixed' }): BigInt64Array {
  const count = physicalCount(v);
  const out = new BigInt64Array(count);
  const words = new Int32Array(out.buffer);
  const data = v.data;
  for (let i = 0; i < count; i++) {
    const [start, end] = valueBounds(v, i);
    if (start === end) continue;
    const negative = data[start] >= 0x80;
    let low = negative ? -1 : 0;
    let high = low;
    const from = Math.max(start, end - 8);
    for (let p = from; p < end; p++) {
      high = (high << 8) | (low >>> 24);
      low = (low << 8) | data[p];
    }
    words[2 * i] = low;
    words[2 * i + 1] = high;
  }
  return out;
}

function bigEndianToBigints(v: PhysicalValues & { kind: 'bytes' | 'fixed' }): bigint[] {
  const count = physicalCount(v);
  const out = new Array<bigint>(count);
  const data = v.data;
  for (let i = 0; i < count; i++) {
    const [start, end] = valueBounds(v, i);
    const small = smallBigEndian(data, start, end);
    if (small !== undefined) {
      out[i] = BigInt(small);
      continue;
    }
    let value = 0n;
    let p = start;
    for (; p + 4 <= end; p += 4)
      value = (value << 32n) | BigInt(((data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]) >>> 0);
    for (; p < end; p++) value = (value << 8n) | BigInt(data[p]);
    out[i] = end > start ? BigInt.asIntN((end - start) * 8, value) : 0n;
  }
  return out;
}

/**
 * A big-endian two's complement value as a number when it fits in 48 bits (the bytes above are
 * sign extension): one BigInt from a number costs far less than BigInt shifts per byte.
 */
function smallBigEndian(data: Uint8Array, start: number, end: number): number | undefined {
  if (end - start === 0) return 0;
  const negative = data[start] >= 0x80;
  const fill = negative ? 0xff : 0;
  const from = Math.max(start, end - 6);
  for (let p = start; p < from; p++) if (data[p] !== fill) return undefined;
  if (from > start && data[from] >= 0x80 !== negative) return undefined;
  let value = 0;
  for (let p = from; p < end; p++) value = value * 256 + data[p];
  return negative ? value - 2 ** (8 * (end - from)) : value;
}

function binaryViews(v: PhysicalValues): Uint8Array[] {
  if (v.kind !== 'bytes' && v.kind !== 'fixed') throw new ParquetDataError(`${v.kind} values where byte arrays belong`);
  const count = physicalCount(v);
  const out = new Array<Uint8Array>(count);
  for (let i = 0; i < count; i++) {
    const [start, end] = valueBounds(v, i);
    out[i] = v.data.subarray(start, end);
  }
  return out;
}

function uuidStrings(v: PhysicalValues & { kind: 'fixed' }): string[] {
  const count = physicalCount(v);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const hex = Buffer.from(v.data.buffer, v.data.byteOffset + i * 16, 16).toString('hex');
    out[i] = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return out;
}

function float16ToFloat32(v: PhysicalValues & { kind: 'fixed' }): Float32Array {
  const count = physicalCount(v);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const bits = v.data[2 * i] | (v.data[2 * i + 1] << 8);
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    if (exponent === 0) out[i] = sign * fraction * 2 ** -24;
    else if (exponent === 31) out[i] = fraction === 0 ? sign * Infinity : NaN;
    else out[i] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return out;
}
