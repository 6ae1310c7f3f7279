// map_agg(k, v), multimap_agg(k, v), histogram(x) and map_union(m): a map per group, built entry by
// entry (map_union's from each input map's entries; NULL maps are skipped). Rows
// with a NULL key are skipped (the key parameter is not nullable in Trino); a group without entries
// is NULL. The intermediate state is the map of the final type itself, so a partial step on each
// worker and a final step merging the maps give what one step gives:
//   map_agg       the first value seen for a key wins (Trino keeps the first too)
//   multimap_agg  every value of a key, NULLs included, as an array
//   histogram     the number of rows of each value
//   map_union     as map_agg (Trino's MapUnionAggregation shares map_agg's state)

import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { mapColumnFromRows } from '../../columnar/map-column.js';
import { type MapKeyOf, MapValue } from '../../types/map-value.js';
import { mapKeyOf } from '../../types/map-keys.js';
import { BOXED_VALUE_BYTES, POINTER_BYTES } from '../../columnar/memory-estimate.js';
import { BIGINT, type SqlType, arrayOf, mapOf } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';

type MapAggKind = 'map_agg' | 'multimap_agg' | 'histogram' | 'map_union';

interface GroupMap {
  readonly index: Map<unknown, number>;
  readonly keys: Scalar[];
  readonly values: Scalar[];
}

/** How a group's entry takes one more value for its key (`existing` undefined: a new key). */
const MERGE: Record<MapAggKind, (existing: Scalar | undefined, incoming: Scalar) => Scalar> = {
  map_agg: (existing, incoming) => (existing === undefined ? incoming : existing),
  map_union: (existing, incoming) => (existing === undefined ? incoming : existing),
  multimap_agg: (existing, incoming) => (existing === undefined ? incoming : [...(existing as Scalar[]), ...(incoming as Scalar[])]),
  histogram: (existing, incoming) => (existing === undefined ? incoming : (existing as bigint) + (incoming as bigint)),
};

class MapAggAccumulator implements GroupedAccumulator {
  private groups: (GroupMap | undefined)[] = [];
  private entries = 0;

  private readonly keyOf: MapKeyOf;

  constructor(
    private readonly kind: MapAggKind,
    private readonly returnType: SqlType,
  ) {
    this.keyOf = mapKeyOf((returnType as SqlType & { kind: 'map' }).key);
  }

  ensureCapacity(groupCount: number): void {
    if (this.groups.length < groupCount) this.groups.length = groupCount;
  }

  private add(group: number, key: Scalar, value: Scalar): void {
    let map = this.groups[group];
    if (map === undefined) {
      map = { index: new Map(), keys: [], values: [] };
      this.groups[group] = map;
    }
    const lookup = this.keyOf(key);
    const at = map.index.get(lookup);
    if (at === undefined) {
      map.index.set(lookup, map.keys.length);
      map.keys.push(key);
      map.values.push(MERGE[this.kind](undefined, value));
      this.entries++;
    } else {
      map.values[at] = MERGE[this.kind](map.values[at], value);
    }
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    if (this.kind === 'map_union') return this.addIntermediate(groupIds, args, start, end);
    const [keys, values] = args;
    for (let i = start; i < end; i++) {
      const key = getScalar(keys, i);
      if (key === null) continue;
      if (this.kind === 'histogram') this.add(groupIds[i], key, 1n);
      else if (this.kind === 'multimap_agg') this.add(groupIds[i], key, [getScalar(values, i)]);
      else this.add(groupIds[i], key, getScalar(values, i));
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const part = getScalar(intermediates[0], i) as MapValue | null;
      if (part === null) continue;
      for (let e = 0; e < part.size; e++) this.add(groupIds[i], part.keys[e], part.values[e]);
    }
  }

  private finalValue(group: number): MapValue | null {
    const map = this.groups[group];
    return map === undefined ? null : new MapValue(map.keys.slice(), map.values.slice());
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    const rows: (MapValue | null)[] = [];
    for (let g = start; g < end; g++) rows.push(this.finalValue(g));
    return mapColumnFromRows(this.returnType, rows, end - start);
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const value = this.finalValue(group);
    (out.values as unknown as Scalar[])[row] = value;
    out.nulls[row] = value === null ? 1 : 0;
  }

  sizeInBytes(): number {
    // Each entry: its key and value slots, and its slot in the group's key index.
    return this.groups.length * POINTER_BYTES + this.entries * 3 * BOXED_VALUE_BYTES;
  }
}

/** map_agg(K, V) -> map(K, V); multimap_agg(K, V) -> map(K, array(V)); histogram(T) -> map(T, bigint); map_union(map(K, V)) -> map(K, V). */
export function mapAggFunction(kind: MapAggKind, argumentTypes: readonly SqlType[]): AggregateFunction {
  const [key, value] = argumentTypes;
  const returnType =
    kind === 'map_union'
      ? key
      : kind === 'histogram'
        ? mapOf(key, BIGINT)
        : kind === 'multimap_agg'
          ? mapOf(key, arrayOf(value))
          : mapOf(key, value);
  return {
    name: kind,
    argumentTypes: [...argumentTypes],
    returnType,
    intermediateTypes: [returnType],
    createAccumulator: () => new MapAggAccumulator(kind, returnType),
  };
}
