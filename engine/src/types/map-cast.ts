// CAST(map(K1, V1) AS map(K2, V2)): each key and each non-null value through its element cast. Keys
// that become equal after the cast fail as duplicate keys, as in Trino (CAST(MAP(ARRAY[1.1, 1.2], ...)
// AS map(integer, ...))).

import type { Scalar } from './scalar.js';
import { MapValue } from './map-value.js';
import { mapKeyOf } from './map-keys.js';
import { EngineError } from '../errors/engine-error.js';
import { formatValueAsText } from './values.js';
import type { SqlType } from './types.js';

type OneCast = (value: Scalar) => Scalar;

export function mapCast(keyCast: OneCast, valueCast: OneCast, to: SqlType & { kind: 'map' }): (map: MapValue) => MapValue {
  const keyOf = mapKeyOf(to.key);
  return (map) => {
    const keys = map.keys.map(keyCast);
    const seen = new Set<unknown>();
    for (const key of keys) {
      const lookup = keyOf(key);
      if (seen.has(lookup))
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Duplicate map keys (${formatValueAsText(key, to.key)}) are not allowed`);
      seen.add(lookup);
    }
    return new MapValue(
      keys,
      map.values.map((v) => (v === null ? null : valueCast(v))),
    );
  };
}
