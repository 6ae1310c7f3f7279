// Functions that build maps from other values: split_to_map and split_to_multimap (Trino's string
// page) and array_histogram (its array page). Entries keep the order of their first appearance.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { MapValue } from '../../types/map-value.js';
import { mapKeyOf } from '../../types/map-keys.js';
import { BIGINT, type SqlType, VARCHAR, arrayOf, mapOf } from '../../types/types.js';
import { type ArrayPattern, type ScalarFunctionDefinition, body } from './signature.js';

const VARCHAR_X = { family: 'varchar' } as const;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** The (key, value) pairs of the text, each entry split once by the key-value delimiter. */
function entries(text: string, entryDelimiter: string, keyValueDelimiter: string, quoteBadInput: boolean): Array<[string, string]> {
  if (entryDelimiter === '') throw invalidArgument('entryDelimiter is empty');
  if (keyValueDelimiter === '') throw invalidArgument('keyValueDelimiter is empty');
  if (entryDelimiter === keyValueDelimiter) throw invalidArgument('entryDelimiter and keyValueDelimiter must not be the same');
  const pairs: Array<[string, string]> = [];
  if (text === '') return pairs;
  // The last entry runs to the end; an entry delimiter at the very end leaves no empty entry.
  const parts = text.split(entryDelimiter);
  if (parts.at(-1) === '') parts.pop();
  for (const pair of parts) {
    const parts2 = pair.split(keyValueDelimiter);
    if (parts2.length !== 2)
      throw invalidArgument(`Key-value delimiter must appear exactly once in each entry. Bad input: ${quoteBadInput ? `'${pair}'` : pair}`);
    pairs.push([parts2[0], parts2[1]]);
  }
  return pairs;
}

function splitToMap(text: string, entryDelimiter: string, keyValueDelimiter: string): MapValue {
  const map = new Map<string, string>();
  for (const [key, value] of entries(text, entryDelimiter, keyValueDelimiter, true)) {
    if (map.has(key)) throw invalidArgument(`Duplicate keys (${key}) are not allowed`);
    map.set(key, value);
  }
  return new MapValue([...map.keys()], [...map.values()]);
}

function splitToMultimap(text: string, entryDelimiter: string, keyValueDelimiter: string): MapValue {
  const map = new Map<string, string[]>();
  for (const [key, value] of entries(text, entryDelimiter, keyValueDelimiter, false)) {
    const values = map.get(key);
    if (values === undefined) map.set(key, [value]);
    else values.push(value);
  }
  return new MapValue([...map.keys()], [...map.values()]);
}

/** Each distinct non-NULL element and how often it occurs. */
function arrayHistogram(elementType: SqlType) {
  const keyOf = mapKeyOf(elementType);
  return (elements: readonly Scalar[]): MapValue => {
    const counts = new Map<unknown, { key: Scalar; count: bigint }>();
    for (const element of elements) {
      if (element === null) continue;
      const lookup = keyOf(element);
      const entry = counts.get(lookup);
      if (entry === undefined) counts.set(lookup, { key: element, count: 1n });
      else entry.count++;
    }
    const list = [...counts.values()];
    return new MapValue(
      list.map((e) => e.key),
      list.map((e) => e.count),
    );
  };
}

const ARRAY_T: ArrayPattern = { arrayOf: 'T' };

export const MAP_BUILDING_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['split_to_map'],
    description: 'Creates a map using entryDelimiter and keyValueDelimiter',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X, VARCHAR_X], returnType: mapOf(VARCHAR, VARCHAR), implement: () => body(splitToMap) }],
  },
  {
    names: ['split_to_multimap'],
    description: 'Creates a multimap by splitting a string into key/value pairs',
    signatures: [
      { params: [VARCHAR_X, VARCHAR_X, VARCHAR_X], returnType: mapOf(VARCHAR, arrayOf(VARCHAR)), implement: () => body(splitToMultimap) },
    ],
  },
  {
    names: ['array_histogram'],
    description: 'Return a map containing the counts of the elements in the array',
    signatures: [
      {
        params: [ARRAY_T],
        returnType: (types) => mapOf((types[0] as { element: SqlType }).element, BIGINT),
        returnTypeDisplay: 'map(T,bigint)',
        implement: ([array]) => body(arrayHistogram((array as SqlType & { kind: 'array' }).element)),
      },
    ],
  },
];
