// Parquet's physical and logical types onto ours (see the table in parquet-format.ts's header).

import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  MAX_DECIMAL_PRECISION,
  REAL,
  SMALLINT,
  TINYINT,
  VARBINARY,
  VARCHAR,
  decimal,
  timestamp,
  type SqlType,
} from '../../../../types/types.js';
import type { SchemaElement } from './file-metadata.js';
import { ConvertedType, PhysicalType, type LogicalType } from './parquet-constants.js';

/** Our type for a primitive field, or why it has none. */
export function parquetLeafType(e: SchemaElement): SqlType | { unsupported: string } {
  const logical = effectiveLogicalType(e);
  if (logical?.kind === 'DECIMAL') {
    if (logical.precision < 1 || logical.precision > MAX_DECIMAL_PRECISION)
      return { unsupported: `decimal(${logical.precision},${logical.scale})` };
    if (logical.scale < 0 || logical.scale > logical.precision) return { unsupported: `decimal(${logical.precision},${logical.scale})` };
    return decimal(logical.precision, logical.scale);
  }
  switch (e.type) {
    case PhysicalType.Boolean:
      return BOOLEAN;
    case PhysicalType.Int32:
      if (logical?.kind === 'INTEGER') return integerType(logical.bitWidth, logical.isSigned);
      if (logical?.kind === 'DATE') return DATE;
      if (logical?.kind === 'TIME' && logical.unit === 'MILLIS') return { kind: 'time', precision: 3 };
      return INTEGER;
    case PhysicalType.Int64:
      if (logical?.kind === 'INTEGER') return integerType(logical.bitWidth, logical.isSigned);
      // Nanoseconds round to microseconds: the engine's timestamps and times stop at precision 6.
      if (logical?.kind === 'TIMESTAMP') return timestamp(logical.unit === 'MILLIS' ? 3 : 6);
      if (logical?.kind === 'TIME') return { kind: 'time', precision: logical.unit === 'MILLIS' ? 3 : 6 };
      return BIGINT;
    case PhysicalType.Int96:
      return timestamp(6);
    case PhysicalType.Float:
      return REAL;
    case PhysicalType.Double:
      return DOUBLE;
    case PhysicalType.ByteArray:
      if (logical?.kind === 'STRING' || logical?.kind === 'ENUM' || logical?.kind === 'JSON') return VARCHAR;
      return VARBINARY;
    case PhysicalType.FixedLenByteArray:
      if (logical?.kind === 'UUID' && e.typeLength === 16) return VARCHAR;
      if (logical?.kind === 'FLOAT16' && e.typeLength === 2) return REAL;
      if (e.convertedType === ConvertedType.Interval) return { unsupported: 'interval' };
      return VARBINARY;
    default:
      return { unsupported: `physical type ${e.type}` };
  }
}

/** Unsigned integers widen to the next signed type (uint64 to decimal(20,0)), as DuckDB and Trino read them. */
function integerType(bitWidth: number, signed: boolean): SqlType {
  switch (bitWidth) {
    case 8:
      return signed ? TINYINT : SMALLINT;
    case 16:
      return signed ? SMALLINT : INTEGER;
    case 32:
      return signed ? INTEGER : BIGINT;
    default:
      return signed ? BIGINT : decimal(20, 0);
  }
}

/** The logical type an old writer's converted_type stands for. */
export function logicalOfConverted(e: SchemaElement): LogicalType | undefined {
  switch (e.convertedType) {
    case ConvertedType.Utf8:
      return { kind: 'STRING' };
    case ConvertedType.Enum:
      return { kind: 'ENUM' };
    case ConvertedType.Json:
      return { kind: 'JSON' };
    case ConvertedType.Bson:
      return { kind: 'BSON' };
    case ConvertedType.Decimal:
      return { kind: 'DECIMAL', precision: e.precision ?? 0, scale: e.scale ?? 0 };
    case ConvertedType.Date:
      return { kind: 'DATE' };
    case ConvertedType.TimeMillis:
      return { kind: 'TIME', isAdjustedToUTC: true, unit: 'MILLIS' };
    case ConvertedType.TimeMicros:
      return { kind: 'TIME', isAdjustedToUTC: true, unit: 'MICROS' };
    case ConvertedType.TimestampMillis:
      return { kind: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' };
    case ConvertedType.TimestampMicros:
      return { kind: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' };
    case ConvertedType.Int8:
    case ConvertedType.Int16:
    case ConvertedType.Int32:
    case ConvertedType.Int64:
      return { kind: 'INTEGER', bitWidth: 8 << (e.convertedType - ConvertedType.Int8), isSigned: true };
    case ConvertedType.Uint8:
    case ConvertedType.Uint16:
    case ConvertedType.Uint32:
    case ConvertedType.Uint64:
      return { kind: 'INTEGER', bitWidth: 8 << (e.convertedType - ConvertedType.Uint8), isSigned: false };
    default:
      return undefined;
  }
}

/** The logical type of a field: its LogicalType, else what its converted_type stands for. */
export function effectiveLogicalType(e: SchemaElement): LogicalType | undefined {
  return e.logicalType ?? logicalOfConverted(e);
}
