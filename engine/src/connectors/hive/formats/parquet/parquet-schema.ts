// A Parquet file's schema as the columns a table sees: its top-level fields. A flat field (a
// required or optional primitive) is one column chunk per row group and reads into our pages; a
// list of primitives (LIST in its standard three-level form or the legacy two-level ones, a bare
// repeated primitive, and lists of such lists) is one column chunk too and reads as array(T),
// assembled from its repetition and definition levels (list-chunk-decoder.ts); a MAP of primitive
// keys and values is two chunks read as map(K, V) (map-chunk-decoder.ts); a struct of primitives
// (or of such structs) reads as row(...) from its fields' chunks (struct-schema.ts); any other nested
// field (maps of nested values, lists of structs, structs of lists or maps) has Trino's type name for
// messages, and reading it fails with NOT_SUPPORTED.

import { arrayOf, mapOf, typeName, type SqlType } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ConvertedType, PhysicalType, Repetition } from './parquet-constants.js';
import { parquetLeafType } from './type-mapping.js';
import { structColumn, type StructColumn } from './struct-schema.js';

export interface FlatColumn {
  kind: 'flat';
  /** The field's name as the file spells it. */
  name: string;
  element: SchemaElement;
  /** Index of its column chunk in every row group. */
  chunkIndex: number;
  /** 1 when the field is optional (definition levels present), else 0. */
  maxDefinitionLevel: number;
  /** Our type for it, or why there is none. */
  type: SqlType | { unsupported: string };
}

export interface NestedColumn {
  kind: 'nested';
  name: string;
  /** Trino's name of its type: array(bigint), map(varchar, integer), row(a integer, b varchar). */
  typeName: string;
}

/** One list level, outermost first: the definition levels at which the list is not NULL, and holds an element. */
export interface ListLevel {
  presentDefinition: number;
  elementDefinition: number;
}

export interface ListColumn {
  kind: 'list';
  name: string;
  /** The primitive leaf holding the elements' values. */
  element: SchemaElement;
  chunkIndex: number;
  /** array(T), array(array(T)), ... */
  type: SqlType;
  /** One per list level; the maximum repetition level is their count. */
  levels: ListLevel[];
  /** The definition level of a non-NULL element value. */
  maxDefinitionLevel: number;
}

/** A MAP of primitive keys and values: two chunks, each read as a one-level list over the map's levels. */
export interface MapColumn {
  kind: 'map';
  name: string;
  /** The key chunk's index (the value chunk follows it). */
  chunkIndex: number;
  type: SqlType;
  keys: ListColumn;
  values: ListColumn;
}

export type FileColumn = FlatColumn | ListColumn | MapColumn | StructColumn | NestedColumn;

export class SchemaError extends Error {}

export interface SchemaNode {
  element: SchemaElement;
  children: SchemaNode[];
}
type Node = SchemaNode;

/** The file's top-level columns in schema order. */
export function fileColumns(schema: readonly SchemaElement[]): FileColumn[] {
  if (schema.length === 0) throw new SchemaError('the schema is empty');
  let next = 1;
  const build = (element: SchemaElement, depth: number): Node => {
    if (depth > 64) throw new SchemaError('the schema is nested too deeply');
    const children: Node[] = [];
    const count = element.numChildren ?? 0;
    for (let i = 0; i < count; i++) {
      if (next >= schema.length) throw new SchemaError(`group '${element.name}' has fewer children than it declares`);
      children.push(build(schema[next++], depth + 1));
    }
    return { element, children };
  };
  const root = build(schema[next - 1], 0);
  if (next !== schema.length) throw new SchemaError('the schema has elements outside its root');
  const columns: FileColumn[] = [];
  let chunkIndex = 0;
  for (const node of root.children) {
    const flat = node.children.length === 0 && node.element.repetition !== Repetition.Repeated;
    if (flat) {
      columns.push({
        kind: 'flat',
        name: node.element.name,
        element: node.element,
        chunkIndex,
        maxDefinitionLevel: node.element.repetition === Repetition.Optional ? 1 : 0,
        type: parquetLeafType(node.element),
      });
    } else {
      const list = listShape(node, 0, true);
      const map = list === undefined ? mapShape(node, chunkIndex) : undefined;
      const struct = list === undefined && map === undefined ? structColumn(node, chunkIndex) : undefined;
      if (list !== undefined) columns.push({ kind: 'list', name: node.element.name, chunkIndex, ...list });
      else if (map !== undefined) columns.push(map);
      else if (struct !== undefined) columns.push(struct);
      else columns.push({ kind: 'nested', name: node.element.name, typeName: nestedTypeName(node) });
    }
    chunkIndex += leafCount(node);
  }
  return columns;
}

type ListShape = Pick<ListColumn, 'element' | 'type' | 'levels' | 'maxDefinitionLevel'>;

/**
 * The field as a list of primitives (or of such lists), with its levels; undefined when it is not
 * one (a map, a struct, a list of structs, an element type we cannot read). `definition` is the
 * definition level of the field's parent; a bare repeated primitive is a list only at the top.
 */
