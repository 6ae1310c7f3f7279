// How the writer stores each of our types (the reverse of type-mapping.ts, as Trino's Parquet
// writer does): its schema element, and its values plain-encoded (for pages and for statistics).
//   boolean        BOOLEAN                       real / double   FLOAT / DOUBLE
//   tinyint        INT32 INTEGER(8, signed)      decimal p <= 9  INT32 DECIMAL(p, s)
//   smallint       INT32 INTEGER(16, signed)     decimal p <= 18 INT64 DECIMAL(p, s)
//   integer        INT32                         decimal p > 18  FIXED_LEN_BYTE_ARRAY DECIMAL(p, s)
//   bigint         INT64                         varchar, char   BYTE_ARRAY STRING
//   date           INT32 DATE                    varbinary       BYTE_ARRAY
//   time(p)        INT64 TIME(MICROS, local)     timestamp(p)    INT64 TIMESTAMP(MILLIS for p <= 3, else MICROS; not UTC-adjusted)
// Arrays of these are three-level LISTs (list-chunk-writer.ts).

import { EngineError } from '../../../../errors/engine-error.js';
import { encodeStrings } from '../../../../columnar/arrow.js';
import type { ColumnValues } from '../../../../columnar/page.js';
import { PICOS_PER_MICRO, floorDiv, formatLongPlain, isLongPlain } from '../../../../types/long-plain-temporal.js';
import { SHORT_DECIMAL_PRECISION, timestamp, typeName, type SqlType } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ConvertedType, PhysicalType, Repetition } from './parquet-constants.js';
import { ByteSink } from './rle.js';

export interface PhysicalEncoding {
  element: SchemaElement;
  /** Plain encoding of rows[0, count) of `values` (the non-null rows, in order). */
  plain(values: ColumnValues, rows: Int32Array, count: number): Uint8Array;
}

/** Bytes of a FIXED_LEN_BYTE_ARRAY wide enough for every decimal of `precision` digits. */
export function decimalByteWidth(precision: number): number {
  let bytes = 1;
  while (2n ** BigInt(8 * bytes - 1) <= 10n ** BigInt(precision)) bytes++;
  return bytes;
}

