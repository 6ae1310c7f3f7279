// Pages <-> Arrow record batches. Arrow is the storage and wire format (memory connector, exchanges);
// pages are what operators compute on. Fixed-width columns whose layouts agree (integers, floats,
// date, year-month intervals) are shared without copying in both directions; the rest is converted:
//   boolean                 Bool (bit-packed)
//   decimal(p,s)            Decimal128 (two's complement, little endian)
//   varchar / char          Utf8 (decoded into JS strings; an exchange's pages keep the bytes until read, utf8-strings.ts)
//   varbinary               Binary (decoded into views of the Arrow buffer)
//   date                    Date32 (DateDay)
//   time(p), timestamp(p)   Time64 / Timestamp microsecond, no time zone, up to p = 6; above, Decimal128
//                           of picoseconds (of the day / since the epoch; the field metadata's SqlType says so)
//   timestamp(p) with time zone  Int64: epoch millis << 12 | zone key (the SqlType in the field metadata says so)
//   interval year to month  Int32 (months)       \ told apart from plain integers by
//   interval day to second  Int64 (milliseconds) / the field metadata
//   unknown                 Null
//   array(T)                List of T (offsets and one child, element field `item`), nested alike
//   map(K, V)               Map (offsets over a struct of `key` and `value`, arrow-map.ts)
//   row(...)                Struct, one child per field (named as the field, `field<i>` when anonymous)
// Every field carries the exact SqlType in its metadata (SQL_TYPE_METADATA_KEY), so a batch that went
// through IPC still says varchar(25), decimal(12,2) or char(3).

import {
  Binary,
  Bool,
  DataType,
  DateDay,
  Decimal,
  Field,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  List,
  Null,
  RecordBatch,
  Schema,
  Struct,
  TimeMicrosecond,
  TimestampMicrosecond,
  Type,
  Utf8,
  makeData,
  type Data,
} from 'apache-arrow';
import { EngineError } from '../errors/engine-error.js';
import { SHORT_DECIMAL_PRECISION, holdsStrings, typeName, unsupportedTypeError, type SqlType } from '../types/types.js';
import { isLongZoned } from '../types/long-zoned-timestamp.js';
import { isLongPlain } from '../types/long-plain-temporal.js';
import { sliceColumn, type Column, type ColumnValues, type Page } from './page.js';
import { listElements } from './list-column.js';
import { arrowMapToColumn, arrowMapType, mapColumnToArrowData } from './arrow-map.js';
import { rowFieldColumns } from './row-column.js';
import { checkedUtf8, decodeStrings, encodeStrings, rebasedUtf8, utf8Column } from './utf8-strings.js';

export { decodeStrings, encodeStrings } from './utf8-strings.js';

/** Field metadata key holding the column's SqlType as JSON. */
export const SQL_TYPE_METADATA_KEY = 'engine.sql_type';

/** The Arrow type a column of `type` is stored as. */
export function arrowType(type: SqlType): DataType {
  switch (type.kind) {
    case 'boolean':
      return new Bool();
    case 'tinyint':
      return new Int8();
    case 'smallint':
      return new Int16();
    case 'integer':
    case 'interval year to month':
      return new Int32();
    case 'bigint':
    case 'interval day to second':
      return new Int64();
    case 'timestamp with time zone': // packed instant and zone key: 64 bits short, 128 long (long-zoned-timestamp.ts)
      return isLongZoned(type.precision) ? new Decimal(0, 38, 128) : new Int64();
    case 'time with time zone': // normalized picos and offset (zoned-time.ts)
      return new Decimal(0, 38, 128);
    case 'real':
      return new Float32();
    case 'double':
      return new Float64();
    case 'decimal':
      return new Decimal(type.scale, type.precision, 128);
    case 'varchar':
    case 'char':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color':
    case 'number':
      return new Utf8();
    case 'varbinary':
    case 'sketch':
    case 'variant':
      return new Binary();
    case 'date':
      return new DateDay();
    case 'time': // picoseconds (long-plain-temporal.ts) above precision 6
      return isLongPlain(type) ? new Decimal(0, 38, 128) : new TimeMicrosecond();
    case 'timestamp':
      return isLongPlain(type) ? new Decimal(0, 38, 128) : new TimestampMicrosecond();
    case 'unknown':
      return new Null();
    case 'array':
      return new List(new Field('item', arrowType(type.element), true));
    case 'row':
      return new Struct(type.fields.map((f, i) => new Field(f.name ?? `field${i}`, arrowType(f.type), true)));
    case 'map':
      return arrowMapType(type);
    case 'function':
    case 'unsupported':
      throw unsupportedTypeError(type);
  }
}

