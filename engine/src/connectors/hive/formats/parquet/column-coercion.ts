// A table may declare a column with another type than the file holds (the table's type changed, or
// files of several writers): the safe widenings Trino's Hive connector coerces are read through
// the engine's casts (a slow path, per value, only for such columns), array elements and map keys
// and values alike;
// anything else fails naming the column, the file and both types.

import { EngineError } from '../../../../errors/engine-error.js';
import { listElements } from '../../../../columnar/list-column.js';
import { mapKeys, mapValues } from '../../../../columnar/map-column.js';
import { ColumnBuilder, getScalar, type Column } from '../../../../columnar/page.js';
import { castFunction } from '../../../../types/casts.js';
import type { RowType } from '../../../../types/row-type.js';
import { rowWidening } from './struct-coercion.js';
import { integralDecimalPrecision, isIntegral, typeName, typesEqual, type SqlType } from '../../../../types/types.js';

export type Coercion = ((column: Column) => Column) | undefined;

/** The coercion from the file's type to the declared one (undefined: none needed); throws when there is none. */
export function coercion(fileType: SqlType, declared: SqlType, column: string, location: string): Coercion {
  const coerce = widening(fileType, declared);
  if (coerce === null) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Column '${column}' is declared as ${typeName(declared)}, but the Parquet file ${location} holds it as ${typeName(fileType)}`,
    );
  }
  return coerce;
}

/** The coercion between two types (arrays element-wise, maps key- and value-wise), or null when there is none. */
function widening(fileType: SqlType, declared: SqlType): Coercion | null {
  if (typesEqual(fileType, declared)) return undefined;
  if (fileType.kind === 'array' && declared.kind === 'array') {
    const elements = widening(fileType.element, declared.element);
    if (elements === null || elements === undefined) return elements;
    return (c) => ({ ...c, type: declared, children: [elements(listElements(c))] });
  }
  if (fileType.kind === 'map' && declared.kind === 'map') {
    const keys = widening(fileType.key, declared.key);
    const values = widening(fileType.value, declared.value);
    if (keys === null || values === null) return null;
    return (c) => ({
      ...c,
      type: declared,
      children: [keys === undefined ? mapKeys(c) : keys(mapKeys(c)), values === undefined ? mapValues(c) : values(mapValues(c))],
    });
  }
  if (fileType.kind === 'map' || declared.kind === 'map') return null;
  if (fileType.kind === 'row' && declared.kind === 'row') return rowWidening(fileType as RowType, declared as RowType, widening);
  if (!isSafeWidening(fileType, declared)) return null;
  const cast = castFunction(fileType, declared) as (v: unknown) => ReturnType<typeof getScalar>;
  return (c) => {
    if (declared.kind === 'varchar' && fitsLength(c.values as string[], declared.length)) return { ...c, type: declared };
    const builder = new ColumnBuilder(declared, c.length);
    for (let i = 0; i < c.length; i++) {
      const v = getScalar(c, i);
      builder.append(v === null ? null : cast(v));
    }
    return builder.build();
  };
}

function isSafeWidening(from: SqlType, to: SqlType): boolean {
  if (isIntegral(from) && isIntegral(to)) return integralDecimalPrecision(to) >= integralDecimalPrecision(from);
  if (isIntegral(from) && to.kind === 'decimal') return to.precision - to.scale >= integralDecimalPrecision(from);
  if (from.kind === 'real' && to.kind === 'double') return true;
  if (from.kind === 'decimal' && to.kind === 'decimal')
    return to.scale >= from.scale && to.precision - to.scale >= from.precision - from.scale;
  // Longer strings are cut to a bounded varchar's length, as Trino's Hive connector reads them.
  if (from.kind === 'varchar' && to.kind === 'varchar') return true;
  // A lower precision rounds, as Trino's hive.timestamp-precision does.
  if (from.kind === 'timestamp' && to.kind === 'timestamp') return true;
  if (from.kind === 'time' && to.kind === 'time') return true;
  return false;
}

/** Whether no string is longer than `length` (UTF-16 units bound code points from above). */
function fitsLength(values: readonly string[], length: number | undefined): boolean {
  if (length === undefined) return true;
  for (let i = 0; i < values.length; i++) if (values[i].length > length) return false;
  return true;
}
