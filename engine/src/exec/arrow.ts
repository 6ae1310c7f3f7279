// Pages <-> Arrow record batches. Arrow is the storage and wire format (memory connector, exchanges);
// pages are what operators compute on. Fixed-width columns whose layouts agree (integers, floats,
// date, year-month intervals) are shared without copying in both directions; the rest is converted:
//   boolean                 Bool (bit-packed)
//   decimal(p,s)            Decimal128 (two's complement, little endian)
//   varchar / char          Utf8 (decoded back into JS strings)
//   varbinary               Binary (decoded into views of the Arrow buffer)
//   date                    Date32 (DateDay)
//   time(p)                 Time64 microsecond
//   timestamp(p)            Timestamp microsecond, no time zone
//   interval year to month  Int32 (months)       \ told apart from plain integers by
//   interval day to second  Int64 (milliseconds) / the field metadata
//   unknown                 Null
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
import { SHORT_DECIMAL_PRECISION, typeName, type SqlType } from '../types/types.js';
import type { Column, ColumnValues, Page } from '../spi/page.js';

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
    case 'real':
      return new Float32();
    case 'double':
      return new Float64();
    case 'decimal':
      return new Decimal(type.scale, type.precision, 128);
    case 'varchar':
    case 'char':
      return new Utf8();
    case 'varbinary':
      return new Binary();
    case 'date':
      return new DateDay();
    case 'time':
      return new TimeMicrosecond();
    case 'timestamp':
      return new TimestampMicrosecond();
    case 'unknown':
      return new Null();
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

