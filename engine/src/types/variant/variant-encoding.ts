// The Parquet Variant binary encoding (parquet-format VariantEncoding.md), which Trino stores and
// sends: a metadata part (the dictionary of object field names) and a value part. A column holds
// both in one Uint8Array, metadata first: the metadata says its own length, so the value follows it.

import { EngineError } from '../../errors/engine-error.js';
import { PRIMITIVE_IDS, type VariantValue } from './variant-value.js';

const BASIC_PRIMITIVE = 0;
const BASIC_SHORT_STRING = 1;
const BASIC_OBJECT = 2;
const BASIC_ARRAY = 3;
const MAX_SHORT_STRING = 63;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

const PRIMITIVE_KINDS = new Map<number, string>(Object.entries(PRIMITIVE_IDS).map(([name, id]) => [id, name]));

/** The bytes a column holds for `value`: its metadata, then its value. */
export function encodeVariant(value: VariantValue): Uint8Array {
  const names = [...collectNames(value, new Set())].sort(compareUtf8);
  const ids = new Map(names.map((name, i) => [name, i]));
  const metadata = encodeMetadata(names);
  const out = new ByteWriter();
  out.bytes(metadata);
  writeValue(out, value, ids);
  return out.finish();
}

/** The value encoded by `bytes` (metadata then value); a malformed encoding fails cleanly. */
export function decodeVariant(bytes: Uint8Array): VariantValue {
  try {
    const { names, length } = decodeMetadata(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return readValue(view, length, names);
  } catch (e) {
    if (e instanceof EngineError) throw e;
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Malformed VARIANT value: ${(e as Error).message}`);
  }
}

/** The metadata and the value parts of an encoded variant (Trino's client protocol sends them apart). */
export function variantParts(bytes: Uint8Array): { metadata: Uint8Array; value: Uint8Array } {
  const { length } = decodeMetadata(bytes);
  return { metadata: bytes.subarray(0, length), value: bytes.subarray(length) };
}

/** Field names compare by their UTF-8 bytes, as the encoding's sorted dictionary orders them. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(utf8.encode(a), utf8.encode(b));
}

function collectNames(value: VariantValue, names: Set<string>): Set<string> {
  if (value.kind === 'array') for (const element of value.elements) collectNames(element, names);
  if (value.kind === 'object') {
    for (const [name, field] of value.fields) {
      names.add(name);
      collectNames(field, names);
    }
  }
  return names;
}

function byteWidth(max: number): number {
  return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4;
}

function encodeMetadata(names: readonly string[]): Uint8Array {
  const encoded = names.map((n) => utf8.encode(n));
  const total = encoded.reduce((sum, b) => sum + b.length, 0);
  // Unique names need no wider offsets than their bytes do (one empty name at most).
  const width = byteWidth(total);
  const out = new ByteWriter();
  // version 1, the sorted flag (not for the empty dictionary, as Trino writes it), offset width
  out.byte(1 | ((names.length > 0 ? 1 : 0) << 4) | ((width - 1) << 6));
  out.unsigned(names.length, width);
  let offset = 0;
  out.unsigned(0, width);
  for (const b of encoded) out.unsigned((offset += b.length), width);
  for (const b of encoded) out.bytes(b);
  return out.finish();
}

function decodeMetadata(bytes: Uint8Array): { names: string[]; length: number } {
  const header = bytes[0];
  if ((header & 0x0f) !== 1) throw new Error(`unsupported metadata version ${header & 0x0f}`);
  const width = ((header >> 6) & 3) + 1;
  const size = readUnsigned(bytes, 1, width);
  const offsetsAt = 1 + width;
  const stringsAt = offsetsAt + (size + 1) * width;
  const names: string[] = [];
  for (let i = 0; i < size; i++) {
    const start = readUnsigned(bytes, offsetsAt + i * width, width);
    const end = readUnsigned(bytes, offsetsAt + (i + 1) * width, width);
    names.push(utf8Decoder.decode(bytes.subarray(stringsAt + start, stringsAt + end)));
  }
  const length = stringsAt + readUnsigned(bytes, offsetsAt + size * width, width);
  if (length > bytes.length) throw new Error('metadata longer than the value');
  return { names, length };
}

function readUnsigned(bytes: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[at + i];
  if (at + width > bytes.length) throw new Error('truncated');
  return value;
}

function writeValue(out: ByteWriter, value: VariantValue, ids: ReadonlyMap<string, number>): void {
  const primitive = (kind: keyof typeof PRIMITIVE_IDS) => out.byte((PRIMITIVE_IDS[kind] << 2) | BASIC_PRIMITIVE);
  switch (value.kind) {
    case 'null':
      return primitive('null');
    case 'boolean':
      return out.byte(((value.value ? 1 : 2) << 2) | BASIC_PRIMITIVE);
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
      primitive(value.kind);
      return out.signed(value.value, { int8: 1, int16: 2, int32: 4, int64: 8 }[value.kind]);
    case 'float':
      primitive('float');
      return out.float32(value.value);
    case 'double':
      primitive('double');
      return out.float64(value.value);
    case 'decimal4':
    case 'decimal8':
    case 'decimal16':
      primitive(value.kind);
      out.byte(value.scale);
      return out.signed(value.unscaled, { decimal4: 4, decimal8: 8, decimal16: 16 }[value.kind]);
    case 'date':
      primitive('date');
      return out.signed(BigInt(value.days), 4);
    case 'time_ntz_micros':
    case 'timestamp_utc_micros':
    case 'timestamp_ntz_micros':
    case 'timestamp_utc_nanos':
    case 'timestamp_ntz_nanos':
      primitive(value.kind);
      return out.signed(value.value, 8);
    case 'string': {
      const b = utf8.encode(value.value);
      if (b.length <= MAX_SHORT_STRING) out.byte((b.length << 2) | BASIC_SHORT_STRING);
      else {
        primitive('string');
        out.unsigned(b.length, 4);
      }
      return out.bytes(b);
    }
    case 'binary':
      primitive('binary');
      out.unsigned(value.value.length, 4);
      return out.bytes(value.value);
    case 'uuid':
      primitive('uuid');
      return out.bytes(Buffer.from(value.hex, 'hex'));
    case 'array':
      return writeContainer(out, BASIC_ARRAY, value.elements, undefined, ids);
    case 'object': {
      const names = [...value.fields.keys()].sort(compareUtf8);
      return writeContainer(
        out,
        BASIC_OBJECT,
        names.map((n) => value.fields.get(n)!),
        names.map((n) => ids.get(n)!),
        ids,
      );
    }
  }
}

/** An array or an object: element count, (field ids,) offsets, then the elements. */
function writeContainer(
  out: ByteWriter,
  basic: number,
  elements: readonly VariantValue[],
  fieldIds: readonly number[] | undefined,
  ids: ReadonlyMap<string, number>,
): void {
  const encoded = elements.map((e) => {
    const w = new ByteWriter();
    writeValue(w, e, ids);
    return w.finish();
  });
  const total = encoded.reduce((sum, b) => sum + b.length, 0);
  const offsetWidth = byteWidth(total);
  const large = elements.length > 255;
  if (fieldIds === undefined) out.byte((((offsetWidth - 1) | ((large ? 1 : 0) << 2)) << 2) | basic);
  else {
    const idWidth = byteWidth(Math.max(0, ids.size - 1));
    out.byte((((offsetWidth - 1) | ((idWidth - 1) << 2) | ((large ? 1 : 0) << 4)) << 2) | basic);
    out.unsigned(elements.length, large ? 4 : 1);
    for (const id of fieldIds) out.unsigned(id, idWidth);
  }
  if (fieldIds === undefined) out.unsigned(elements.length, large ? 4 : 1);
  let offset = 0;
  out.unsigned(0, offsetWidth);
  for (const b of encoded) out.unsigned((offset += b.length), offsetWidth);
  for (const b of encoded) out.bytes(b);
}

function readValue(view: DataView, at: number, names: readonly string[]): VariantValue {
  const header = view.getUint8(at);
  const basic = header & 3;
  const info = header >> 2;
  if (basic === BASIC_SHORT_STRING)
    return { kind: 'string', value: utf8Decoder.decode(new Uint8Array(view.buffer, view.byteOffset + at + 1, info)) };
  if (basic === BASIC_ARRAY || basic === BASIC_OBJECT) return readContainer(view, at, basic, info, names);
  const kind = PRIMITIVE_KINDS.get(info);
  const p = at + 1;
  switch (kind) {
    case 'null':
      return { kind: 'null' };
    case undefined:
      if (info === 1 || info === 2) return { kind: 'boolean', value: info === 1 };
      throw new Error(`unknown primitive type ${info}`);
    case 'int8':
      return { kind, value: BigInt(view.getInt8(p)) };
    case 'int16':
      return { kind, value: BigInt(view.getInt16(p, true)) };
    case 'int32':
      return { kind, value: BigInt(view.getInt32(p, true)) };
    case 'int64':
    case 'time_ntz_micros':
    case 'timestamp_utc_micros':
    case 'timestamp_ntz_micros':
    case 'timestamp_utc_nanos':
    case 'timestamp_ntz_nanos':
      return { kind, value: view.getBigInt64(p, true) } as VariantValue;
    case 'float':
      return { kind, value: view.getFloat32(p, true) };
    case 'double':
      return { kind, value: view.getFloat64(p, true) };
    case 'decimal4':
      return { kind, scale: view.getUint8(p), unscaled: BigInt(view.getInt32(p + 1, true)) };
    case 'decimal8':
      return { kind, scale: view.getUint8(p), unscaled: view.getBigInt64(p + 1, true) };
    case 'decimal16':
      return { kind, scale: view.getUint8(p), unscaled: (view.getBigInt64(p + 9, true) << 64n) | view.getBigUint64(p + 1, true) };
    case 'date':
      return { kind, days: view.getInt32(p, true) };
    case 'string':
      return { kind, value: utf8Decoder.decode(new Uint8Array(view.buffer, view.byteOffset + p + 4, view.getUint32(p, true))) };
    case 'binary':
      return { kind, value: new Uint8Array(view.buffer, view.byteOffset + p + 4, view.getUint32(p, true)).slice() };
    case 'uuid':
      return { kind, hex: Buffer.from(view.buffer, view.byteOffset + p, 16).toString('hex') };
    default:
      throw new Error(`unknown primitive type ${info}`);
  }
}

function readContainer(view: DataView, at: number, basic: number, info: number, names: readonly string[]): VariantValue {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const offsetWidth = (info & 3) + 1;
  const idWidth = basic === BASIC_OBJECT ? ((info >> 2) & 3) + 1 : 0;
  const large = basic === BASIC_OBJECT ? (info >> 4) & 1 : (info >> 2) & 1;
  const countWidth = large ? 4 : 1;
  const count = readUnsigned(bytes, at + 1, countWidth);
  const idsAt = at + 1 + countWidth;
  const offsetsAt = idsAt + count * idWidth;
  const valuesAt = offsetsAt + (count + 1) * offsetWidth;
  const element = (i: number) => readValue(view, valuesAt + readUnsigned(bytes, offsetsAt + i * offsetWidth, offsetWidth), names);
  if (basic === BASIC_ARRAY) return { kind: 'array', elements: Array.from({ length: count }, (_, i) => element(i)) };
  const fields = new Map<string, VariantValue>();
  for (let i = 0; i < count; i++) {
    const name = names[readUnsigned(bytes, idsAt + i * idWidth, idWidth)];
    if (name === undefined) throw new Error('field id out of range');
    fields.set(name, element(i));
  }
  return { kind: 'object', fields };
}

/** Little-endian bytes, grown as written. */
class ByteWriter {
  private buffer = new Uint8Array(64);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  unsigned(value: number, width: number): void {
    this.reserve(width);
    for (let i = 0; i < width; i++) this.buffer[this.length++] = Math.floor(value / 256 ** i) & 0xff;
  }

  /** A two's complement integer of `width` bytes. */
  signed(value: bigint, width: number): void {
    this.reserve(width);
    let v = BigInt.asUintN(width * 8, value);
    for (let i = 0; i < width; i++) {
      this.buffer[this.length++] = Number(v & 0xffn);
      v >>= 8n;
    }
  }

  float32(value: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, value, true);
    this.length += 4;
  }

  float64(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }
}
