// Thrift's compact protocol, the encoding of Parquet's footer, page headers and page indexes. The
// reader decodes any struct generically into field-id-keyed objects (file-metadata.ts gives them
// types); the writer emits fields in id order. i64 values are JS numbers: Parquet's i64 fields are
// offsets, sizes and counts, all far below 2^53.

export type ThriftValue = boolean | number | Uint8Array | ThriftValue[] | ThriftStruct;
export type ThriftStruct = { [fieldId: number]: ThriftValue };

export const enum CompactType {
  Stop = 0,
  True = 1,
  False = 2,
  Byte = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  Double = 7,
  Binary = 8,
  List = 9,
  Set = 10,
  Map = 11,
  Struct = 12,
}

/** Thrown on bytes that are not a well-formed compact struct; the caller names the file. */
export class ThriftError extends Error {}

const MAX_DEPTH = 64;

export class CompactReader {
  offset: number;

  constructor(
    private readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.offset = offset;
  }

  readStruct(depth = 0): ThriftStruct {
    if (depth > MAX_DEPTH) throw new ThriftError('structures nested too deeply');
    const struct: ThriftStruct = {};
    let fieldId = 0;
    for (;;) {
      const header = this.rawByte();
      const type = header & 0x0f;
      if (type === CompactType.Stop) return struct;
      const delta = header >> 4;
      fieldId = delta === 0 ? this.zigzag() : fieldId + delta;
      struct[fieldId] = this.value(type, depth);
    }
  }

  private value(type: number, depth: number): ThriftValue {
    switch (type) {
      case CompactType.True:
        return true;
      case CompactType.False:
        return false;
      case CompactType.Byte:
        return (this.rawByte() << 24) >> 24;
      case CompactType.I16:
      case CompactType.I32:
      case CompactType.I64:
        return this.zigzag();
      case CompactType.Double: {
        this.need(8);
        const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.offset, 8).getFloat64(0, true);
        this.offset += 8;
        return v;
      }
      case CompactType.Binary: {
        const length = this.varint();
        this.need(length);
        const v = this.bytes.subarray(this.offset, this.offset + length);
        this.offset += length;
        return v;
      }
      case CompactType.List:
      case CompactType.Set:
        return this.list(depth);
      case CompactType.Map:
        return this.map(depth);
      case CompactType.Struct:
        return this.readStruct(depth + 1);
      default:
        throw new ThriftError(`unknown compact type ${type} at byte ${this.offset}`);
    }
  }

  private list(depth: number): ThriftValue[] {
    const header = this.rawByte();
    const size = header >> 4 === 15 ? this.varint() : header >> 4;
    const type = header & 0x0f;
    if (size > this.bytes.length - this.offset + 1) throw new ThriftError(`list of ${size} elements past the end of the data`);
    const items = new Array<ThriftValue>(size);
    for (let i = 0; i < size; i++) {
      // Booleans in containers are one byte each: 1 for true.
      items[i] = type === CompactType.True || type === CompactType.False ? this.rawByte() === 1 : this.value(type, depth);
    }
    return items;
  }

  /** Maps (key_value metadata is a list, not a map) are skipped: Parquet's footer has none we read. */
  private map(depth: number): ThriftValue[] {
    const size = this.varint();
    if (size === 0) return [];
    const types = this.rawByte();
    for (let i = 0; i < size; i++) {
      this.value(types >> 4, depth);
      this.value(types & 0x0f, depth);
    }
    return [];
  }

  private rawByte(): number {
    if (this.offset >= this.bytes.length) throw new ThriftError('truncated data');
    return this.bytes[this.offset++];
  }

  private need(n: number): void {
    if (n < 0 || this.offset + n > this.bytes.length) throw new ThriftError('truncated data');
  }

  /** An unsigned varint, up to 64 bits, as a number (exact below 2^53). */
  varint(): number {
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.rawByte();
      result += (b & 0x7f) * multiplier;
      if ((b & 0x80) === 0) return result;
      multiplier *= 128;
    }
    throw new ThriftError('varint longer than 10 bytes');
  }

  private zigzag(): number {
    const n = this.varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  }
}

