// Map functions and operators without lambdas (Trino's functions/map.md): MAP(keys, values) and
// map(), m[k] and element_at, cardinality, map_keys, map_values, map_concat. A map value is a
// MapValue (types/map-value.ts); every constructor checks its keys as Trino does (never NULL, never
// indeterminate, never repeated).

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { EMPTY_MAP, type MapKeyOf, MapValue, findKey } from '../../types/map-value.js';
import { formatValueAsText } from '../../types/values.js';
import { mapKeyOf } from '../../types/map-keys.js';
import { BIGINT, type SqlType, UNKNOWN, arrayOf, mapOf, rowOf } from '../../types/types.js';
import { type MapPattern, type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

const K = { variable: 'K' } as const;
const MAP_KV: MapPattern = { mapOf: ['K', 'V'] };
const mapType = (types: readonly SqlType[]) => types[0] as SqlType & { kind: 'map' };

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

function containsNull(v: Scalar): boolean {
  if (Array.isArray(v)) return (v as readonly Scalar[]).some((e) => e === null || containsNull(e));
  if (v instanceof MapValue) return v.values.some((e) => e === null || containsNull(e));
  return false;
}

/** Fails as Trino does for a key no map may hold: NULL, or a value with NULLs inside (indeterminate). */
export function checkMapKey(key: Scalar, keyType: SqlType): void {
  if (key === null) throw invalidArgument('map key cannot be null');
  if (containsNull(key)) throw invalidArgument(`map key cannot be indeterminate: ${formatValueAsText(key, keyType)}`);
}

export function duplicateKeyError(key: Scalar, keyType: SqlType): EngineError {
  return invalidArgument(`Duplicate map keys (${formatValueAsText(key, keyType)}) are not allowed`);
}

/** A map of these entries, checked: keys not NULL, not indeterminate, not repeated. */
export function checkedMap(
  keys: readonly Scalar[],
  values: readonly Scalar[],
  keyType: SqlType,
  keyOf: MapKeyOf = mapKeyOf(keyType),
): MapValue {
  if (keys.length !== values.length) throw invalidArgument('Key and value arrays must be the same length');
  const seen = new Set<unknown>();
  for (const key of keys) {
    checkMapKey(key, keyType);
    const lookup = keyOf(key);
    if (seen.has(lookup)) throw duplicateKeyError(key, keyType);
    seen.add(lookup);
  }
  return new MapValue(keys, values);
}

function subscript(keyType: SqlType) {
  const keyOf = mapKeyOf(keyType);
  return body(
    (map: MapValue, key: Scalar) => {
      const i = findKey(map, key, keyOf);
      if (i < 0) throw invalidArgument(`Key not present in map: ${formatValueAsText(key, keyType)}`);
      return map.values[i];
    },
    { mayReturnNull: true },
  );
}

function elementAt(keyType: SqlType) {
  const keyOf = mapKeyOf(keyType);
  return (map: MapValue, key: Scalar): Scalar => {
    const i = findKey(map, key, keyOf);
    return i < 0 ? null : map.values[i];
  };
}

/** The union of the maps; a key's value comes from the last map holding it (entries of later maps first, as Trino orders them). */
function mapConcat(keyType: SqlType) {
  const keyOf = mapKeyOf(keyType);
  return (...maps: MapValue[]): MapValue => {
    const seen = new Set<unknown>();
    const keys: Scalar[] = [];
    const values: Scalar[] = [];
    for (let m = maps.length - 1; m >= 0; m--) {
      const map = maps[m];
      for (let i = 0; i < map.size; i++) {
        const lookup = keyOf(map.keys[i]);
        if (seen.has(lookup)) continue;
        seen.add(lookup);
        keys.push(map.keys[i]);
        values.push(map.values[i]);
      }
    }
    return new MapValue(keys, values);
  };
}

function over(
  params: SignatureTemplate['params'],
  returnType: SignatureTemplate['returnType'],
  implement: SignatureTemplate['implement'],
  returnTypeDisplay?: string,
): SignatureTemplate {
  return { params, returnType, returnTypeDisplay, implement };
}

export const MAP_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['map'],
    description: 'Constructs a map from an array of keys and an array of values; map() is the empty map',
    signatures: [
      over([], mapOf(UNKNOWN, UNKNOWN), () => body(() => EMPTY_MAP)),
      over(
        [{ arrayOf: 'K' }, { arrayOf: 'V' }],
        (types) => mapOf((types[0] as { element: SqlType }).element, (types[1] as { element: SqlType }).element),
        (_types, returnType) => {
          const keyType = (returnType as SqlType & { kind: 'map' }).key;
          const keyOf = mapKeyOf(keyType);
          return body((keys: readonly Scalar[], values: readonly Scalar[]) => checkedMap(keys, values, keyType, keyOf));
        },
        'map(K,V)',
      ),
    ],
  },
  {
    names: ['cardinality'],
    description: 'Returns the cardinality (size) of the map',
    signatures: [over([MAP_KV], BIGINT, () => body((map: MapValue) => BigInt(map.size)))],
  },
  {
    names: ['element_at'],
    description: 'Returns the value for the given key, or NULL if the map does not hold it',
    signatures: [
      over(
        [MAP_KV, K],
        (types) => mapType(types).value,
        (types) => body(elementAt(mapType(types).key), { mayReturnNull: true }),
        'V',
      ),
    ],
  },
  {
    names: ['map_keys'],
    description: 'Returns the keys of the map as an array',
    signatures: [
      over(
        [MAP_KV],
        (types) => arrayOf(mapType(types).key),
        () => body((map: MapValue) => map.keys),
        'array(K)',
      ),
    ],
  },
  {
    names: ['map_values'],
    description: 'Returns the values of the map as an array',
    signatures: [
      over(
        [MAP_KV],
        (types) => arrayOf(mapType(types).value),
        () => body((map: MapValue) => map.values),
        'array(V)',
      ),
    ],
  },
  {
    names: ['map_concat'],
    description: 'Returns the union of the maps; a key in several takes its value from the last',
    signatures: [
      {
        ...over(
          [MAP_KV],
          (types) => types[0],
          (types) => body(mapConcat(mapType(types).key)),
          'map(K,V)',
        ),
        variadic: { minArgs: 2 },
      },
    ],
  },
];