/** A nullable field of `type`, its SqlType kept in the metadata. */
export function sqlTypeField(name: string, type: SqlType): Field {
  return new Field(name, arrowType(type), true, new Map([[SQL_TYPE_METADATA_KEY, JSON.stringify(type)]]));
}

export function pageToRecordBatch(page: Page, names: readonly string[]): RecordBatch {
  if (names.length !== page.columns.length) {
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Page has ${page.columns.length} columns but ${names.length} names were given`);
  }
  const fields = page.columns.map((c, i) => sqlTypeField(names[i], c.type));
  const children = page.columns.map((c) => columnToArrowData(c, page.rowCount));
  const struct = makeData({ type: new Struct(fields), length: page.rowCount, nullCount: 0, children });
  return new RecordBatch(new Schema(fields), struct);
}

/** `keepUtf8`: string columns keep their UTF-8 bytes and are decoded when first read (utf8-strings.ts). */
export function recordBatchToPage(batch: RecordBatch, types: readonly SqlType[], keepUtf8 = false): Page {
  const children = batch.data.children;
  if (types.length !== children.length) {
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Record batch has ${children.length} columns but ${types.length} types were given`);
  }
  const column = (t: SqlType, i: number) => (keepUtf8 ? arrowUtf8Column(children[i], t) : undefined) ?? arrowDataToColumn(children[i], t);
  return { rowCount: batch.numRows, columns: types.map(column) };
}

/** A string column as a Utf8Column over the Arrow buffers; undefined for other columns and bytes that are not valid UTF-8. */
function arrowUtf8Column(data: Data, type: SqlType): Column | undefined {
  if (!holdsStrings(type) || !DataType.isUtf8(data.type)) return undefined;
  const utf8 = checkedUtf8(data.valueOffsets as Int32Array, data.values as Uint8Array, data.length);
  return utf8 === undefined ? undefined : utf8Column(type, data.length, validityToNulls(data), utf8);
}

/** The SqlTypes of a batch's columns: from the field metadata, else inferred from the Arrow types. */
export function recordBatchTypes(batch: RecordBatch): SqlType[] {
  return batch.schema.fields.map(fieldSqlType);
}

export function fieldSqlType(field: Field): SqlType {
  const stored = field.metadata.get(SQL_TYPE_METADATA_KEY);
  if (stored !== undefined) return JSON.parse(stored) as SqlType;
  return inferSqlType(field.type);
}

function inferSqlType(type: DataType): SqlType {
  if (DataType.isBool(type)) return { kind: 'boolean' };
  if (DataType.isInt(type) && type.isSigned) {
    const byWidth = { 8: 'tinyint', 16: 'smallint', 32: 'integer', 64: 'bigint' } as const;
    return { kind: byWidth[type.bitWidth] };
  }
  if (DataType.isFloat(type)) return { kind: type.precision === 2 ? 'double' : 'real' };
  if (DataType.isDecimal(type) && type.bitWidth === 128) return { kind: 'decimal', precision: type.precision, scale: type.scale };
  if (DataType.isUtf8(type)) return { kind: 'varchar' };
  if (DataType.isBinary(type)) return { kind: 'varbinary' };
  if (DataType.isDate(type) && type.typeId === Type.Date) return type.unit === 0 ? { kind: 'date' } : unsupportedArrow(type);
  if (DataType.isNull(type)) return { kind: 'unknown' };
  if (DataType.isList(type)) return { kind: 'array', element: inferSqlType(type.children[0].type) };
  if (DataType.isMap(type))
    return { kind: 'map', key: inferSqlType(type.childType.children[0].type), value: inferSqlType(type.childType.children[1].type) };
  return unsupportedArrow(type);
}

