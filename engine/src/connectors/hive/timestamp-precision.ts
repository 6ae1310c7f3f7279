// The precision a lake catalog reads and writes plain timestamps at, as Trino's Hive connector:
// `hive.timestamp-precision` (MILLISECONDS by default, MICROSECONDS, NANOSECONDS) and the session's
// `<catalog>.timestamp_precision`. Hive's metastore names one `timestamp` type, so every timestamp
// column (at any depth) is of the configured precision, whatever a file holds (read values round
// half up) or the table was created with; CREATE TABLE and CTAS refuse any other precision.

import { ConfigError } from '../../config/config-error.js';
import { EngineError } from '../../errors/engine-error.js';
import type { ColumnMetadata } from '../../spi/connector.js';
import type { PropertyMetadata } from '../../spi/properties.js';
import type { Session } from '../../spi/session.js';
import { arrayOf, mapOf, timestamp, typeName, type SqlType } from '../../types/types.js';

export const TIMESTAMP_PRECISION_CONFIG = 'hive.timestamp-precision';
export const TIMESTAMP_PRECISION_PROPERTY = 'timestamp_precision';

const PRECISIONS = { MILLISECONDS: 3, MICROSECONDS: 6, NANOSECONDS: 9 } as const;
export type HiveTimestampPrecision = keyof typeof PRECISIONS;
export const DEFAULT_TIMESTAMP_PRECISION: HiveTimestampPrecision = 'MILLISECONDS';

function isPrecisionName(name: string): name is HiveTimestampPrecision {
  return Object.hasOwn(PRECISIONS, name);
}

const NAMES = Object.keys(PRECISIONS).join(', ');

/** The catalog property's value, checked (a bad one stops the server, naming it). */
export function configuredTimestampPrecision(catalog: string, value: string | number | boolean | undefined): HiveTimestampPrecision {
  if (value === undefined) return DEFAULT_TIMESTAMP_PRECISION;
  const name = String(value).toUpperCase();
  if (!isPrecisionName(name))
    throw new ConfigError(`Catalog '${catalog}': ${TIMESTAMP_PRECISION_CONFIG} must be one of ${NAMES}, got '${value}'`);
  return name;
}

/** The catalog's session property, its default the catalog's setting. */
export function timestampPrecisionProperty(configured: HiveTimestampPrecision): PropertyMetadata {
  return {
    name: TIMESTAMP_PRECISION_PROPERTY,
    description: `Precision for timestamp columns in Hive tables (${NAMES})`,
    type: { kind: 'varchar' },
    defaultValue: configured,
    validate: (value) => {
      if (!isPrecisionName(String(value).toUpperCase())) throw new Error(`it must be one of ${NAMES}`);
    },
  };
}

/** The precision name this session reads catalog `catalog` at. */
export function sessionTimestampPrecision(session: Session, catalog: string, configured: HiveTimestampPrecision): HiveTimestampPrecision {
  const value = session.properties.get(`${catalog}.${TIMESTAMP_PRECISION_PROPERTY}`)?.toUpperCase();
  return value !== undefined && isPrecisionName(value) ? value : configured;
}

export function precisionDigits(precision: HiveTimestampPrecision): number {
  return PRECISIONS[precision];
}

/** `type` with every plain timestamp in it (array elements, map keys and values, row fields) at `digits`. */
export function atTimestampPrecision(type: SqlType, digits: number): SqlType {
  switch (type.kind) {
    case 'timestamp':
      return type.precision === digits ? type : timestamp(digits);
    case 'array': {
      const element = atTimestampPrecision(type.element, digits);
      return element === type.element ? type : arrayOf(element);
    }
    case 'map': {
      const key = atTimestampPrecision(type.key, digits);
      const value = atTimestampPrecision(type.value, digits);
      return key === type.key && value === type.value ? type : mapOf(key, value);
    }
    case 'row': {
      const fields = type.fields.map((f) => ({ ...f, type: atTimestampPrecision(f.type, digits) }));
      return fields.every((f, i) => f.type === type.fields[i].type) ? type : { ...type, fields };
    }
    default:
      return type;
  }
}

/** The columns with their timestamps at `digits` (the same array when none changes). */
export function columnsAtTimestampPrecision<C extends { type: SqlType }>(columns: readonly C[], digits: number): C[] {
  return columns.map((c) => {
    const type = atTimestampPrecision(c.type, digits);
    return type === c.type ? c : { ...c, type };
  });
}

/** Refuses a new table's column holding a timestamp of another precision than the session's (Trino's check and message). */
export function checkTimestampColumns(columns: readonly ColumnMetadata[], precision: HiveTimestampPrecision): void {
  const digits = PRECISIONS[precision];
  for (const column of columns) {
    const other = otherPrecisionTimestamp(column.type, digits);
    if (other !== undefined)
      throw new EngineError(
        'NOT_SUPPORTED',
        `Incorrect timestamp precision for ${typeName(other)}; the configured precision is ${precision}; column name: ${column.name}`,
      );
  }
}

function otherPrecisionTimestamp(type: SqlType, digits: number): SqlType | undefined {
  switch (type.kind) {
    case 'timestamp':
      return type.precision === digits ? undefined : type;
    case 'array':
      return otherPrecisionTimestamp(type.element, digits);
    case 'map':
      return otherPrecisionTimestamp(type.key, digits) ?? otherPrecisionTimestamp(type.value, digits);
    case 'row':
      for (const f of type.fields) {
        const other = otherPrecisionTimestamp(f.type, digits);
        if (other !== undefined) return other;
      }
      return undefined;
    default:
      return undefined;
  }
}
