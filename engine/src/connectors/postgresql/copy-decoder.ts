// Decodes PostgreSQL's binary COPY stream (COPY ... TO STDOUT (FORMAT binary)) straight into the
// engine's column layout: each field is read from the received bytes into a typed array or a
// string array of the page being filled; no row objects. Chunks split tuples anywhere: the bytes of
// an incomplete tuple wait for the next chunk.

import { EngineError } from '../../errors/engine-error.js';
import type { Column, ColumnValues, Page } from '../../columnar/page.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../types/types.js';
import { uuidFromBytes } from '../../types/uuid-type.js';
import { jsonParse } from '../../types/json/json-parse.js';
import { PICOS_PER_MICRO, isLongPlain } from '../../types/long-plain-temporal.js';
import {
  POSTGRES_EPOCH_DAYS,
  POSTGRES_EPOCH_MICROS,
  POSTGRES_EPOCH_MICROS_BIGINT,
  isInfiniteDate,
  isInfiniteTimestamp,
  readInt64Number,
  readNumericUnscaled,
  writeInt64Words,
} from './binary-values.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_FIXED = SIGNATURE.length + 8;

export const PAGE_ROWS = 4096;

/** Fills one column of a page from binary fields. */
interface ColumnDecoder {
  readonly type: SqlType;
  read(buf: Buffer, offset: number, length: number, row: number): void;
  setNull(row: number): void;
  /** The column of the first `rows` rows; the decoder starts a new page. */
  take(rows: number): Column;
}

export interface DecodedColumn {
  /** The column's name, for errors. */
  name: string;
  type: SqlType;
}

export class CopyDecoder {
  private readonly decoders: ColumnDecoder[];
  private pending: Buffer | undefined;
  private headerRead = false;
  private finished = false;
  private rows = 0;

  constructor(
    columns: readonly DecodedColumn[],
    private readonly pageRows = PAGE_ROWS,
  ) {
    this.decoders = columns.map((c) => columnDecoder(c, pageRows));
  }

  /** Decodes a chunk; returns the pages it completed. */
  push(chunk: Buffer): Page[] {
    const buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    const pages: Page[] = [];
    let pos = this.headerRead ? 0 : this.readHeader(buf);
    if (pos < 0) {
      this.pending = buf;
      return pages;
    }
    const decoders = this.decoders;
    const width = decoders.length;
    const end = buf.length;
    while (!this.finished && pos + 2 <= end) {
      const fields = buf.readInt16BE(pos);
      if (fields === -1) {
        this.finished = true;
        pos += 2;
        break;
      }
      if (fields !== width)
        throw new EngineError('GENERIC_INTERNAL_ERROR', `PostgreSQL sent a row of ${fields} fields for ${width} columns`);
      const tupleEnd = completeTupleEnd(buf, pos + 2, fields);
      if (tupleEnd < 0) break;
      let p = pos + 2;
      const row = this.rows;
      for (let f = 0; f < fields; f++) {
        const length = buf.readInt32BE(p);
        p += 4;
        if (length < 0) {
          decoders[f].setNull(row);
        } else {
          decoders[f].read(buf, p, length, row);
          p += length;
        }
      }
      pos = p;
      if (++this.rows === this.pageRows) pages.push(this.takePage());
    }
    if (pos < end && !this.finished) this.pending = buf.subarray(pos);
    return pages;
  }

  /** The rows not yet in a page, once the stream ended (it must have ended with COPY's trailer). */
  finish(): Page | undefined {
    if (!this.finished) throw new EngineError('GENERIC_INTERNAL_ERROR', 'The PostgreSQL COPY stream ended before its trailer');
    return this.rows > 0 ? this.takePage() : undefined;
  }

  private takePage(): Page {
    const rowCount = this.rows;
    this.rows = 0;
    return { rowCount, columns: this.decoders.map((d) => d.take(rowCount)) };
  }