function unsupportedArrow(type: DataType): never {
  throw new EngineError('NOT_SUPPORTED', `Arrow type ${String(type)} has no SQL type mapping`);
}

// ---- page column -> Arrow data ----

export function columnToArrowData(column: Column, length: number = column.length): Data {
  const type = column.type;
  const validity = nullsToValidity(column.nulls, length);
  const base = { length, nullCount: validity.nullCount, nullBitmap: validity.bitmap };
  if (column.utf8 !== undefined) {
    // Already in Arrow's layout: its bytes as they are, not decoded and encoded again.
    const { offsets, bytes } = rebasedUtf8(column.utf8, length);
    return makeData({ type: new Utf8(), ...base, valueOffsets: offsets, data: bytes });
  }
  const values = column.values;
  switch (type.kind) {
    case 'boolean':
      return makeData({ type: new Bool(), ...base, data: packBits(values as Uint8Array, length) });
    case 'tinyint':
      return makeData({ type: new Int8(), ...base, data: (values as Int8Array).subarray(0, length) });
    case 'smallint':
      return makeData({ type: new Int16(), ...base, data: (values as Int16Array).subarray(0, length) });
    case 'integer':
    case 'interval year to month':
      return makeData({ type: new Int32(), ...base, data: (values as Int32Array).subarray(0, length) });
    case 'time with time zone':
      return makeData({ type: new Decimal(0, 38, 128), ...base, data: decimalsToInt128(values as bigint[], length) });
    case 'timestamp with time zone':
      if (isLongZoned(type.precision))
        return makeData({ type: new Decimal(0, 38, 128), ...base, data: decimalsToInt128(values as bigint[], length) });
      return makeData({ type: new Int64(), ...base, data: (values as BigInt64Array).subarray(0, length) });
    case 'bigint':
      return makeData({ type: new Int64(), ...base, data: (values as BigInt64Array).subarray(0, length) });
    case 'interval day to second':
      return makeData({ type: new Int64(), ...base, data: floatsToInt64(values as Float64Array, length) });
    case 'real':
      return makeData({ type: new Float32(), ...base, data: (values as Float32Array).subarray(0, length) });
    case 'double':
      return makeData({ type: new Float64(), ...base, data: (values as Float64Array).subarray(0, length) });
    case 'decimal':
      return makeData({
        type: new Decimal(type.scale, type.precision, 128),
        ...base,
        data: decimalsToInt128(values as BigInt64Array | bigint[], length),
      });
    case 'varchar':
    case 'char':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color':
    case 'number': {
      const { offsets, bytes } = encodeStrings(values as string[], length);
      return makeData({ type: new Utf8(), ...base, valueOffsets: offsets, data: bytes });
    }
    case 'varbinary':
    case 'sketch':
    case 'variant': {
      const { offsets, bytes } = concatBinaries(values as Uint8Array[], length);
      return makeData({ type: new Binary(), ...base, valueOffsets: offsets, data: bytes });
    }
    case 'date':
      return makeData({ type: new DateDay(), ...base, data: (values as Int32Array).subarray(0, length) });
    case 'time':
    case 'timestamp':
      if (isLongPlain(type))
        return makeData({ type: new Decimal(0, 38, 128), ...base, data: decimalsToInt128(values as bigint[], length) });
      if (type.kind === 'time')
        return makeData({ type: new TimeMicrosecond(), ...base, data: floatsToInt64(values as Float64Array, length) });
      return makeData({ type: new TimestampMicrosecond(), ...base, data: floatsToInt64(values as Float64Array, length) });
    case 'unknown':
      return makeData({ type: new Null(), length });
    case 'array': {
      const offsets = (values as Int32Array).subarray(0, length + 1);
      const elements = listElements(column);
      const child = columnToArrowData(sliceColumn(elements, 0, offsets[length]));
      return makeData({ type: arrowType(type) as List, ...base, valueOffsets: offsets, child });
    }
    case 'row':
      return makeData({
        type: arrowType(type) as Struct,
        ...base,
        children: rowFieldColumns(column).map((c) => columnToArrowData(c, length)),
      });
    case 'map':
      return mapColumnToArrowData(column, length, base);
    case 'function':
    case 'unsupported':
      throw unsupportedTypeError(type);
  }
}

