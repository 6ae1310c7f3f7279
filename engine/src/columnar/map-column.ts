// Map columns (Arrow's Map layout): `values` holds length + 1 Int32 offsets, `children[0]` the keys
// and `children[1]` the values of every row end to end. Slicing, gathering, concatenating and sizing
// are those of array columns (list-column.ts handles offsets over any number of children); a row
// becomes a MapValue only when an expression needs that row's value.

import type { SqlType } from '../types/types.js';
import { type Column, columnFromScalars, getScalar } from './page.js';
import type { Scalar } from '../types/scalar.js';
import { MapValue } from '../types/map-value.js';
import { offsetsOfRows } from './list-column.js';

type MapType = SqlType & { kind: 'map' };

function mapTypeOf(type: SqlType): MapType {
  if (type.kind !== 'map') throw new Error(`not a map type: ${type.kind}`);
  return type;
}

/** The key column of a map column. */
export function mapKeys(column: Column): Column {
  return (column.children as readonly Column[])[0];
}

/** The value column of a map column. */
export function mapValues(column: Column): Column {
  return (column.children as readonly Column[])[1];
}

/** The entries of row `row` as a MapValue. */
export function readMapRow(offsets: Int32Array, keys: Column, values: Column, row: number): MapValue {
  const start = offsets[row];
  const end = offsets[row + 1];
  const k = new Array<Scalar>(end - start);
  const v = new Array<Scalar>(end - start);
  for (let i = start; i < end; i++) {
    k[i - start] = getScalar(keys, i);
    v[i - start] = getScalar(values, i);
  }
  return new MapValue(k, v);
}

/** A map column from one MapValue (or null) per row; rows flagged in `nullMask` are NULL. */
export function mapColumnFromRows(
  type: SqlType,
  rows: readonly (Scalar | undefined)[],
  length = rows.length,
  nullMask: Uint8Array | null = null,
): Column {
  const { key, value } = mapTypeOf(type);
  const { offsets, nulls, total } = offsetsOfRows(rows, length, nullMask, (row) => (row as MapValue).size);
  const keys = new Array<Scalar>(total);
  const values = new Array<Scalar>(total);
  let k = 0;
  for (let i = 0; i < length; i++) {
    if (nulls !== null && nulls[i] === 1) continue;
    const map = rows[i] as MapValue;
    for (let e = 0; e < map.size; e++, k++) {
      keys[k] = map.keys[e];
      values[k] = map.values[e];
    }
  }
  return { type, length, values: offsets, nulls, children: [columnFromScalars(key, keys), columnFromScalars(value, values)] };
}