  /** Position after the header, or -1 when more bytes are needed. */
  private readHeader(buf: Buffer): number {
    if (buf.length < HEADER_FIXED) return -1;
    if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE))
      throw new EngineError('GENERIC_INTERNAL_ERROR', 'PostgreSQL sent a COPY stream that is not in binary format');
    const extension = buf.readInt32BE(SIGNATURE.length + 4);
    if (buf.length < HEADER_FIXED + extension) return -1;
    this.headerRead = true;
    return HEADER_FIXED + extension;
  }
}

/** The end of the tuple whose fields start at `pos`, or -1 when the buffer holds only part of it. */
function completeTupleEnd(buf: Buffer, pos: number, fields: number): number {
  const end = buf.length;
  let p = pos;
  for (let f = 0; f < fields; f++) {
    if (p + 4 > end) return -1;
    const length = buf.readInt32BE(p);
    p += 4 + (length > 0 ? length : 0);
    if (p > end) return -1;
  }
  return p;
}

/** A decoder over a typed array of `capacity` rows: `store` reads one field into it. */
function typedDecoder<V extends ColumnValues>(
  type: SqlType,
  capacity: number,
  allocate: (n: number) => V,
  store: (values: V, buf: Buffer, offset: number, length: number, row: number) => void,
): ColumnDecoder {
  let values = allocate(capacity);
  let nulls: Uint8Array | null = null;
  return {
    type,
    read: (buf, offset, length, row) => store(values, buf, offset, length, row),
    setNull(row) {
      if (nulls === null) nulls = new Uint8Array(capacity);
      nulls[row] = 1;
    },
    take(rows) {
      const column: Column = {
        type,
        length: rows,
        values: rows === capacity ? values : (values.slice(0, rows) as V),
        nulls: nulls === null ? null : nulls.subarray(0, rows),
      };
      values = allocate(capacity);
      nulls = null;
      return column;
    },
  };
}

/** A BigInt64Array filled through its 32-bit words (reading or writing it by element allocates a BigInt). */
function int64Decoder(
  type: SqlType,
  capacity: number,
  value: (buf: Buffer, offset: number, length: number) => number | bigint,
): ColumnDecoder {
  let words = new Int32Array(0);
  return typedDecoder(
    type,
    capacity,
    (n) => {
      const values = new BigInt64Array(n);
      words = new Int32Array(values.buffer);
      return values;
    },
    (values, buf, offset, length, row) => {
      const v = value(buf, offset, length);
      if (typeof v === 'bigint') values[row] = v;
      else writeInt64Words(words, row, v);
    },
  );
}