function nullsToValidity(nulls: Uint8Array | null, length: number): { bitmap: Uint8Array | undefined; nullCount: number } {
  // A native scan first: most null masks of real data hold no NULL at all.
  if (nulls === null || nulls.subarray(0, length).indexOf(1) === -1) return { bitmap: undefined, nullCount: 0 };
  const bitmap = packBitsUnequal(nulls, length, 1);
  let valid = 0;
  for (let b = 0; b < bitmap.length; b++) valid += BIT_COUNT[bitmap[b]];
  return { bitmap, nullCount: length - valid };
}

/** Set bits per byte value. */
const BIT_COUNT = Uint8Array.from({ length: 256 }, (_, v) => {
  let n = 0;
  for (let x = v; x !== 0; x >>= 1) n += x & 1;
  return n;
});

function packBits(values: Uint8Array, length: number): Uint8Array {
  return packBitsUnequal(values, length, 0);
}

/** Bit i is set when bytes[i] !== `unset`; eight bytes become one bitmap byte at a time. */
function packBitsUnequal(bytes: Uint8Array, length: number, unset: number): Uint8Array {
  const bits = new Uint8Array((length + 7) >> 3);
  const whole = length >> 3;
  for (let b = 0; b < whole; b++) {
    const i = b << 3;
    bits[b] =
      (bytes[i] !== unset ? 1 : 0) |
      (bytes[i + 1] !== unset ? 2 : 0) |
      (bytes[i + 2] !== unset ? 4 : 0) |
      (bytes[i + 3] !== unset ? 8 : 0) |
      (bytes[i + 4] !== unset ? 16 : 0) |
      (bytes[i + 5] !== unset ? 32 : 0) |
      (bytes[i + 6] !== unset ? 64 : 0) |
      (bytes[i + 7] !== unset ? 128 : 0);
  }
  for (let i = whole << 3; i < length; i++) if (bytes[i] !== unset) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}

const TWO_POW_32 = 4294967296;
const TWO_POW_63 = 9223372036854775808;

/**
 * Microseconds / milliseconds held as doubles -> Int64 (they are integral by construction), written as
 * two 32-bit halves without a BigInt per value. Non-finite values become 0; values beyond the Int64
 * range wrap, as BigInt64Array assignment does.
 */
function floatsToInt64(values: Float64Array, length: number): BigInt64Array {
  const out = new BigInt64Array(length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (!(Math.abs(v) < TWO_POW_63)) {
      out[i] = Number.isFinite(v) ? BigInt.asIntN(64, BigInt(Math.trunc(v))) : 0n;
      continue;
    }
    const whole = Math.trunc(v);
    const high = Math.floor(whole / TWO_POW_32);
    halves[2 * i] = whole - high * TWO_POW_32; // in [0, 2^32): stored as its two's complement bits
    halves[2 * i + 1] = high;
  }
  return out;
}

