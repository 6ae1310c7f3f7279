// Turns a type as written in SQL (an AST TypeSpec's name and numeric parameters) into an SqlType,
// with Trino's defaults and parameter checks.

import { zonedTimeType } from './zoned-time.js';
import { EngineError, type SourceLocation } from '../errors/engine-error.js';
import { type SqlType, decimal, varchar, MAX_DECIMAL_PRECISION } from './types.js';
import { zonedTimestampType } from './zoned-timestamp.js';

/** Char lengths and bounded varchar lengths Trino accepts. */
export const MAX_CHAR_LENGTH = 65536;
export const MAX_VARCHAR_LENGTH = 2147483646;
const MAX_TRINO_TIME_PRECISION = 12;

const SIMPLE_TYPES: Record<string, SqlType> = {
  boolean: { kind: 'boolean' },
  tinyint: { kind: 'tinyint' },
  smallint: { kind: 'smallint' },
  integer: { kind: 'integer' },
  int: { kind: 'integer' },
  bigint: { kind: 'bigint' },
  real: { kind: 'real' },
  float: { kind: 'real' },
  double: { kind: 'double' },
  'double precision': { kind: 'double' },
  varbinary: { kind: 'varbinary' },
  json: { kind: 'json' },
  uuid: { kind: 'uuid' },
  number: { kind: 'number' },
  hyperloglog: { kind: 'sketch', sketch: 'HyperLogLog' },
  p4hyperloglog: { kind: 'sketch', sketch: 'P4HyperLogLog' },
  setdigest: { kind: 'sketch', sketch: 'SetDigest' },
  tdigest: { kind: 'sketch', sketch: 'tdigest' },
  ipaddress: { kind: 'ipaddress' },
  color: { kind: 'color' },
  variant: { kind: 'variant' },
  date: { kind: 'date' },
  'interval year to month': { kind: 'interval year to month' },
  'interval day to second': { kind: 'interval day to second' },
};

/** Types Trino knows that this engine does not implement yet. */
const KNOWN_UNSUPPORTED = new Set(['array', 'map']);

/**
 * The SqlType for `name(parameters...)`. Names are lower-cased, multi-word names joined by one space.
 * Unknown names fail with TYPE_NOT_FOUND; types Trino has but this engine lacks with NOT_SUPPORTED.
 */
export function parseTypeSpec(name: string, parameters: readonly number[], location?: SourceLocation): SqlType {
  const simple = SIMPLE_TYPES[name];
  if (simple !== undefined) {
    expectParameterCount(name, parameters, 0, location);
    return simple;
  }
  switch (name) {
    case 'decimal':
    case 'numeric':
    case 'dec':
      return parseDecimal(parameters, location);
    case 'varchar':
    case 'character varying':
      expectParameterCount(name, parameters, 1, location);
      if (parameters.length === 0) return varchar();
      if (parameters[0] < 0 || parameters[0] > MAX_VARCHAR_LENGTH) {
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid VARCHAR length ${parameters[0]}`, location);
      }
      return varchar(parameters[0]);
    case 'char':
    case 'character': {
      expectParameterCount(name, parameters, 1, location);
      const length = parameters.length === 0 ? 1 : parameters[0];
      if (length < 0 || length > MAX_CHAR_LENGTH) {
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', `CHAR length must be in range [0, ${MAX_CHAR_LENGTH}], got ${length}`, location);
      }
      return { kind: 'char', length };
    }
    case 'timestamp':
    case 'time': {
      expectParameterCount(name, parameters, 1, location);
      const precision = parameters.length === 0 ? 3 : parameters[0];
      if (precision < 0 || precision > MAX_TRINO_TIME_PRECISION) {
        const label = name.toUpperCase();
        throw new EngineError(
          'INVALID_FUNCTION_ARGUMENT',
          `${label} precision must be in range [0, ${MAX_TRINO_TIME_PRECISION}]: ${precision}`,
          location,
        );
      }
      return { kind: name, precision };
    }
    case 'timestamp with time zone':
      return parseZonedTimestampType(parameters, location);
    case 'time with time zone':
      return parseZonedTimeType(parameters, location);
  }
  if (KNOWN_UNSUPPORTED.has(name)) throw new EngineError('NOT_SUPPORTED', `Type not supported: ${name}`, location);
  throw new EngineError('TYPE_NOT_FOUND', `Unknown type: ${name}`, location);
}

function parseDecimal(parameters: readonly number[], location?: SourceLocation): SqlType {
  expectParameterCount('decimal', parameters, 2, location);
  const precision = parameters.length > 0 ? parameters[0] : MAX_DECIMAL_PRECISION;
  const scale = parameters.length > 1 ? parameters[1] : 0;
  if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `DECIMAL precision must be in range [1, ${MAX_DECIMAL_PRECISION}]: ${precision}`,
      location,
    );
  }
  if (scale < 0 || scale > precision) {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `DECIMAL scale must be in range [0, precision (${precision})]: ${scale}`, location);
  }
  return decimal(precision, scale);
}

function expectParameterCount(name: string, parameters: readonly number[], max: number, location?: SourceLocation): void {
  if (parameters.length > max) {
    throw new EngineError('TYPE_NOT_FOUND', `Unknown type: ${name}(${parameters.join(',')})`, location);
  }
}

function parseZonedTimestampType(parameters: readonly number[], location?: SourceLocation): SqlType {
  expectParameterCount('timestamp with time zone', parameters, 1, location);
  const precision = parameters.length === 0 ? 3 : parameters[0];
  if (precision < 0 || precision > MAX_TRINO_TIME_PRECISION) {
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `TIMESTAMP WITH TIME ZONE precision must be in range [0, ${MAX_TRINO_TIME_PRECISION}]: ${precision}`,
      location,
    );
  }
  return zonedTimestampType(precision, location);
}

function parseZonedTimeType(parameters: readonly number[], location?: SourceLocation): SqlType {
  expectParameterCount('time with time zone', parameters, 1, location);
  const precision = parameters.length === 0 ? 3 : parameters[0];
  if (precision < 0 || precision > MAX_TRINO_TIME_PRECISION) {
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `TIME WITH TIME ZONE precision must be in range [0, ${MAX_TRINO_TIME_PRECISION}]: ${precision}`,
      location,
    );
  }
  return zonedTimeType(precision);
}
