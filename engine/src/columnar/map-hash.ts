// The hash of a map value: independent of entry order, since maps with the same entries in another
// order are equal (GROUP BY, DISTINCT and joins put them together).

import type { Scalar } from '../types/scalar.js';
import type { MapValue } from '../types/map-value.js';
import { combineHash, mix32 } from './hash-functions.js';

export function hashMapValue(map: MapValue, hashScalar: (v: Scalar) => number): number {
  let sum = 0x4f1bbcdc ^ map.size;
  for (let i = 0; i < map.size; i++) sum = (sum + mix32(combineHash(hashScalar(map.keys[i]), hashScalar(map.values[i])))) | 0;
  return mix32(sum);
}
