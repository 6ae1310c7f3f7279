// Table batches in shared memory, so worker threads read them without a copy. Every buffer of a
// batch is copied once, when the batch is stored, into one SharedArrayBuffer; a view of shared
// memory posted to a worker is shared, not cloned. Stored batches never change, so no locking is
// needed. A worker rebuilds the Arrow data from the views and decodes it as a main-thread scan would.

import { Data, RecordBatch, type DataType, type Field } from 'apache-arrow';
import { arrowDataToColumn, arrowType } from '../../columnar/arrow.js';
import type { Column, Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { decodesWithoutCopy } from './batch-columns.js';

type BufferView = Uint8Array | Int8Array | Int16Array | Int32Array | BigInt64Array | Uint32Array | Float32Array | Float64Array;
type BufferViewConstructor = new (buffer: SharedArrayBuffer, byteOffset: number, length: number) => BufferView;

/** One column of a stored batch as plain data: its SqlType and the Arrow buffers (views of shared memory). */
export interface SharedColumn {
  /** Names this column of this stored batch for as long as the process runs: its decoded form can be kept under it. */
  key?: string;
  type: SqlType;
  offset: number;
  length: number;
  nullCount: number;
  valueOffsets?: Int32Array;
  values?: BufferView;
  nullBitmap?: Uint8Array;
  /** The child data of a nested column (an array's elements), Arrow type and all. */
  children?: SharedData[];
}

/** Arrow data of a child column as plain data (its Arrow type rebuilt from the parent's SqlType). */
interface SharedData {
  offset: number;
  length: number;
  nullCount: number;
  valueOffsets?: Int32Array;
  values?: BufferView;
  nullBitmap?: Uint8Array;
  children?: SharedData[];
}

/** Some columns of one stored batch, ready to post to a worker. */
export interface SharedPage {
  rowCount: number;
  columns: SharedColumn[];
}

const align8 = (n: number): number => (n + 7) & ~7;

/** Decodes a shared column (that has a key), or returns the column decoded earlier under the same key. */
export type SharedColumnDecoder = (column: SharedColumn, decode: () => Column) => Column;

const batchIds = new WeakMap<RecordBatch, number>();
let nextBatchId = 1;

/** The same batch with every buffer moved into one SharedArrayBuffer. */
export function shareBatch(batch: RecordBatch): RecordBatch {
  const shared = copyToSharedMemory(batch);
  batchIds.set(shared, nextBatchId++);
  return shared;
}

function copyToSharedMemory(batch: RecordBatch): RecordBatch {
  const children = batch.data.children;
  let total = 0;
  const measure = (data: Data): void => {
    for (const b of buffersOf(data)) total += align8(b?.byteLength ?? 0);
    for (const child of data.children ?? []) measure(child);
  };
  for (const child of children) measure(child);
  const memory = new SharedArrayBuffer(total);
  let used = 0;
  const share = <T extends BufferView>(view: T | undefined): T | undefined => {
    if (view === undefined || view.byteLength === 0) return view;
    const Constructor = view.constructor as BufferViewConstructor;
    const shared = new Constructor(memory, used, view.length) as T;
    shared.set(view as never);
    used += align8(view.byteLength);
    return shared;
  };
  const shareData = (c: Data): Data =>
    new Data(
      c.type,
      c.offset,
      c.length,
      c.nullCount,
      [share(c.valueOffsets), share(c.values as BufferView), share(c.nullBitmap)],
      (c.children ?? []).map(shareData),
    );
  const sharedChildren = children.map(shareData);
  const struct = new Data(batch.data.type, 0, batch.numRows, 0, undefined, sharedChildren);
  return new RecordBatch(batch.schema, struct);
}

function buffersOf(data: Data): (BufferView | undefined)[] {
  return [data.valueOffsets, data.values as BufferView | undefined, data.nullBitmap];
}

/** The key naming column `index` of a stored batch for as long as the process runs (undefined for a batch not stored shared). */
export function storedColumnKey(batch: RecordBatch, index: number): string | undefined {
  const batchId = batchIds.get(batch);
  return batchId === undefined ? undefined : `${batchId}:${index}`;
}

/** The columns at `indexes` of a stored batch (whose columns have `types`), as plain data. */
export function sharedPage(batch: RecordBatch, types: readonly SqlType[], indexes: readonly number[]): SharedPage {
  const children = batch.data.children;
  const columns = indexes.map((i): SharedColumn => {
    const data = children[i];
    const column: SharedColumn = { type: types[i], offset: data.offset, length: data.length, nullCount: data.nullCount };
    const key = storedColumnKey(batch, i);
    if (key !== undefined) column.key = key;
    if (data.valueOffsets !== undefined) column.valueOffsets = data.valueOffsets as Int32Array;
    if (data.values !== undefined) column.values = data.values as BufferView;
    if (data.nullBitmap !== undefined) column.nullBitmap = data.nullBitmap;
    if (data.children.length > 0) column.children = data.children.map(plainData);
    return column;
  });
  return { rowCount: batch.numRows, columns };
}

function plainData(data: Data): SharedData {
  const plain: SharedData = { offset: data.offset, length: data.length, nullCount: data.nullCount };
  if (data.valueOffsets !== undefined) plain.valueOffsets = data.valueOffsets as Int32Array;
  if (data.values !== undefined) plain.values = data.values as BufferView;
  if (data.nullBitmap !== undefined) plain.nullBitmap = data.nullBitmap;
  if (data.children.length > 0) plain.children = data.children.map(plainData);
  return plain;
}

/** Arrow data of `type` from its plain form. */
function arrowData(type: SqlType, c: SharedData): Data {
  return typedData(arrowType(type), c);
}

/** Nested data's children typed by the Arrow type's own child fields (a list's item, a map's entries struct and its key and value). */
function typedData(type: DataType, c: SharedData): Data {
  const children = c.children?.map((child, k) => typedData((type.children as Field[])[k].type, child));
  return new Data(type, c.offset, c.length, c.nullCount, [c.valueOffsets, c.values, c.nullBitmap], children);
}

/**
 * The page a shared batch holds (in a worker thread). Fixed-width columns stay views of shared
 * memory; the others (strings, decimals, ...) are decoded through `decoder`, which may keep them.
 */
export function sharedPageToPage(shared: SharedPage, decoder: SharedColumnDecoder = (_, decode) => decode()): Page {
  const columns = shared.columns.map((c) => {
    const decode = () => arrowDataToColumn(arrowData(c.type, c), c.type);
    return decodesWithoutCopy(c.type) || c.key === undefined ? decode() : decoder(c, decode);
  });
  return { rowCount: shared.rowCount, columns };
}
