// Encodes pages as PostgreSQL's binary COPY input (COPY ... FROM STDIN (FORMAT binary)): exact
// values, no text to parse or escape.

import { EngineError } from '../../errors/engine-error.js';
import type { Column, Page } from '../../columnar/page.js';
import { uuidToBytes } from '../../types/uuid-type.js';
import { PICOS_PER_MICRO, floorDiv, isLongPlain } from '../../types/long-plain-temporal.js';
import { POSTGRES_EPOCH_DAYS, POSTGRES_EPOCH_MICROS, POSTGRES_EPOCH_MICROS_BIGINT, numericBytes } from './binary-values.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** The stream's header: signature, flags, no extension. */
export function copyHeader(): Buffer {
  return Buffer.concat([SIGNATURE, Buffer.alloc(8)]);
}

/** The stream's trailer: a field count of -1. */
export function copyTrailer(): Buffer {
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  return trailer;
}

/** How a target column takes a value: in its type's own form ('boolean'; jsonb for json), a boolean as a bit(1), a json value as PostgreSQL json (not jsonb). */
export type BooleanTarget = 'boolean' | 'bit' | 'json';

/** A buffer that grows as fields are written: read `buf` only after `field` made room (it may be a new buffer). */
class Writer {
  buf = Buffer.allocUnsafe(64 * 1024);
  pos = 0;

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A field of `length` bytes: its length, then room for it; returns where the bytes go. */
  field(length: number): number {
    this.ensure(4 + length);
    this.buf.writeInt32BE(length, this.pos);
    const at = this.pos + 4;
    this.pos = at + length;
    return at;
  }
}

/** The tuples of a page, in COPY's binary format. */
export function encodePage(page: Page, booleanTargets: readonly BooleanTarget[]): Buffer {
  const writer = new Writer();
  const writers = page.columns.map((c, i) => fieldWriter(c, booleanTargets[i] ?? 'boolean'));
  const width = page.columns.length;
  for (let row = 0; row < page.rowCount; row++) {
    writer.ensure(2);
    writer.buf.writeInt16BE(width, writer.pos);
    writer.pos += 2;
    for (let c = 0; c < width; c++) {
      const column = page.columns[c];
      if (column.nulls !== null && column.nulls[row] === 1) {
        writer.ensure(4);
        writer.buf.writeInt32BE(-1, writer.pos);
        writer.pos += 4;
      } else {
        writers[c](writer, row);
      }
    }
  }
  return writer.buf.subarray(0, writer.pos);
}

function fieldWriter(column: Column, booleanTarget: BooleanTarget): (w: Writer, row: number) => void {
  const type = column.type;
  const values = column.values;
  switch (type.kind) {
    case 'boolean': {
      const v = values as Uint8Array;
      // bit(1)'s binary form: its length in bits, then the bits, high bit first.
      if (booleanTarget === 'bit')
        return (w, row) => {
          const at = w.field(5);
          w.buf.writeInt32BE(1, at);
          w.buf[at + 4] = v[row] === 0 ? 0 : 0x80;
        };
      return (w, row) => {
        const at = w.field(1);
        w.buf[at] = v[row] === 0 ? 0 : 1;
      };
    }
    case 'tinyint':
    case 'smallint': {
      const v = values as Int8Array | Int16Array;
      return (w, row) => {
        const at = w.field(2);
        w.buf.writeInt16BE(v[row], at);
      };
    }
    case 'integer': {
      const v = values as Int32Array;
      return (w, row) => {
        const at = w.field(4);
        w.buf.writeInt32BE(v[row], at);
      };
    }
    case 'bigint': {
      const v = values as BigInt64Array;
      return (w, row) => {
        const at = w.field(8);
        w.buf.writeBigInt64BE(v[row], at);
      };
    }
    case 'real': {
      const v = values as Float32Array;
      return (w, row) => {
        const at = w.field(4);
        w.buf.writeFloatBE(v[row], at);
      };
    }
    case 'double': {
      const v = values as Float64Array;
      return (w, row) => {
        const at = w.field(8);
        w.buf.writeDoubleBE(v[row], at);
      };
    }
    case 'decimal': {
      const v = values as BigInt64Array | bigint[];
      const scale = type.scale;
      return (w, row) => {
        const bytes = numericBytes(v[row], scale);
        const at = w.field(bytes.length);
        bytes.copy(w.buf, at);
      };
    }
    case 'varchar':
    case 'char': {
      const v = values as string[];
      return (w, row) => {
        const length = Buffer.byteLength(v[row], 'utf8');
        const at = w.field(length);
        w.buf.write(v[row], at, length, 'utf8');
      };
    }
    case 'json': {
      // json's binary form is its text; jsonb's a version byte (1), then its text.
      const v = values as string[];
      const version = booleanTarget === 'json' ? 0 : 1;
      return (w, row) => {
        const length = Buffer.byteLength(v[row], 'utf8');
        const at = w.field(version + length);
        if (version === 1) w.buf[at] = 1;
        w.buf.write(v[row], at + version, length, 'utf8');
      };
    }
    case 'varbinary': {
      const v = values as Uint8Array[];
      return (w, row) => {
        const at = w.field(v[row].length);
        w.buf.set(v[row], at);
      };
    }
    case 'uuid': {
      const v = values as string[];
      return (w, row) => {
        const at = w.field(16);
        w.buf.set(uuidToBytes(v[row]), at);
      };
    }
    case 'date': {
      const v = values as Int32Array;
      return (w, row) => {
        const at = w.field(4);
        w.buf.writeInt32BE(v[row] - POSTGRES_EPOCH_DAYS, at);
      };
    }
    case 'time': {
      const v = values as Float64Array;
      return (w, row) => {
        const at = w.field(8);
        w.buf.writeBigInt64BE(BigInt(Math.round(v[row])), at);
      };
    }
    case 'timestamp': {
      if (isLongPlain(type)) {
        const picos = values as bigint[];
        return (w, row) => void w.buf.writeBigInt64BE(floorDiv(picos[row], PICOS_PER_MICRO) - POSTGRES_EPOCH_MICROS_BIGINT, w.field(8));
      }
      const v = values as Float64Array;
      return (w, row) => {
        const at = w.field(8);
        w.buf.writeBigInt64BE(BigInt(Math.round(v[row] - POSTGRES_EPOCH_MICROS)), at);
      };
    }
    default:
      throw new EngineError('NOT_SUPPORTED', `Writing values of type ${type.kind} to PostgreSQL is not supported`);
  }
}