function listShape(node: Node, definition: number, top: boolean): ListShape | undefined {
  const e = node.element;
  if (node.children.length === 0 && e.repetition === Repetition.Repeated) {
    if (!top) return undefined;
    return leafList(e, { presentDefinition: definition, elementDefinition: definition + 1 }, definition + 1);
  }
  const isList = e.logicalType?.kind === 'LIST' || e.convertedType === ConvertedType.List;
  if (!isList || e.repetition === Repetition.Repeated || node.children.length !== 1) return undefined;
  const repeated = node.children[0];
  if (repeated.element.repetition !== Repetition.Repeated) return undefined;
  const present = definition + (e.repetition === Repetition.Optional ? 1 : 0);
  const level = { presentDefinition: present, elementDefinition: present + 1 };
  // Parquet's backward-compatibility rules: a repeated primitive is the (required) element itself;
  // a repeated group of one field is the standard three-level form unless it is named `array` or
  // `<list>_tuple` (then the group itself is the element: a struct, which we cannot read).
  if (repeated.children.length === 0) return leafList(repeated.element, level, level.elementDefinition);
  if (repeated.children.length !== 1 || repeated.element.name === 'array' || repeated.element.name === `${e.name}_tuple`) return undefined;
  const element = repeated.children[0];
  if (element.element.repetition === Repetition.Repeated) return undefined;
  if (element.children.length === 0) {
    const optional = element.element.repetition === Repetition.Optional ? 1 : 0;
    return leafList(element.element, level, level.elementDefinition + optional);
  }
  const inner = listShape(element, level.elementDefinition, false);
  if (inner === undefined) return undefined;
  return { ...inner, type: arrayOf(inner.type), levels: [level, ...inner.levels] };
}

/**
 * The field as a map of primitive keys and values (MAP, or the legacy MAP_KEY_VALUE annotations),
 * or undefined: `optional|required group (MAP) { repeated group { required K; optional V } }`.
 */
function mapShape(node: Node, chunkIndex: number): MapColumn | undefined {
  const e = node.element;
  const isMap = e.logicalType?.kind === 'MAP' || e.convertedType === ConvertedType.Map || e.convertedType === ConvertedType.MapKeyValue;
  if (!isMap || e.repetition === Repetition.Repeated || node.children.length !== 1) return undefined;
  const entries = node.children[0];
  if (entries.element.repetition !== Repetition.Repeated || entries.children.length !== 2) return undefined;
  const [key, value] = entries.children;
  if (
    key.children.length > 0 ||
    value.children.length > 0 ||
    key.element.repetition === Repetition.Repeated ||
    value.element.repetition === Repetition.Repeated
  )
    return undefined;
  const present = e.repetition === Repetition.Optional ? 1 : 0;
  const level = { presentDefinition: present, elementDefinition: present + 1 };
  const optional = (leaf: Node) => (leaf.element.repetition === Repetition.Optional ? 1 : 0);
  const keys = leafList(key.element, level, level.elementDefinition + optional(key));
  const values = leafList(value.element, level, level.elementDefinition + optional(value));
  if (keys === undefined || values === undefined) return undefined;
  const name = e.name;
  return {
    kind: 'map',
    name,
    chunkIndex,
    type: mapOf((keys.type as { element: SqlType }).element, (values.type as { element: SqlType }).element),
    keys: { kind: 'list', name, chunkIndex, ...keys },
    values: { kind: 'list', name, chunkIndex: chunkIndex + 1, ...values },
  };
}

function leafList(leaf: SchemaElement, level: ListLevel, maxDefinitionLevel: number): ListShape | undefined {
  const type = parquetLeafType(leaf);
  if (!('kind' in type)) return undefined;
  return { element: leaf, type: arrayOf(type), levels: [level], maxDefinitionLevel };
}

function leafCount(node: Node): number {
  if (node.children.length === 0) return 1;
  let n = 0;
  for (const c of node.children) n += leafCount(c);
  return n;
}

/** Trino's name of a field's type, following Parquet's LIST and MAP conventions (and their legacy forms). */
function nestedTypeName(node: Node): string {
  const e = node.element;
  if (node.children.length === 0) {
    const element = elementTypeName(node);
    return e.repetition === Repetition.Repeated ? `array(${element})` : element;
  }
  const logical = e.logicalType?.kind;
  if (logical === 'LIST' || e.convertedType === ConvertedType.List) {
    const repeated = node.children[0];
    // Three-level lists: the repeated group holds one element field. Legacy two-level lists (a
    // repeated primitive, or a group named `array` or `<name>_tuple`) repeat the element itself.
    const threeLevel = repeated.children.length === 1 && repeated.element.name !== 'array' && !repeated.element.name.endsWith('_tuple');
    const element = threeLevel ? repeated.children[0] : { ...repeated, element: { ...repeated.element, repetition: Repetition.Required } };
    return `array(${nestedTypeName(element)})`;
  }
  if (logical === 'MAP' || e.convertedType === ConvertedType.Map || e.convertedType === ConvertedType.MapKeyValue) {
    const entries = node.children[0];
    if (entries.children.length === 2) return `map(${nestedTypeName(entries.children[0])}, ${nestedTypeName(entries.children[1])})`;
  }
  const row = `row(${node.children.map((c) => `${c.element.name} ${nestedTypeName(c)}`).join(', ')})`;
  return e.repetition === Repetition.Repeated ? `array(${row})` : row;
}

function elementTypeName(node: Node): string {
  const type = parquetLeafType(node.element);
  if ('kind' in type) return typeName(type);
  return node.element.type === undefined ? 'unknown' : (PHYSICAL_NAMES[node.element.type] ?? 'unknown');
}

const PHYSICAL_NAMES: Record<number, string> = {
  [PhysicalType.ByteArray]: 'varbinary',
  [PhysicalType.FixedLenByteArray]: 'varbinary',
};
