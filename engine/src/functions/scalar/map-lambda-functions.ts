// Map functions taking lambdas (Trino's functions/map.md): map_filter, transform_keys,
// transform_values and map_zip_with. Keys a lambda makes are checked as every map constructor
// checks them (never NULL, never repeated).

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { MapValue, findKey } from '../../types/map-value.js';
import { mapKeyOf } from '../../types/map-keys.js';
import { formatValueAsText } from '../../types/values.js';
import { BOOLEAN, type SqlType, mapOf } from '../../types/types.js';
import { functionOf as fn, lambdaResult } from './function-parameters.js';
import { checkMapKey } from './map-functions.js';
import { type MapPattern, type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

/** A compiled lambda: its arguments and result as scalars. */
type Lambda = (...args: Scalar[]) => Scalar;

const K = { variable: 'K' } as const;
const V = { variable: 'V' } as const;
const V1 = { variable: 'V1' } as const;
const V2 = { variable: 'V2' } as const;
const MAP_KV: MapPattern = { mapOf: ['K', 'V'] };
const MAP_KV1: MapPattern = { mapOf: ['K', 'V1'] };
const MAP_KV2: MapPattern = { mapOf: ['K', 'V2'] };
const mapType = (type: SqlType) => type as SqlType & { kind: 'map' };

function define(name: string, description: string, signature: SignatureTemplate): ScalarFunctionDefinition {
  return { names: [name], description, signatures: [signature] };
}

function transformKeys(keyType: SqlType) {
  const keyOf = mapKeyOf(keyType);
  return (map: MapValue, f: Lambda): MapValue => {
    const keys: Scalar[] = [];
    const seen = new Set<unknown>();
    for (let i = 0; i < map.size; i++) {
      const key = f(map.keys[i], map.values[i]);
      checkMapKey(key, keyType);
      const lookup = keyOf(key);
      if (seen.has(lookup))
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Duplicate keys (${formatValueAsText(key, keyType)}) are not allowed`);
      seen.add(lookup);
      keys.push(key);
    }
    return new MapValue(keys, map.values);
  };
}

/** Every key of the left map in its order, then the right map's other keys; a missing value is NULL. */
function zipWith(keyType: SqlType) {
  const keyOf = mapKeyOf(keyType);
  return (left: MapValue, right: MapValue, f: Lambda): MapValue => {
    const keys: Scalar[] = [];
    const values: Scalar[] = [];
    for (let i = 0; i < left.size; i++) {
      const j = findKey(right, left.keys[i], keyOf);
      keys.push(left.keys[i]);
      values.push(f(left.keys[i], left.values[i], j < 0 ? null : right.values[j]));
    }
    for (let j = 0; j < right.size; j++) {
      if (findKey(left, right.keys[j], keyOf) >= 0) continue;
      keys.push(right.keys[j]);
      values.push(f(right.keys[j], null, right.values[j]));
    }
    return new MapValue(keys, values);
  };
}

export const MAP_LAMBDA_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  define('map_filter', 'Return map containing entries that match the given predicate', {
    params: [MAP_KV, fn([K, V], BOOLEAN)],
    returnType: (types) => types[0],
    returnTypeDisplay: 'map(K,V)',
    implement: () =>
      body((map: MapValue, predicate: Lambda) => {
        const keep = map.keys.map((k, i) => predicate(k, map.values[i]) === true);
        return new MapValue(
          map.keys.filter((_, i) => keep[i]),
          map.values.filter((_, i) => keep[i]),
        );
      }),
  }),
  define('transform_keys', 'Apply lambda to each entry of the map and transform the key', {
    params: [MAP_KV, fn([K, V], { variable: 'K2' })],
    returnType: (types) => mapOf(lambdaResult(types, 1), mapType(types[0]).value),
    returnTypeDisplay: 'map(K2,V)',
    implement: (_, returnType) => body(transformKeys(mapType(returnType).key)),
  }),
  define('transform_values', 'Apply lambda to each entry of the map and transform the value', {
    params: [MAP_KV, fn([K, V], { variable: 'V2' })],
    returnType: (types) => mapOf(mapType(types[0]).key, lambdaResult(types, 1)),
    returnTypeDisplay: 'map(K,V2)',
    implement: () =>
      body(
        (map: MapValue, f: Lambda) =>
          new MapValue(
            map.keys,
            map.keys.map((k, i) => f(k, map.values[i])),
          ),
      ),
  }),
  define('map_zip_with', 'Merge two maps into a single map by applying the lambda function to the pair of values with the same key', {
    params: [MAP_KV1, MAP_KV2, fn([K, V1, V2], { variable: 'V3' })],
    returnType: (types) => mapOf(mapType(types[0]).key, lambdaResult(types, 2)),
    returnTypeDisplay: 'map(K,V3)',
    implement: ([map]) => body(zipWith(mapType(map).key)),
  }),
];