export function recordBatchToPage(batch: RecordBatch, types: readonly SqlType[]): Page {
  const children = batch.data.children;
  if (types.length !== children.length) {
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Record batch has ${children.length} columns but ${types.length} types were given`);
  }
  return { rowCount: batch.numRows, columns: types.map((t, i) => arrowDataToColumn(children[i], t)) };
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
    case 'char': {
      const { offsets, bytes } = encodeStrings(values as string[], length);
      return makeData({ type: new Utf8(), ...base, valueOffsets: offsets, data: bytes });
    }
    case 'varbinary': {
      const { offsets, bytes } = concatBinaries(values as Uint8Array[], length);
      return makeData({ type: new Binary(), ...base, valueOffsets: offsets, data: bytes });
    }
    case 'date':
      return makeData({ type: new DateDay(), ...base, data: (values as Int32Array).subarray(0, length) });
    case 'time':
      return makeData({ type: new TimeMicrosecond(), ...base, data: floatsToInt64(values as Float64Array, length) });
    case 'timestamp':
      return makeData({ type: new TimestampMicrosecond(), ...base, data: floatsToInt64(values as Float64Array, length) });
    case 'unknown':
      return makeData({ type: new Null(), length });
  }
}

function nullsToValidity(nulls: Uint8Array | null, length: number): { bitmap: Uint8Array | undefined; nullCount: number } {
  if (nulls === null) return { bitmap: undefined, nullCount: 0 };
  const bitmap = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < length; i++) {
    if (nulls[i] === 1) nullCount++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return nullCount === 0 ? { bitmap: undefined, nullCount: 0 } : { bitmap, nullCount };
}

function packBits(values: Uint8Array, length: number): Uint8Array {
  const bits = new Uint8Array((length + 7) >> 3);
  for (let i = 0; i < length; i++) if (values[i] !== 0) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}

/** Microseconds / milliseconds held as doubles -> Int64 (they are integral by construction). */
function floatsToInt64(values: Float64Array, length: number): BigInt64Array {
  const out = new BigInt64Array(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    out[i] = Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  }
  return out;
}

function decimalsToInt128(values: BigInt64Array | bigint[], length: number): Uint32Array {
  const words = new BigInt64Array(length * 2);
  if (values instanceof BigInt64Array) {
    for (let i = 0; i < length; i++) {
      const v = values[i];
      words[2 * i] = v;
      words[2 * i + 1] = v < 0n ? -1n : 0n;
    }
  } else {
    for (let i = 0; i < length; i++) {
      const v = values[i];
      words[2 * i] = BigInt.asIntN(64, v);
      words[2 * i + 1] = BigInt.asIntN(64, v >> 64n);
    }
  }
  return new Uint32Array(words.buffer);
}

function encodeStrings(values: readonly string[], length: number): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(length + 1);
  let total = 0;
  for (let i = 0; i < length; i++) {
    total += Buffer.byteLength(values[i], 'utf8');
    offsets[i + 1] = total;
  }
  const bytes = Buffer.allocUnsafeSlow(total);
  for (let i = 0; i < length; i++) bytes.write(values[i], offsets[i], 'utf8');
  return { offsets, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, total) };
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
  return { type, length, values: arrowValues(data, type, length), nulls };
}

function arrowValues(data: Data, type: SqlType, length: number): ColumnValues {
  expectArrowType(data, type);
  switch (type.kind) {
    case 'boolean':
      return unpackBits(data.values as Uint8Array, data.offset, length);
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
    case 'interval day to second':
    case 'time':
    case 'timestamp':
      return int64ToFloats(data.values as BigInt64Array, length);
    case 'decimal':
      return int128ToDecimals(data.values as Uint32Array, length, type.precision <= SHORT_DECIMAL_PRECISION);
    case 'varchar':
    case 'char':
      return decodeStrings(data.valueOffsets as Int32Array, data.values as Uint8Array, length);
    case 'varbinary':
      return sliceBinaries(data.valueOffsets as Int32Array, data.values as Uint8Array, length);
    case 'unknown':
      return new Uint8Array(length);
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
  const bitmap = data.nullBitmap;
  const offset = data.offset;
  const nulls = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const bit = offset + i;
    if ((bitmap[bit >> 3] & (1 << (bit & 7))) === 0) nulls[i] = 1;
  }
  return nulls;
}

function unpackBits(bits: Uint8Array, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const bit = offset + i;
    out[i] = (bits[bit >> 3] >> (bit & 7)) & 1;
  }
  return out;
}

function int64ToFloats(values: BigInt64Array, length: number): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = Number(values[i]);
  return out;
}

function int128ToDecimals(words32: Uint32Array, length: number, short: boolean): BigInt64Array | bigint[] {
  const words = asInt64Words(words32, length * 2);
  if (short) {
    const out = new BigInt64Array(length);
    for (let i = 0; i < length; i++) out[i] = words[2 * i];
    return out;
  }
  const out = new Array<bigint>(length);
  for (let i = 0; i < length; i++) out[i] = (words[2 * i + 1] << 64n) | BigInt.asUintN(64, words[2 * i]);
  return out;
}

/** A BigInt64Array over the same bytes, copying only when the buffer is not 8-byte aligned. */
function asInt64Words(words32: Uint32Array, count: number): BigInt64Array {
  if (words32.byteOffset % 8 === 0) return new BigInt64Array(words32.buffer, words32.byteOffset, count);
  return new BigInt64Array(new Uint32Array(words32.subarray(0, count * 2)).buffer);
}

function decodeStrings(offsets: Int32Array, bytes: Uint8Array, length: number): string[] {
  const out = new Array<string>(length);
  if (length === 0) return out;
  const start = offsets[0];
  const end = offsets[length];
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(bytes, start, end)) {
    // One decode for the whole column; byte offsets are character offsets.
    const all = buffer.toString('latin1', start, end);
    for (let i = 0; i < length; i++) out[i] = all.substring(offsets[i] - start, offsets[i + 1] - start);
  } else {
    for (let i = 0; i < length; i++) out[i] = buffer.toString('utf8', offsets[i], offsets[i + 1]);
  }
  return out;
}

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

function sliceBinaries(offsets: Int32Array, bytes: Uint8Array, length: number): Uint8Array[] {
  const out = new Array<Uint8Array>(length);
  for (let i = 0; i < length; i++) out[i] = bytes.subarray(offsets[i], offsets[i + 1]);
  return out;
}
