// Encodes a map column (map(K, V) of primitive keys and values) as the two column chunks of its
// leaves, in Parquet's MAP layout:
//   optional group <name> (MAP) { repeated group key_value { required K key; optional V value } }
// A map is NULL at definition level 0 and empty at 1; a key is at 2; a value is NULL at 2 and
// present at 3. Both chunks are the chunks of a one-level list over the map's offsets (keys, then
// values as the elements), so list-chunk-writer writes them.

import { EngineError } from '../../../../errors/engine-error.js';
import type { Column } from '../../../../columnar/page.js';
import { mapKeys, mapValues } from '../../../../columnar/map-column.js';
import { arrayOf, typeName, type SqlType } from '../../../../types/types.js';
import type { EncodedChunk } from './column-chunk-writer.js';
import type { SchemaElement } from './file-metadata.js';
import { encodeListChunk, type ListEncoding } from './list-chunk-writer.js';
import { ConvertedType, Repetition } from './parquet-constants.js';
import { physicalEncoding } from './physical-encoding.js';

export interface MapEncoding {
  /** The schema elements of the column, depth first. */
  elements: SchemaElement[];
  keys: ListEncoding;
  values: ListEncoding;
}

/** The MAP schema of a map column, or undefined when the type is no map. */
export function mapEncoding(name: string, type: SqlType): MapEncoding | undefined {
  if (type.kind !== 'map') return undefined;
  const nested = (t: SqlType) => t.kind === 'array' || t.kind === 'map' || t.kind === 'row';
  if (nested(type.key) || nested(type.value)) {
    throw new EngineError(
      'NOT_SUPPORTED',
      `Column '${name}' of type ${typeName(type)} cannot be written to a Parquet file: maps of nested keys or values are not supported`,
    );
  }
  const key = physicalEncoding(name, type.key);
  const value = physicalEncoding(name, type.value);
  const elements: SchemaElement[] = [
    { name, repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.Map, logicalType: { kind: 'MAP' } },
    { name: 'key_value', repetition: Repetition.Repeated, numChildren: 2 },
    { ...key.element, name: 'key', repetition: Repetition.Required },
    { ...value.element, name: 'value' },
  ];
  return {
    elements,
    keys: { elements: [], path: [name, 'key_value', 'key'], leaf: key, depth: 1, leafOptional: false },
    values: { elements: [], path: [name, 'key_value', 'value'], leaf: value, depth: 1 },
  };
}

/** The key chunk, then the value chunk, of a map column. */
export function encodeMapChunks(encoding: MapEncoding, column: Column): EncodedChunk[] {
  const asList = (child: Column): Column => ({
    type: arrayOf(child.type),
    length: column.length,
    values: column.values,
    nulls: column.nulls,
    children: [child],
  });
  return [encodeListChunk(encoding.keys, asList(mapKeys(column))), encodeListChunk(encoding.values, asList(mapValues(column)))];
}