/** Writes compact-protocol structs; fields must be written in ascending id order. */
export class CompactWriter {
  private buffer = new Uint8Array(256);
  private length = 0;
  private lastFieldIds: number[] = [0];

  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  byte(id: number, value: number): this {
    this.fieldHeader(id, CompactType.Byte);
    this.rawByte(value & 0xff);
    return this;
  }

  i32(id: number, value: number): this {
    this.fieldHeader(id, CompactType.I32);
    this.zigzag(value);
    return this;
  }

  i64(id: number, value: number): this {
    this.fieldHeader(id, CompactType.I64);
    this.zigzag(value);
    return this;
  }

  bool(id: number, value: boolean): this {
    this.fieldHeader(id, value ? CompactType.True : CompactType.False);
    return this;
  }

  binary(id: number, value: Uint8Array): this {
    this.fieldHeader(id, CompactType.Binary);
    this.bytesWithLength(value);
    return this;
  }

  string(id: number, value: string): this {
    return this.binary(id, new TextEncoder().encode(value));
  }

  /** A nested struct whose fields `body` writes. */
  struct(id: number, body: (w: this) => void): this {
    this.fieldHeader(id, CompactType.Struct);
    this.structBody(body);
    return this;
  }

  /** A list of structs. */
  structs<T>(id: number, items: readonly T[], body: (w: this, item: T) => void): this {
    this.listHeader(id, items.length, CompactType.Struct);
    for (const item of items) this.structBody((w) => body(w, item));
    return this;
  }

  i32s(id: number, items: readonly number[]): this {
    this.listHeader(id, items.length, CompactType.I32);
    for (const v of items) this.zigzag(v);
    return this;
  }

  i64s(id: number, items: readonly number[]): this {
    this.listHeader(id, items.length, CompactType.I64);
    for (const v of items) this.zigzag(v);
    return this;
  }

  bools(id: number, items: readonly boolean[]): this {
    this.listHeader(id, items.length, CompactType.True);
    for (const v of items) this.rawByte(v ? 1 : 2);
    return this;
  }

  binaries(id: number, items: readonly Uint8Array[]): this {
    this.listHeader(id, items.length, CompactType.Binary);
    for (const v of items) this.bytesWithLength(v);
    return this;
  }

  strings(id: number, items: readonly string[]): this {
    return this.binaries(
      id,
      items.map((s) => new TextEncoder().encode(s)),
    );
  }

  /** Ends the outermost struct. */
  stop(): this {
    this.rawByte(CompactType.Stop);
    return this;
  }

  private structBody(body: (w: this) => void): void {
    this.lastFieldIds.push(0);
    body(this);
    this.lastFieldIds.pop();
    this.rawByte(CompactType.Stop);
  }

  private listHeader(id: number, size: number, elementType: CompactType): void {
    this.fieldHeader(id, CompactType.List);
    if (size < 15) this.rawByte((size << 4) | elementType);
    else {
      this.rawByte(0xf0 | elementType);
      this.varint(size);
    }
  }

  private fieldHeader(id: number, type: CompactType): void {
    const last = this.lastFieldIds[this.lastFieldIds.length - 1];
    const delta = id - last;
    if (delta > 0 && delta <= 15) this.rawByte((delta << 4) | type);
    else {
      this.rawByte(type);
      this.zigzag(id);
    }
    this.lastFieldIds[this.lastFieldIds.length - 1] = id;
  }

  private bytesWithLength(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  private zigzag(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  private varint(value: number): void {
    let v = value;
    while (v >= 128) {
      this.rawByte((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.rawByte(v);
  }

  private rawByte(b: number): void {
    this.ensure(1);
    this.buffer[this.length++] = b;
  }

  private ensure(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
