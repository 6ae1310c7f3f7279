// `=` and IS NOT DISTINCT FROM on map values, as Trino compares maps: equal when they hold the same
// keys with equal values, whatever the entry order. `=` is NULL when no pair differs but a pair of
// values cannot be compared (a NULL on either side). Maps have no order (<, ORDER BY, min/max).

import type { Scalar } from '../../types/scalar.js';
import { type MapKeyOf, type MapValue, findKey } from '../../types/map-value.js';
import type { SqlType } from '../../types/types.js';

type ValueEquality = (a: Scalar, b: Scalar) => boolean | null;

/** SQL `=` of two maps whose values compare with `equalValues` (which may answer NULL). */
export function mapEquality(equalValues: ValueEquality, keyOf: MapKeyOf): (a: MapValue, b: MapValue) => boolean | null {
  return (a, b) => {
    if (a.size !== b.size) return false;
    let unknown = false;
    for (let i = 0; i < a.size; i++) {
      const j = findKey(b, a.keys[i], keyOf);
      if (j < 0) return false;
      const x = a.values[i];
      const y = b.values[j];
      if (x === null || y === null) unknown = true;
      else {
        const same = equalValues(x, y);
        if (same === null) unknown = true;
        else if (!same) return false;
      }
    }
    return unknown ? null : true;
  };
}

/** IS NOT DISTINCT FROM of two maps (NULL values match NULL values). */
export function mapIdentity(sameValues: (a: Scalar, b: Scalar) => boolean, keyOf: MapKeyOf): (a: MapValue, b: MapValue) => boolean {
  return (a, b) => {
    if (a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) {
      const j = findKey(b, a.keys[i], keyOf);
      if (j < 0) return false;
      const x = a.values[i];
      const y = b.values[j];
      if (x === null || y === null ? x !== y : !sameValues(x, y)) return false;
    }
    return true;
  };
}

/** Whether values of `type` can be compared for equality (Trino: not the sketch types, nor containers of them). */
export function isComparable(type: SqlType): boolean {
  if (type.kind === 'sketch') return false;
  if (type.kind === 'row') return type.fields.every((f) => isComparable(f.type));
  if (type.kind === 'map') return isComparable(type.key) && isComparable(type.value);
  return type.kind === 'array' ? isComparable(type.element) : true;
}

/** Whether values of `type` have an order (Trino: maps do not, nor arrays or rows holding maps). */
export function isOrderable(type: SqlType): boolean {
  if (
    type.kind === 'map' ||
    type.kind === 'json' ||
    type.kind === 'unsupported' ||
    type.kind === 'sketch' ||
    type.kind === 'variant' ||
    type.kind === 'color'
  )
    return false;
  if (type.kind === 'row') return type.fields.every((f) => isOrderable(f.type));
  return type.kind === 'array' ? isOrderable(type.element) : true;
}
