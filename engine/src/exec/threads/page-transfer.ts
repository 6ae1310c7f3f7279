// Pages across threads. Typed arrays are copied to their exact size and their buffers transferred
// (one copy, no serialisation; cloning a view would copy its whole underlying buffer); views of
// shared memory (memory tables) are passed as they are and stay shared; strings travel as UTF-8
// bytes plus offsets and stay so on arrival until something reads them (utf8-strings.ts), unless
// one holds a lone surrogate (then they are structured-cloned, as long decimals are); varbinary
// values travel as one buffer plus offsets. Long decimals (partial sums: decimal(38, s)) travel as
// one BigInt64Array when every value fits 64 bits: structured cloning a bigint per row measured 2-4x
// slower than packing and unpacking them; a column with a larger value is cloned. An exact-decimal
// column (exact-decimals.ts) travels as its doubles.

import { holdsBytes, holdsStrings, type SqlType } from '../../types/types.js';
import type { Column, ColumnValues, Page } from '../../columnar/page.js';
import { exactDecimalColumn, exactValuesMaterialized } from '../../columnar/exact-decimals.js';
import { rebasedUtf8, utf8Column, wellFormedUtf8, type Utf8Strings } from '../../columnar/utf8-strings.js';

interface PackedBinaries {
  packed: true;
  offsets: Int32Array;
  bytes: Uint8Array;
}

interface PackedStrings {
  utf8: Utf8Strings;
}

interface PackedLongDecimals {
  int64: BigInt64Array;
}

/** An exact-decimal column's doubles (exact-decimals.ts), which stay its form on arrival. */
interface ExactDecimals {
  exact: Float64Array;
}

interface EncodedColumn {
  type: SqlType;
  length: number;
  values: ColumnValues | PackedBinaries | PackedStrings | PackedLongDecimals | ExactDecimals;
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
    if (c.exact !== undefined && !exactValuesMaterialized(c))
      return { type: c.type, length: c.length, values: { exact: movable(c.exact, c.length) }, nulls };
    if (!Array.isArray(c.values)) return { type: c.type, length: c.length, values: movable(c.values as TypedArray, c.length), nulls };
    const utf8 = holdsStrings(c.type) ? wellFormedUtf8(c.values as string[], c.length) : undefined;
    if (utf8 !== undefined) {
      transfer.push(ownBuffer(utf8.offsets), ownBuffer(utf8.bytes));
      return { type: c.type, length: c.length, values: { utf8 }, nulls };
    }
    if (holdsBytes(c.type))
      return { type: c.type, length: c.length, values: packBinaries(c.values as Uint8Array[], c.length, transfer), nulls };
    if (c.type.kind === 'decimal') {
      const int64 = packedInt64(c.values as bigint[], c.length);
      if (int64 !== undefined) {
        transfer.push(int64.buffer as ArrayBuffer);
        return { type: c.type, length: c.length, values: { int64 }, nulls };
      }
    }
    const values = c.values.length === c.length ? c.values : (c.values.slice(0, c.length) as ColumnValues);
    return { type: c.type, length: c.length, values, nulls };
  };
  return { page: { rowCount: page.rowCount, columns: page.columns.map(encode) }, transfer };
}

export function decodePage(page: EncodedPage): Page {
  const decode = (c: EncodedColumn): Column => {
    if (isUtf8(c.values)) return utf8Column(c.type, c.length, c.nulls, c.values.utf8);
    if (isExact(c.values)) return exactDecimalColumn(c.type, c.length, c.nulls, c.values.exact);
    if (isInt64(c.values)) return { type: c.type, length: c.length, values: unpackInt64(c.values.int64), nulls: c.nulls };
    const values = isPacked(c.values) ? unpackBinaries(c.values, c.length) : c.values;
    if (c.children !== undefined) return { type: c.type, length: c.length, values, nulls: c.nulls, children: c.children.map(decode) };
    return { type: c.type, length: c.length, values, nulls: c.nulls };
  };
  return { rowCount: page.rowCount, columns: page.columns.map(decode) };
}

type EncodedValues = EncodedColumn['values'];

function isPacked(values: EncodedValues): values is PackedBinaries {
  return (values as PackedBinaries).packed === true;
}

function isUtf8(values: EncodedValues): values is PackedStrings {
  return (values as PackedStrings).utf8 !== undefined;
}

function isExact(values: EncodedValues): values is ExactDecimals {
  return (values as ExactDecimals).exact !== undefined;
}

function isInt64(values: EncodedValues): values is PackedLongDecimals {
  return (values as PackedLongDecimals).int64 !== undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Rows [0, length) of long decimal values in a BigInt64Array, or undefined when one does not fit 64 bits. */
function packedInt64(values: readonly bigint[], length: number): BigInt64Array | undefined {
  const int64 = new BigInt64Array(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) return undefined;
    int64[i] = v;
  }
  return int64;
}

function unpackInt64(int64: BigInt64Array): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < int64.length; i++) out.push(int64[i]);
  return out;
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
