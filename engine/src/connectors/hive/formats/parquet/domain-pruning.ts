// Parquet statistics (a row group's min/max, a page's column index entry, a dictionary) as bounds a
// prepared domain (spi/domain/prepared-domain.ts) is tested against.

import type { ColumnValues } from '../../../../columnar/page.js';
import type { Bound } from '../../../../spi/domain/prepared-domain.js';
import type { SqlType } from '../../../../types/types.js';
import type { FlatColumn } from './parquet-schema.js';
import type { PhysicalValues } from './physical-values.js';
import { PhysicalType } from './parquet-constants.js';
import { valueConverter } from './value-conversion.js';

/** Decodes statistics bounds (plain-encoded single values) of one column. */
export class BoundDecoder {
  private readonly convert;
  readonly bytewise: boolean;

  constructor(
    private readonly column: FlatColumn,
    readonly type: SqlType,
  ) {
    this.bytewise = type.kind === 'varchar' || type.kind === 'varbinary';
    this.convert = valueConverter(column.element, type);
  }

  decode(bytes: Uint8Array | undefined): Bound | undefined {
    if (bytes === undefined) return undefined;
    if (this.bytewise) return this.column.element.type === PhysicalType.ByteArray ? bytes : undefined;
    const physical = singleValue(this.column.element.type ?? -1, this.column.element.typeLength ?? 0, bytes);
    if (physical === undefined) return undefined;
    const value = storageScalar(this.convert(physical));
    return typeof value === 'number' && Number.isNaN(value) ? undefined : value;
  }
}

function singleValue(physicalType: number, typeLength: number, bytes: Uint8Array): PhysicalValues | undefined {
  // A copy of exactly these bytes (a Node Buffer's slice() would share the whole pool's memory).
  const copy = () => new Uint8Array(bytes).buffer;
  switch (physicalType) {
    case PhysicalType.Boolean:
      return bytes.length === 1 ? { kind: 'boolean', values: Uint8Array.of(bytes[0] & 1) } : undefined;
    case PhysicalType.Int32:
      return bytes.length === 4 ? { kind: 'int32', values: new Int32Array(copy()) } : undefined;
    case PhysicalType.Int64:
      return bytes.length === 8 ? { kind: 'int64', values: new BigInt64Array(copy()) } : undefined;
    case PhysicalType.Float:
      return bytes.length === 4 ? { kind: 'float', values: new Float32Array(copy()) } : undefined;
    case PhysicalType.Double:
      return bytes.length === 8 ? { kind: 'double', values: new Float64Array(copy()) } : undefined;
    case PhysicalType.ByteArray:
      return { kind: 'bytes', offsets: Int32Array.of(0, bytes.length), data: bytes };
    case PhysicalType.FixedLenByteArray:
      return bytes.length === typeLength ? { kind: 'fixed', width: typeLength, data: bytes } : undefined;
    default:
      return undefined; // INT96 statistics have no defined order.
  }
}

function storageScalar(values: ColumnValues): number | bigint | undefined {
  const v = values[0];
  return typeof v === 'number' || typeof v === 'bigint' ? v : undefined;
}

/** A dictionary's entries as bounds (strings as their UTF-8 bytes). */
export function dictionaryBounds(values: ColumnValues, bytewise: boolean): Bound[] {
  const out: Bound[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'string') out.push(encoder.encode(v));
    else if (v instanceof Uint8Array) out.push(v);
    else if (typeof v === 'number') {
      if (!Number.isNaN(v)) out.push(v);
    } else if (typeof v === 'bigint') out.push(v);
  }
  return bytewise ? out.filter((b) => b instanceof Uint8Array) : out;
}
