// The JS value of one map row (a Scalar, scalar.ts): its keys and values in entry order, as two arrays of
// one length. Keys are never NULL and never repeat (the constructors check, map-functions.ts).
// Entry order is kept (Trino keeps it too: map_keys, the client's JSON and map_concat show it), but
// two maps with the same entries in another order are equal and hash alike.

import type { Scalar } from './scalar.js';

export class MapValue {
  constructor(
    readonly keys: readonly Scalar[],
    readonly values: readonly Scalar[],
  ) {}

  get size(): number {
    return this.keys.length;
  }

  /** Plan JSON (task requests, expression keys) tags a map so that it decodes as one (plan-json.ts). */
  toJSON(): { $map: [readonly Scalar[], readonly Scalar[]] } {
    return { $map: [this.keys, this.values] };
  }
}

export const EMPTY_MAP = new MapValue([], []);

export function isMapValue(v: unknown): v is MapValue {
  return v instanceof MapValue;
}

/**
 * A JS Map key equal for map keys that are equal (SQL `=` on the key type, NaN matching NaN, -0
 * matching 0): for lookups (m[k], element_at) and for finding duplicate keys. Keys of one map are
 * of one type, so primitive and encoded (string) forms never meet.
 */
export function mapLookupKey(v: Scalar): unknown {
  switch (typeof v) {
    case 'number':
      return v !== v ? 'NaN' : v === 0 ? 0 : v;
    case 'bigint':
    case 'string':
    case 'boolean':
      return v;
    default:
      return encodedKey(v);
  }
}

function encodedKey(v: Scalar): string {
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `x${Buffer.from(v).toString('hex')}`;
  const part = (x: Scalar): string => {
    const k = mapLookupKey(x);
    return typeof k === 'string' ? JSON.stringify(k) : typeof k === 'bigint' ? `${k}n` : String(k);
  };
  if (v instanceof MapValue) {
    const entries = v.keys.map((k, i) => `${part(k)}:${part(v.values[i])}`).sort();
    return `m{${entries.join(',')}}`;
  }
  return `a[${(v as readonly Scalar[]).map(part).join(',')}]`;
}

/** A lookup key of a map key: mapLookupKey, or one that sees equal zoned instants alike (types/map-keys.ts). */
export type MapKeyOf = (v: Scalar) => unknown;

const indexes = new WeakMap<MapKeyOf, WeakMap<MapValue, Map<unknown, number>>>();

/** The entry position of each key of `map` under `keyOf` (built once per map value and keyOf, on first lookup). */
export function keyIndex(map: MapValue, keyOf: MapKeyOf = mapLookupKey): Map<unknown, number> {
  let byMap = indexes.get(keyOf);
  if (byMap === undefined) {
    byMap = new WeakMap();
    indexes.set(keyOf, byMap);
  }
  let index = byMap.get(map);
  if (index === undefined) {
    index = new Map();
    for (let i = 0; i < map.keys.length; i++) index.set(keyOf(map.keys[i]), i);
    byMap.set(map, index);
  }
  return index;
}

/** The position of `key` among the entries of `map`, or -1. */
export function findKey(map: MapValue, key: Scalar, keyOf: MapKeyOf = mapLookupKey): number {
  if (map.size <= 8) {
    const wanted = keyOf(key);
    for (let i = 0; i < map.keys.length; i++) if (keyOf(map.keys[i]) === wanted) return i;
    return -1;
  }
  return keyIndex(map, keyOf).get(keyOf(key)) ?? -1;
}