/** `m[k]`: the value of key k; fails naming the key when m does not hold it. */
export const MAP_OPERATORS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['subscript'],
    description: 'Map subscript',
    signatures: [
      over(
        [MAP_KV, K],
        (types) => mapType(types).value,
        (types) => subscript(mapType(types).key),
        'V',
      ),
    ],
  },
];

/** The two field types of an entry row (array(row(K, V))), or undefined for any other array. */
function entryFields(arrayType: SqlType): [SqlType, SqlType] | undefined {
  const element = (arrayType as { element?: SqlType }).element;
  if (element === undefined || element.kind !== 'row' || element.fields.length !== 2) return undefined;
  return [element.fields[0].type, element.fields[1].type];
}

/** Each entry row checked: not NULL, its key as a constructor checks keys. */
function eachEntry(entries: readonly Scalar[], keyType: SqlType, visit: (key: Scalar, value: Scalar) => void): void {
  for (const entry of entries) {
    if (entry === null) throw invalidArgument('map entry cannot be null');
    const [key, value] = entry as readonly Scalar[];
    checkMapKey(key, keyType);
    visit(key, value);
  }
}

function mapFromEntries(keyType: SqlType) {
  return (entries: readonly Scalar[]): MapValue => {
    const keys: Scalar[] = [];
    const values: Scalar[] = [];
    const seen = new Set<unknown>();
    const keyOf = mapKeyOf(keyType);
    eachEntry(entries, keyType, (key, value) => {
      const lookup = keyOf(key);
      if (seen.has(lookup)) throw duplicateKeyError(key, keyType);
      seen.add(lookup);
      keys.push(key);
      values.push(value);
    });
    return new MapValue(keys, values);
  };
}

function multimapFromEntries(keyType: SqlType) {
  return (entries: readonly Scalar[]): MapValue => {
    const groups = new Map<unknown, { key: Scalar; values: Scalar[] }>();
    const keyOf = mapKeyOf(keyType);
    eachEntry(entries, keyType, (key, value) => {
      const lookup = keyOf(key);
      const group = groups.get(lookup);
      if (group === undefined) groups.set(lookup, { key, values: [value] });
      else group.values.push(value);
    });
    const list = [...groups.values()];
    return new MapValue(
      list.map((g) => g.key),
      list.map((g) => g.values),
    );
  };
}

const ENTRIES = { arrayOf: 'E' } as const;
/** An array of two-field rows: the entries of a map. */
const acceptsEntries = (types: readonly SqlType[]) =>
  (types[0] as { element?: SqlType }).element?.kind === 'unknown' || entryFields(types[0]) !== undefined;

export const MAP_ENTRY_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['map_entries'],
    description: 'Construct an array of entries from a given map',
    signatures: [
      over(
        [MAP_KV],
        (types) => arrayOf(rowOf([{ type: mapType(types).key }, { type: mapType(types).value }])),
        () => body((map: MapValue) => map.keys.map((k, i) => [k, map.values[i]])),
        'array(row(K,V))',
      ),
    ],
  },
  {
    names: ['map_from_entries'],
    description: 'Construct a map from an array of entries',
    signatures: [
      {
        ...over(
          [ENTRIES],
          (types) => {
            const [k, v] = entryFields(types[0]) ?? [UNKNOWN, UNKNOWN];
            return mapOf(k, v);
          },
          (types) => body(mapFromEntries((entryFields(types[0]) ?? [UNKNOWN])[0])),
          'map(K,V)',
        ),
        accepts: acceptsEntries,
      },
    ],
  },
  {
    names: ['multimap_from_entries'],
    description: 'Construct a multimap from an array of entries',
    signatures: [
      {
        ...over(
          [ENTRIES],
          (types) => {
            const [k, v] = entryFields(types[0]) ?? [UNKNOWN, UNKNOWN];
            return mapOf(k, arrayOf(v));
          },
          (types) => body(multimapFromEntries((entryFields(types[0]) ?? [UNKNOWN])[0])),
          'map(K,array(V))',
        ),
        accepts: acceptsEntries,
      },
    ],
  },
];