/** Decimal128 words: short decimals copy their 64-bit halves (sign-extended) with 32-bit moves, no BigInt. */
function decimalsToInt128(values: BigInt64Array | bigint[], length: number): Uint32Array {
  if (values instanceof BigInt64Array) {
    const source = new Int32Array(values.buffer, values.byteOffset, length * 2);
    const out = new Int32Array(length * 4);
    for (let i = 0; i < length; i++) {
      const high = source[2 * i + 1];
      out[4 * i] = source[2 * i];
      out[4 * i + 1] = high;
      out[4 * i + 2] = out[4 * i + 3] = high >> 31;
    }
    return new Uint32Array(out.buffer);
  }
  const words = new BigInt64Array(length * 2);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    words[2 * i] = BigInt.asIntN(64, v);
    words[2 * i + 1] = BigInt.asIntN(64, v >> 64n);
  }
  return new Uint32Array(words.buffer);
}

function concatBinaries(values: readonly Uint8Array[], length: number): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(length + 1);
  let total = 0;
  for (let i = 0; i < length; i++) {
    total += values[i].byteLength;
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  for (let i = 0; i < length; i++) bytes.set(values[i], offsets[i]);
  return { offsets, bytes };
}

// ---- Arrow data -> page column ----

export function arrowDataToColumn(data: Data, type: SqlType): Column {
  const length = data.length;
  if (type.kind === 'unknown') return { type, length, values: new Uint8Array(length), nulls: new Uint8Array(length).fill(1) };
  const nulls = validityToNulls(data);
  if (type.kind === 'array') return arrowListToColumn(data, type, length, nulls);
  if (type.kind === 'map') return arrowMapToColumn(data, type, length, nulls);
  if (type.kind === 'row') {
    expectArrowType(data, type);
    return {
      type,
      length,
      values: new Uint8Array(0),
      nulls,
      children: type.fields.map((f, i) => arrowDataToColumn(data.children[i], f.type)),
    };
  }
  return { type, length, values: arrowValues(data, type, length), nulls };
}

/** A List's offsets rebased to 0 and the child rows they cover. */
function arrowListToColumn(data: Data, type: SqlType & { kind: 'array' }, length: number, nulls: Uint8Array | null): Column {
  expectArrowType(data, type);
  const source = data.valueOffsets as Int32Array;
  const base = source[0];
  const offsets = new Int32Array(length + 1);
  for (let i = 0; i <= length; i++) offsets[i] = source[i] - base;
  const elements = sliceColumn(arrowDataToColumn(data.children[0], type.element), base, source[length]);
  return { type, length, values: offsets, nulls, children: [elements] };
}

function arrowValues(data: Data, type: SqlType, length: number): ColumnValues {
  expectArrowType(data, type);
  switch (type.kind) {
    case 'boolean':
      return unpackBits(data.values as Uint8Array, data.offset, length);
    case 'time with time zone':
      return int128ToDecimals(data.values as Uint32Array, length, false);
    case 'timestamp with time zone':
      if (isLongZoned(type.precision)) return int128ToDecimals(data.values as Uint32Array, length, false);
      return (data.values as BigInt64Array).subarray(0, length);
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'interval year to month':
    case 'bigint':
    case 'real':
    case 'double':
    case 'date':
      // Zero-copy: Arrow already sliced fixed-width values to the data's offset.
      return (data.values as Int32Array).subarray(0, length);
    case 'time':
    case 'timestamp':
      if (isLongPlain(type)) return int128ToDecimals(data.values as Uint32Array, length, false);
      return int64ToFloats(data.values as BigInt64Array, length);
    case 'interval day to second':
      return int64ToFloats(data.values as BigInt64Array, length);
    case 'decimal':
      return int128ToDecimals(data.values as Uint32Array, length, type.precision <= SHORT_DECIMAL_PRECISION);
    case 'varchar':
    case 'char':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color':
    case 'number':
      return decodeStrings(data.valueOffsets as Int32Array, data.values as Uint8Array, length);
    case 'varbinary':
    case 'sketch':
    case 'variant':
      return sliceBinaries(data.valueOffsets as Int32Array, data.values as Uint8Array, length);
    case 'unknown':
    case 'array': // arrowDataToColumn reads lists, maps and structs
    case 'map':
    case 'row':
      return new Uint8Array(length);
    case 'function':
    case 'unsupported':
      throw unsupportedTypeError(type);
  }
}