function columnDecoder(column: DecodedColumn, capacity: number): ColumnDecoder {
  const type = column.type;
  const name = column.name;
  switch (type.kind) {
    case 'boolean':
      return typedDecoder(
        type,
        capacity,
        (n) => new Uint8Array(n),
        (v, buf, o, _l, row) => void (v[row] = buf[o] === 0 ? 0 : 1),
      );
    case 'smallint':
      return typedDecoder(
        type,
        capacity,
        (n) => new Int16Array(n),
        (v, buf, o, _l, row) => void (v[row] = buf.readInt16BE(o)),
      );
    case 'integer':
      return typedDecoder(
        type,
        capacity,
        (n) => new Int32Array(n),
        (v, buf, o, _l, row) => void (v[row] = buf.readInt32BE(o)),
      );
    case 'bigint':
      return int64Decoder(type, capacity, (buf, o) => {
        const high = buf.readInt32BE(o);
        // Outside ±2^53 the number would round: read those as a bigint.
        return high >= -0x200000 && high < 0x200000 ? readInt64Number(buf, o) : buf.readBigInt64BE(o);
      });
    case 'real':
      return typedDecoder(
        type,
        capacity,
        (n) => new Float32Array(n),
        (v, buf, o, _l, row) => void (v[row] = buf.readFloatBE(o)),
      );
    case 'double':
      return typedDecoder(
        type,
        capacity,
        (n) => new Float64Array(n),
        (v, buf, o, _l, row) => void (v[row] = buf.readDoubleBE(o)),
      );
    case 'decimal': {
      const scale = type.scale;
      if (type.precision <= SHORT_DECIMAL_PRECISION)
        return int64Decoder(type, capacity, (buf, o) => readNumericUnscaled(buf, o, scale, name));
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<bigint>(n).fill(0n),
        (v, buf, o, _l, row) => void (v[row] = BigInt(readNumericUnscaled(buf, o, scale, name))),
      );
    }
    case 'json':
      // Sent as text (a json column is selected as its text): made canonical as Trino's jsonParse does.
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<string>(n).fill(''),
        (v, buf, o, l, row) => void (v[row] = jsonParse(buf.toString('utf8', o, o + l))),
      );
    case 'varchar':
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<string>(n).fill(''),
        (v, buf, o, l, row) => void (v[row] = buf.toString('utf8', o, o + l)),
      );
    case 'char':
      // The engine keeps char values without their padding (see types/chars.ts).
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<string>(n).fill(''),
        (v, buf, o, l, row) => void (v[row] = trimSpaces(buf, o, o + l)),
      );
    case 'varbinary':
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<Uint8Array>(n).fill(EMPTY),
        (v, buf, o, l, row) => void (v[row] = Uint8Array.prototype.slice.call(buf, o, o + l)),
      );
    case 'uuid':
      return typedDecoder(
        type,
        capacity,
        (n) => new Array<string>(n).fill(''),
        (v, buf, o, l, row) => void (v[row] = uuidFromBytes(buf.subarray(o, o + l))),
      );
    case 'date':
      return typedDecoder(
        type,
        capacity,
        (n) => new Int32Array(n),
        (v, buf, o, _l, row) => {
          const days = buf.readInt32BE(o);
          if (isInfiniteDate(days)) throw infinite(name, 'date');
          v[row] = days + POSTGRES_EPOCH_DAYS;
        },
      );
    case 'time':
      return typedDecoder(
        type,
        capacity,
        (n) => new Float64Array(n),
        (v, buf, o, _l, row) => void (v[row] = readInt64Number(buf, o)),
      );
    case 'timestamp':
      // PostgreSQL's timestamp(p) holds int64 micros: exact as a long timestamp's picoseconds (p 4..6).
      if (isLongPlain(type)) {
        return typedDecoder(
          type,
          capacity,
          (n) => new Array<bigint>(n).fill(0n),
          (v, buf, o, _l, row) => {
            if (isInfiniteTimestamp(buf, o)) throw infinite(name, 'timestamp');
            v[row] = (buf.readBigInt64BE(o) + POSTGRES_EPOCH_MICROS_BIGINT) * PICOS_PER_MICRO;
          },
        );
      }
      return typedDecoder(
        type,
        capacity,
        (n) => new Float64Array(n),
        (v, buf, o, _l, row) => {
          if (isInfiniteTimestamp(buf, o)) throw infinite(name, 'timestamp');
          v[row] = readInt64Number(buf, o) + POSTGRES_EPOCH_MICROS;
        },
      );
    default:
      throw new EngineError('NOT_SUPPORTED', `Column '${name}' of type ${type.kind} cannot be read from PostgreSQL`);
  }
}

const EMPTY = new Uint8Array(0);

/** The text of bytes [start, end) without its trailing spaces. */
function trimSpaces(buf: Buffer, start: number, end: number): string {
  let e = end;
  while (e > start && buf[e - 1] === 0x20) e--;
  return buf.toString('utf8', start, e);
}

function infinite(column: string, type: string): EngineError {
  return new EngineError('NOT_SUPPORTED', `Column '${column}' holds an infinite ${type}, which the engine's ${type} cannot hold`);
}
