// Pages across threads. Typed arrays are copied to their exact size and their buffers transferred
// (one copy, no serialisation; cloning a view would copy its whole underlying buffer); views of
// shared memory (memory tables) are passed as they are and stay shared; strings travel as UTF-8
// bytes plus offsets and stay so on arrival until something reads them (utf8-strings.ts), unless
// one holds a lone surrogate (then they are structured-cloned, as long decimals are); varbinary
// values travel as one buffer plus offsets.

import { holdsBytes, holdsStrings, type SqlType } from '../../types/types.js';
import type { Column, ColumnValues, Page } from '../../columnar/page.js';
import { rebasedUtf8, utf8Column, wellFormedUtf8, type Utf8Strings } from '../../columnar/utf8-strings.js';

interface PackedBinaries {
  packed: true;
  offsets: Int32Array;
  bytes: Uint8Array;
}

interface PackedStrings {
  utf8: Utf8Strings;
}

interface EncodedColumn {
  type: SqlType;
  length: number;
  values: ColumnValues | PackedBinaries | PackedStrings;
  nulls: Uint8Array | null;
  /** An array column's elements (its values are the offsets). */
  children?: EncodedColumn[];
}

export interface EncodedPage {
  rowCount: number;
  columns: EncodedColumn[];
}

type TypedArray = Exclude<ColumnValues, unknown[]>;

/** The page as a message, and the buffers to transfer with it. */
export function encodePage(page: Page): { page: EncodedPage; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const movable = <T extends TypedArray>(values: T, length: number): T => {
    if (values.buffer instanceof SharedArrayBuffer) return values;
    const copy = values.slice(0, length) as T;
    transfer.push(copy.buffer as ArrayBuffer);
    return copy;
  };
  const encode = (c: Column): EncodedColumn => {
    const nulls = c.nulls === null ? null : movable(c.nulls, c.length);
    if (c.children !== undefined) {
      return {
        type: c.type,
        length: c.length,
        values: movable(c.values as Int32Array, c.length + 1),
        nulls,
        children: c.children.map(encode),
      };
    }
    if (c.utf8 !== undefined) return { type: c.type, length: c.length, values: { utf8: movableUtf8(c.utf8, c.length, movable) }, nulls };
    if (!Array.isArray(c.values)) return { type: c.type, length: c.length, values: movable(c.values as TypedArray, c.length), nulls };
    const utf8 = holdsStrings(c.type) ? wellFormedUtf8(c.values as string[], c.length) : undefined;
    if (utf8 !== undefined) {
      transfer.push(ownBuffer(utf8.offsets), ownBuffer(utf8.bytes));
      return { type: c.type, length: c.length, values: { utf8 }, nulls };
    }
    if (holdsBytes(c.type))
      return { type: c.type, length: c.length, values: packBinaries(c.values as Uint8Array[], c.length, transfer), nulls };
    const values = c.values.length === c.length ? c.values : (c.values.slice(0, c.length) as ColumnValues);
    return { type: c.type, length: c.length, values, nulls };
  };
  return { page: { rowCount: page.rowCount, columns: page.columns.map(encode) }, transfer };
}

export function decodePage(page: EncodedPage): Page {
  const decode = (c: EncodedColumn): Column => {
    if (isUtf8(c.values)) return utf8Column(c.type, c.length, c.nulls, c.values.utf8);
    const values = isPacked(c.values) ? unpackBinaries(c.values, c.length) : c.values;
    if (c.children !== undefined) return { type: c.type, length: c.length, values, nulls: c.nulls, children: c.children.map(decode) };
    return { type: c.type, length: c.length, values, nulls: c.nulls };
  };
  return { rowCount: page.rowCount, columns: page.columns.map(decode) };
}

function isPacked(values: ColumnValues | PackedBinaries | PackedStrings): values is PackedBinaries {
  return (values as PackedBinaries).packed === true;
}

function isUtf8(values: ColumnValues | PackedBinaries | PackedStrings): values is PackedStrings {
  return (values as PackedStrings).utf8 !== undefined;
}

/** A column's UTF-8 rows [0, length) as copies to transfer (the column keeps its own). */
function movableUtf8(utf8: Utf8Strings, length: number, movable: <T extends TypedArray>(values: T, length: number) => T): Utf8Strings {
  const { offsets, bytes, jsonPlain } = rebasedUtf8(utf8, length);
  return { offsets: movable(offsets, offsets.length), bytes: movable(bytes, bytes.length), jsonPlain };
}

/** The buffer of an array made for this message, which holds only its bytes (TextEncoder's is exact; checked all the same). */
function ownBuffer(array: Int32Array | Uint8Array): ArrayBuffer {
  if (array.byteOffset !== 0 || array.byteLength !== array.buffer.byteLength || array.buffer instanceof SharedArrayBuffer)
    throw new Error('a string column to transfer shares its buffer');
  return array.buffer;
}

function packBinaries(values: readonly Uint8Array[], length: number, transfer: ArrayBuffer[]): PackedBinaries {
  const offsets = new Int32Array(length + 1);
  for (let i = 0; i < length; i++) offsets[i + 1] = offsets[i] + values[i].byteLength;
  const bytes = new Uint8Array(offsets[length]);
  for (let i = 0; i < length; i++) bytes.set(values[i], offsets[i]);
  transfer.push(offsets.buffer, bytes.buffer);
  return { packed: true, offsets, bytes };
}

function unpackBinaries(packed: PackedBinaries, length: number): Uint8Array[] {
  const out = new Array<Uint8Array>(length);
  for (let i = 0; i < length; i++) out[i] = packed.bytes.subarray(packed.offsets[i], packed.offsets[i + 1]);
  return out;
}
