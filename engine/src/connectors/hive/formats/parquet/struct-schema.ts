// A Parquet struct (a group that is no LIST or MAP) as a row(...) column: each of its primitive
// fields is a column chunk of its own, a nested struct a group of them. A field's definition levels
// say whether the struct holding it is NULL (below the struct's level), the field is NULL, or it
// holds a value. Structs holding lists or maps, and lists of structs, are not read yet
// (parquet-schema lists them with their type names).

import { rowOf, type SqlType } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { Repetition } from './parquet-constants.js';
import type { SchemaNode } from './parquet-schema.js';
import { parquetLeafType } from './type-mapping.js';

export interface StructLeaf {
  kind: 'leaf';
  name: string;
  element: SchemaElement;
  chunkIndex: number;
  /** The definition level of a value (lower: the field or a struct above it is NULL). */
  maxDefinitionLevel: number;
  type: SqlType;
}

export interface StructGroup {
  kind: 'group';
  name: string;
  /** The definition level at which this struct is not NULL. */
  presentDefinition: number;
  fields: StructField[];
  type: SqlType;
}

export type StructField = StructLeaf | StructGroup;

export interface StructColumn {
  kind: 'struct';
  name: string;
  root: StructGroup;
  type: SqlType;
  /** The chunks of its leaves, in schema order. */
  chunkIndexes: number[];
}

/** The field as a struct of primitives (or of such structs), or undefined when it is not one. */
export function structColumn(node: SchemaNode, firstChunk: number): StructColumn | undefined {
  let chunk = firstChunk;
  const shape = (n: SchemaNode, parentDefinition: number): StructField | undefined => {
    const e = n.element;
    if (e.repetition === Repetition.Repeated) return undefined;
    const definition = parentDefinition + (e.repetition === Repetition.Optional ? 1 : 0);
    if (n.children.length === 0) {
      const type = parquetLeafType(e);
      if (!('kind' in type)) return undefined;
      return { kind: 'leaf', name: e.name, element: e, chunkIndex: chunk++, maxDefinitionLevel: definition, type };
    }
    // A LIST or MAP group (or any annotated one) is no struct.
    if (e.logicalType !== undefined || e.convertedType !== undefined) return undefined;
    const fields: StructField[] = [];
    for (const child of n.children) {
      const field = shape(child, definition);
      if (field === undefined) return undefined;
      fields.push(field);
    }
    return {
      kind: 'group',
      name: e.name,
      presentDefinition: definition,
      fields,
      type: rowOf(fields.map((f) => ({ name: f.name, type: f.type }))),
    };
  };
  if (node.children.length === 0) return undefined;
  const root = shape(node, 0);
  if (root === undefined || root.kind !== 'group') return undefined;
  return {
    kind: 'struct',
    name: root.name,
    root,
    type: root.type,
    chunkIndexes: Array.from({ length: chunk - firstChunk }, (_, i) => firstChunk + i),
  };
}
