// Map keys are matched by SQL equality. A zoned timestamp or time equals another of the same
// instant in any zone (Trino), so keys holding them are matched by their instants; other keys by
// their value (types/map-value.ts mapLookupKey).

import { type MapKeyOf, mapLookupKey } from './map-value.js';
import type { SqlType } from './types.js';
import { zonedInstantMapper } from './zoned-timestamp.js';

/** The lookup key function for maps whose keys are of `keyType`. */
export function mapKeyOf(keyType: SqlType): MapKeyOf {
  const instants = zonedInstantMapper(keyType);
  return instants === undefined ? mapLookupKey : (v) => mapLookupKey(instants(v));
}
