// A Parquet file's schema as the columns a table sees: its top-level fields. A flat field (a
// required or optional primitive) is one column chunk per row group and reads into our pages; a
// nested one (a group: LIST, MAP, struct; or a repeated primitive) has Trino's type name for
// messages, and reading it fails with NOT_SUPPORTED until the engine has array/map/row types.

import { typeName, type SqlType } from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ConvertedType, PhysicalType, Repetition } from './parquet-constants.js';
import { parquetLeafType } from './type-mapping.js';

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

export type FileColumn = FlatColumn | NestedColumn;

export class SchemaError extends Error {}

interface Node {
  element: SchemaElement;
  children: Node[];
}

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
      columns.push({ kind: 'nested', name: node.element.name, typeName: nestedTypeName(node) });
    }
    chunkIndex += leafCount(node);
  }
  return columns;
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
  return node.element.type === undefined ? 'unknown' : PHYSICAL_NAMES[node.element.type] ?? 'unknown';
}

const PHYSICAL_NAMES: Record<number, string> = {
  [PhysicalType.ByteArray]: 'varbinary',
  [PhysicalType.FixedLenByteArray]: 'varbinary',
};