/** Refuses a batch whose Arrow type cannot hold the SqlType the caller expects. */
function expectArrowType(data: Data, type: SqlType): void {
  const expected = arrowType(type);
  if (data.type.typeId !== expected.typeId || String(data.type) !== String(expected)) {
    throw new EngineError(
      'GENERIC_INTERNAL_ERROR',
      `Arrow column of type ${String(data.type)} cannot be read as ${typeName(type)} (expected ${String(expected)})`,
    );
  }
}

function validityToNulls(data: Data): Uint8Array | null {
  if (data.nullCount === 0 || data.nullBitmap === undefined || data.nullBitmap.length === 0) return null;
  return unpackBitsAs(data.nullBitmap, data.offset, data.length, 0);
}

function unpackBits(bits: Uint8Array, offset: number, length: number): Uint8Array {
  return unpackBitsAs(bits, offset, length, 1);
}

/** One byte per bit: `set` where the bit is set, the other of 0/1 where it is clear. Whole bytes at a time when aligned. */
function unpackBitsAs(bits: Uint8Array, offset: number, length: number, set: 0 | 1): Uint8Array {
  const out = new Uint8Array(length);
  const clear = set ^ 1;
  let i = 0;
  if ((offset & 7) === 0) {
    const first = offset >> 3;
    for (const whole = length >> 3; i >> 3 < whole; i += 8) {
      const byte = bits[first + (i >> 3)];
      if (byte === 0xff && set === 0) continue; // all valid: the zeros are already there
      for (let k = 0; k < 8; k++) out[i + k] = (byte >> k) & 1 ? set : clear;
    }
  }
  for (; i < length; i++) {
    const bit = offset + i;
    out[i] = (bits[bit >> 3] >> (bit & 7)) & 1 ? set : clear;
  }
  return out;
}

/** Int64 -> doubles from the two 32-bit halves: high * 2^32 + low rounds once, as Number(bigint) does. */
function int64ToFloats(values: BigInt64Array, length: number): Float64Array {
  const halves = new Int32Array(values.buffer, values.byteOffset, length * 2);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = halves[2 * i + 1] * TWO_POW_32 + (halves[2 * i] >>> 0);
  return out;
}

function int128ToDecimals(words32: Uint32Array, length: number, short: boolean): BigInt64Array | bigint[] {
  if (short) {
    // A short decimal is the low 64 bits of its 128-bit word: 32-bit moves, no BigInt.
    const out = new BigInt64Array(length);
    const halves = new Uint32Array(out.buffer);
    for (let i = 0; i < length; i++) {
      halves[2 * i] = words32[4 * i];
      halves[2 * i + 1] = words32[4 * i + 1];
    }
    return out;
  }
  const words = asInt64Words(words32, length * 2);
  const out = new Array<bigint>(length);
  for (let i = 0; i < length; i++) out[i] = (words[2 * i + 1] << 64n) | BigInt.asUintN(64, words[2 * i]);
  return out;
}

/** A BigInt64Array over the same bytes, copying only when the buffer is not 8-byte aligned. */
function asInt64Words(words32: Uint32Array, count: number): BigInt64Array {
  if (words32.byteOffset % 8 === 0) return new BigInt64Array(words32.buffer, words32.byteOffset, count);
  return new BigInt64Array(new Uint32Array(words32.subarray(0, count * 2)).buffer);
}

function sliceBinaries(offsets: Int32Array, bytes: Uint8Array, length: number): Uint8Array[] {
  const out = new Array<Uint8Array>(length);
  for (let i = 0; i < length; i++) out[i] = bytes.subarray(offsets[i], offsets[i + 1]);
  return out;
}
