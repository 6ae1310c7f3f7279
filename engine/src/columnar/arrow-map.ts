// map(K, V) columns <-> Arrow's Map: the column's offsets over a non-null `entries` struct whose
// children are the keys (`key`, not nullable) and the values (`value`), as Arrow defines the layout.

import { Field, Map_, Struct, makeData, type Data, type DataType } from 'apache-arrow';
import { type Column, sliceColumn } from './page.js';
import { mapKeys, mapValues } from './map-column.js';
import type { SqlType } from '../types/types.js';
import { arrowDataToColumn, arrowType, columnToArrowData } from './arrow.js';

type MapType = SqlType & { kind: 'map' };

/** The Arrow Map type of `map(K, V)`. */
export function arrowMapType(type: MapType): DataType {
  const entries = new Struct([new Field('key', arrowType(type.key), false), new Field('value', arrowType(type.value), true)]);
  return new Map_(new Field('entries', entries, false));
}

/** A map column's rows [0, length) as Arrow Map data. */
export function mapColumnToArrowData(
  column: Column,
  length: number,
  base: { nullCount: number; nullBitmap: Uint8Array | undefined },
): Data {
  const type = column.type as MapType;
  const offsets = (column.values as Int32Array).subarray(0, length + 1);
  const keys = columnToArrowData(sliceColumn(mapKeys(column), 0, offsets[length]));
  const values = columnToArrowData(sliceColumn(mapValues(column), 0, offsets[length]));
  const arrow = arrowMapType(type) as Map_;
  const entries = makeData({ type: arrow.childType, length: offsets[length], nullCount: 0, children: [keys, values] });
  return makeData({ type: arrow, length, ...base, valueOffsets: offsets, child: entries });
}

/** Arrow Map data as a map column: offsets rebased to 0, the keys and values they cover. */
export function arrowMapToColumn(data: Data, type: MapType, length: number, nulls: Uint8Array | null): Column {
  const source = data.valueOffsets as Int32Array;
  const base = source[0];
  const offsets = new Int32Array(length + 1);
  for (let i = 0; i <= length; i++) offsets[i] = source[i] - base;
  const entries = data.children[0];
  const keys = sliceColumn(arrowDataToColumn(entries.children[0], type.key), base, source[length]);
  const values = sliceColumn(arrowDataToColumn(entries.children[1], type.value), base, source[length]);
  return { type, length, values: offsets, nulls, children: [keys, values] };
}