export function physicalEncoding(name: string, type: SqlType): PhysicalEncoding {
  const element = (type: PhysicalType, extra: Partial<SchemaElement> = {}): SchemaElement => ({
    name,
    type,
    repetition: Repetition.Optional,
    ...extra,
  });
  switch (type.kind) {
    case 'boolean':
      return { element: element(PhysicalType.Boolean), plain: plainBooleans };
    case 'tinyint':
    case 'smallint': {
      const bitWidth = type.kind === 'tinyint' ? 8 : 16;
      const convertedType = type.kind === 'tinyint' ? ConvertedType.Int8 : ConvertedType.Int16;
      return {
        element: element(PhysicalType.Int32, { convertedType, logicalType: { kind: 'INTEGER', bitWidth, isSigned: true } }),
        plain: plainInt32,
      };
    }
    case 'integer':
      return { element: element(PhysicalType.Int32), plain: plainInt32 };
    case 'date':
      return {
        element: element(PhysicalType.Int32, { convertedType: ConvertedType.Date, logicalType: { kind: 'DATE' } }),
        plain: plainInt32,
      };
    case 'bigint':
      return { element: element(PhysicalType.Int64), plain: plainInt64 };
    case 'real':
      return { element: element(PhysicalType.Float), plain: (v, r, n) => plainFixed(v as Float32Array, r, n, Float32Array) };
    case 'double':
      return { element: element(PhysicalType.Double), plain: (v, r, n) => plainFixed(v as Float64Array, r, n, Float64Array) };
    case 'decimal': {
      const decimal = {
        convertedType: ConvertedType.Decimal,
        precision: type.precision,
        scale: type.scale,
        logicalType: { kind: 'DECIMAL' as const, precision: type.precision, scale: type.scale },
      };
      if (type.precision <= 9) return { element: element(PhysicalType.Int32, decimal), plain: plainInt64AsInt32 };
      if (type.precision <= SHORT_DECIMAL_PRECISION) return { element: element(PhysicalType.Int64, decimal), plain: plainInt64 };
      const width = decimalByteWidth(type.precision);
      return {
        element: element(PhysicalType.FixedLenByteArray, { ...decimal, typeLength: width }),
        plain: (v, r, n) => plainLongDecimals(v as bigint[], r, n, width),
      };
    }
    case 'varchar':
    case 'char':
      return {
        element: element(PhysicalType.ByteArray, { convertedType: ConvertedType.Utf8, logicalType: { kind: 'STRING' } }),
        plain: plainStrings,
      };
    case 'varbinary':
      return { element: element(PhysicalType.ByteArray), plain: plainBinaries };
    case 'time':
      return {
        element: element(PhysicalType.Int64, { logicalType: { kind: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' } }),
        plain: (v, r, n) => plainMicros(v as Float64Array, r, n, 1),
      };
    case 'timestamp': {
      const unit = type.precision <= 3 ? ('MILLIS' as const) : type.precision <= 6 ? ('MICROS' as const) : ('NANOS' as const);
      if (type.precision > 9)
        throw new EngineError(
          'NOT_SUPPORTED',
          `Column '${name}' of type ${typeName(type)} cannot be written to a Parquet file (nanoseconds at most)`,
        );
      const logicalType = { kind: 'TIMESTAMP' as const, isAdjustedToUTC: false, unit };
      const plain = isLongPlain(type)
        ? (v: ColumnValues, r: Int32Array, n: number) => plainPicosAsCounts(v as bigint[], r, n, unit === 'NANOS' ? 1000n : PICOS_PER_MICRO)
        : (v: ColumnValues, r: Int32Array, n: number) => plainMicros(v as Float64Array, r, n, 1000);
      return { element: element(PhysicalType.Int64, { logicalType }), plain };
    }
    default:
      throw new EngineError('NOT_SUPPORTED', `Column '${name}' of type ${typeName(type)} cannot be written to a Parquet file`);
  }
}

function plainBooleans(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as Uint8Array;
  const out = new Uint8Array(Math.ceil(count / 8));
  for (let i = 0; i < count; i++) if (v[rows[i]] !== 0) out[i >> 3] |= 1 << (i & 7);
  return out;
}

function plainInt32(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as Int32Array | Int16Array | Int8Array;
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = v[rows[i]];
  return new Uint8Array(out.buffer);
}

function plainInt64(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as BigInt64Array;
  const from = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
  const out = new Int32Array(count * 2);
  for (let i = 0; i < count; i++) {
    out[2 * i] = from[2 * rows[i]];
    out[2 * i + 1] = from[2 * rows[i] + 1];
  }
  return new Uint8Array(out.buffer);
}

/** Short decimals of up to 9 digits: the low word of each unscaled value. */
function plainInt64AsInt32(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as BigInt64Array;
  const from = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = from[2 * rows[i]];
  return new Uint8Array(out.buffer);
}

function plainFixed<T extends Float32Array | Float64Array>(
  values: T,
  rows: Int32Array,
  count: number,
  kind: { new (n: number): T },
): Uint8Array {
  const out = new kind(count);
  for (let i = 0; i < count; i++) out[i] = values[rows[i]];
  return new Uint8Array(out.buffer);
}

const TWO_POW_32 = 4294967296;

/**
 * Microseconds (doubles holding integers) as INT64 counts of `divisor` microseconds: millis of a
 * short timestamp round (its double is the nearest to whole millis, short-plain-timestamp.ts).
 */
function plainMicros(values: Float64Array, rows: Int32Array, count: number, divisor: number): Uint8Array {
  const out = new Int32Array(count * 2);
  for (let i = 0; i < count; i++) {
    const v = divisor === 1 ? values[rows[i]] : Math.round(values[rows[i]] / divisor);
    const high = Math.floor(v / TWO_POW_32);
    out[2 * i] = v - high * TWO_POW_32;
    out[2 * i + 1] = high;
  }
  return new Uint8Array(out.buffer);
}

/** Picoseconds of whole micros or nanos (a timestamp(4..9)) as INT64 counts of them. */
function plainPicosAsCounts(values: bigint[], rows: Int32Array, count: number, picosPerCount: bigint): Uint8Array {
  const out = new BigInt64Array(count);
  for (let i = 0; i < count; i++) {
    const units = floorDiv(values[rows[i]], picosPerCount);
    // Nanoseconds since 1970 fill an int64 only within 1677-09-21 .. 2262-04-11 (micros: any timestamp).
    if (BigInt.asIntN(64, units) !== units)
      throw new EngineError(
        'NOT_SUPPORTED',
        `Timestamp ${formatLongPlain(values[rows[i]], timestamp(9))} is outside the range a Parquet file holds in nanoseconds (years 1677..2262)`,
      );
    out[i] = units;
  }
  return new Uint8Array(out.buffer);
}

function plainLongDecimals(values: bigint[], rows: Int32Array, count: number, width: number): Uint8Array {
  const out = new Uint8Array(count * width);
  for (let i = 0; i < count; i++) {
    let v = BigInt.asUintN(width * 8, values[rows[i]]);
    for (let b = width - 1; b >= 0; b--) {
      out[i * width + b] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  return out;
}

function plainStrings(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as string[];
  const picked = new Array<string>(count);
  for (let i = 0; i < count; i++) picked[i] = v[rows[i]];
  const { offsets, bytes } = encodeStrings(picked, count);
  return lengthPrefixed(offsets, bytes, count);
}

function plainBinaries(values: ColumnValues, rows: Int32Array, count: number): Uint8Array {
  const v = values as Uint8Array[];
  const sink = new ByteSink(count * 8);
  for (let i = 0; i < count; i++) {
    const b = v[rows[i]];
    sink.int32(b.length);
    sink.bytes(b);
  }
  return sink.toBytes();
}

function lengthPrefixed(offsets: Int32Array, bytes: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 4 * count);
  const view = new DataView(out.buffer);
  let o = 0;
  for (let i = 0; i < count; i++) {
    const length = offsets[i + 1] - offsets[i];
    view.setInt32(o, length, true);
    out.set(bytes.subarray(offsets[i], offsets[i + 1]), o + 4);
    o += 4 + length;
  }
  return out;
}
