// CAST to and from VARIANT, as Trino's VariantOperators and VariantUtil cast: a SQL value becomes the
// variant of its own type (bigint -> int64, real -> float, containers element by element); a variant
// becomes a SQL type through the SQL type of what it holds and Trino's ordinary cast from that type,
// except that a decimal converts to an integer only exactly (dates and times: variant-temporal.ts). A
// variant null casts to SQL NULL (to JSON: to JSON null).

import type { CastLookup } from '../json/json-casts.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../scalar.js';
import { MapValue } from '../map-value.js';
import { formatDecimal, parseDecimal, rescale, fitsPrecision } from '../decimal.js';
import { formatDoubleAsText, formatRealAsText } from '../number-format.js';
import {
  type SqlType,
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  REAL,
  SMALLINT,
  TINYINT,
  UUID,
  VARBINARY,
  VARCHAR,
  decimal,
  isIntegral,
  typeName,
} from '../types.js';
import { decodeVariant, encodeVariant } from './variant-encoding.js';
import { variantFromJson, variantScalarText, variantToJson } from './variant-json.js';
import { VARIANT_NULL, decimalVariant, integerVariant, type VariantValue } from './variant-value.js';
import { temporalFromVariant, temporalToVariant } from './variant-temporal.js';
import { hasZone } from '../zoned-timestamp.js';

/** A cast of one non-null value between two SQL types (casts.ts castFunction). */

const SCALARS = new Set([
  'unknown',
  'boolean',
  'tinyint',
  'smallint',
  'integer',
  'bigint',
  'real',
  'double',
  'decimal',
  'varchar',
  'varbinary',
  'variant',
  'timestamp',
  'timestamp with time zone',
  'date',
  'time',
  'uuid',
  'json',
]);

/** Whether CAST(type AS VARIANT) and CAST(variant AS type) exist (Trino: the same types both ways). */
export function castsWithVariant(type: SqlType): boolean {
  if (type.kind === 'array') return castsWithVariant(type.element);
  if (type.kind === 'map') return type.key.kind === 'varchar' && castsWithVariant(type.value);
  if (type.kind === 'row') return type.fields.every((f) => castsWithVariant(f.type));
  return SCALARS.has(type.kind);
}

const INTEGRAL_BOUNDS: Record<string, readonly [bigint, bigint]> = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
};

function invalidCast(message: string): EngineError {
  return new EngineError('INVALID_CAST_ARGUMENT', message);
}

/** CAST(value AS VARIANT) of a non-null value of `type`, as bytes a column holds. */
export function castToVariant(type: SqlType): (value: Scalar) => Scalar {
  const toValue = toVariantValue(type);
  return (value) => encodeVariant(toValue(value));
}

/** CAST(variant AS type) of a non-null variant (NULL for a variant null, except to json). */
export function castFromVariant(type: SqlType, cast: CastLookup): (value: Scalar) => Scalar {
  if (type.kind === 'json') return (value) => variantToJson(decodeVariant(value as Uint8Array));
  const fromValue = fromVariantValue(type, cast);
  return (value) => fromValue(decodeVariant(value as Uint8Array));
}

function toVariantValue(type: SqlType): (value: Scalar) => VariantValue {
  const orNull = (convert: (value: Scalar) => VariantValue) => (value: Scalar) => (value === null ? VARIANT_NULL : convert(value));
  switch (type.kind) {
    case 'unknown':
      return () => VARIANT_NULL;
    case 'boolean':
      return (v) => ({ kind: 'boolean', value: v as boolean });
    case 'tinyint':
      return (v) => integerVariant(BigInt(v as number), 'int8');
    case 'smallint':
      return (v) => integerVariant(BigInt(v as number), 'int16');
    case 'integer':
      return (v) => integerVariant(BigInt(v as number), 'int32');
    case 'bigint':
      return (v) => integerVariant(v as bigint, 'int64');
    case 'real':
      return (v) => ({ kind: 'float', value: v as number });
    case 'double':
      return (v) => ({ kind: 'double', value: v as number });
    case 'decimal':
      return (v) => decimalVariant(v as bigint, type.scale);
    case 'varchar':
      return (v) => ({ kind: 'string', value: v as string });
    case 'varbinary':
      return (v) => ({ kind: 'binary', value: v as Uint8Array });
    case 'date':
      return (v) => ({ kind: 'date', days: v as number });
    case 'uuid':
      return (v) => ({ kind: 'uuid', hex: (v as string).replace(/-/g, '') });
    case 'json':
      return (v) => variantFromJson(v as string);
    case 'variant':
      return (v) => decodeVariant(v as Uint8Array);
    case 'array': {
      const element = orNull(toVariantValue(type.element));
      return (v) => ({ kind: 'array', elements: (v as readonly Scalar[]).map(element) });
    }
    case 'map': {
      const value = orNull(toVariantValue(type.value));
      return (v) => {
        const map = v as MapValue;
        return { kind: 'object', fields: new Map(map.keys.map((k, i) => [k as string, value(map.values[i])])) };
      };
    }
    case 'row': {
      if (type.fields.some((f) => f.name === undefined))
        return () => {
          throw invalidCast('Cannot cast ROW with anonymous fields to VARIANT');
        };
      const fields = type.fields.map((f) => ({ name: f.name!, convert: orNull(toVariantValue(f.type)) }));
      return (v) => ({ kind: 'object', fields: new Map(fields.map((f, i) => [f.name, f.convert((v as readonly Scalar[])[i])])) });
    }
    default: {
      const temporal = temporalToVariant(type);
      if (temporal === undefined) throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(type)} to variant`);
      return temporal;
    }
  }
}

function fromVariantValue(type: SqlType, cast: CastLookup): (value: VariantValue) => Scalar {
  switch (type.kind) {
    case 'variant':
      return (v) => encodeVariant(v);
    case 'json':
      return (v) => (v.kind === 'null' ? null : variantToJson(v));
    case 'array': {
      const element = fromVariantValue(type.element, cast);
      return (v) => {
        if (v.kind === 'null') return null;
        if (v.kind !== 'array') throw invalidCast(`Expected a variant array, but got ${basicTypeName(v)}`);
        return v.elements.map(element);
      };
    }
    case 'map': {
      const value = fromVariantValue(type.value, cast);
      return (v) => {
        if (v.kind === 'null') return null;
        if (v.kind !== 'object') throw invalidCast(`Expected a variant object, but got ${basicTypeName(v)}`);
        return new MapValue([...v.fields.keys()], [...v.fields.values()].map(value));
      };
    }
    case 'row': {
      const fields = type.fields.map((f) => ({ name: f.name?.toLowerCase(), convert: fromVariantValue(f.type, cast) }));
      return (v) => {
        if (v.kind === 'null') return null;
        if (v.kind !== 'object') throw invalidCast(`Expected an object, but got ${basicTypeName(v)}`);
        if (fields.some((f) => f.name === undefined))
          throw invalidCast('Cannot cast VARIANT object to anonymous row type. Row fields must have names.');
        const byName = new Map([...v.fields].map(([name, value]) => [name.toLowerCase(), value]));
        return fields.map((f) => {
          const value = byName.get(f.name!);
          return value === undefined ? null : f.convert(value);
        });
      };
    }
    default:
      return (v) => (v.kind === 'null' ? null : scalarFromVariant(v, type, cast));
  }
}

function scalarFromVariant(v: VariantValue, to: SqlType, cast: CastLookup): Scalar {
  if (v.kind === 'decimal4' || v.kind === 'decimal8' || v.kind === 'decimal16') {
    if (isIntegral(to)) {
      const [low, high] = INTEGRAL_BOUNDS[to.kind];
      const integral = v.unscaled % 10n ** BigInt(v.scale) === 0n ? v.unscaled / 10n ** BigInt(v.scale) : undefined;
      if (integral === undefined || integral < low || integral > high)
        throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Out of range for ${to.kind}: ${formatDecimal(v.unscaled, v.scale)}`);
      return to.kind === 'bigint' ? integral : Number(integral);
    }
    if (to.kind === 'boolean') return v.unscaled !== 0n;
  }
  if (to.kind === 'decimal') return toDecimal(v, to);
  const temporal = temporalFromVariant(v, to);
  if (temporal !== undefined) return temporal;
  // A zoned target reads text without a zone as UTC (not the session's zone).
  if (v.kind === 'string' && to.kind === 'timestamp with time zone' && !hasZone(v.value)) return cast(VARCHAR, to)(`${v.value} UTC`);
  const natural = naturalValue(v);
  if (natural === undefined) {
    const text = to.kind === 'varchar' ? variantScalarText(v) : undefined;
    if (text !== undefined) return text;
    if (v.kind === 'array' || v.kind === 'object')
      throw invalidCast(`Unsupported VARIANT type for cast to ${typeName(to).toUpperCase()}: ${basicTypeName(v)}`);
    throw invalidCast(`Unsupported VARIANT primitive type for cast to ${typeName(to).toUpperCase()}: ${v.kind.toUpperCase()}`);
  }
  if (natural.type.kind === to.kind && typeName(natural.type) === typeName(to)) return natural.value;
  try {
    return cast(natural.type, to)(natural.value);
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'TYPE_MISMATCH') {
      throw invalidCast(`Unsupported VARIANT primitive type for cast to ${typeName(to).toUpperCase()}: ${v.kind.toUpperCase()}`);
    }
    throw e;
  }
}

/** The SQL type and value a variant scalar holds, where the engine has that type's storage. */
function naturalValue(v: VariantValue): { type: SqlType; value: Scalar } | undefined {
  switch (v.kind) {
    case 'boolean':
      return { type: BOOLEAN, value: v.value };
    case 'int8':
      return { type: TINYINT, value: Number(v.value) };
    case 'int16':
      return { type: SMALLINT, value: Number(v.value) };
    case 'int32':
      return { type: INTEGER, value: Number(v.value) };
    case 'int64':
      return { type: BIGINT, value: v.value };
    case 'float':
      return { type: REAL, value: v.value };
    case 'double':
      return { type: DOUBLE, value: v.value };
    case 'decimal4':
    case 'decimal8':
    case 'decimal16':
      return { type: decimal(38, v.scale), value: v.unscaled };
    case 'string':
      return { type: VARCHAR, value: v.value };
    case 'binary':
      return { type: VARBINARY, value: v.value };
    case 'date':
      return { type: DATE, value: v.days };
    case 'uuid':
      return { type: UUID, value: variantScalarText(v)! };
    default:
      return undefined;
  }
}

/** Trino's decimal cast of a variant: the exact value (a float as Java prints it) rounded half up to the scale, within the precision. */
function toDecimal(v: VariantValue, to: SqlType & { kind: 'decimal' }): Scalar {
  const refused = () => invalidCast(`Cannot cast input variant to DECIMAL(${to.precision},${to.scale})`);
  let text: string;
  switch (v.kind) {
    case 'boolean':
      text = v.value ? '1' : '0';
      break;
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
      text = String(v.value);
      break;
    case 'decimal4':
    case 'decimal8':
    case 'decimal16':
      text = formatDecimal(v.unscaled, v.scale);
      break;
    case 'float':
      text = formatRealAsText(v.value);
      break;
    case 'double':
      text = formatDoubleAsText(v.value);
      break;
    case 'string':
      text = v.value;
      break;
    default:
      throw invalidCast(
        `Unsupported VARIANT ${v.kind === 'array' || v.kind === 'object' ? 'type' : 'primitive type'} for cast to DECIMAL(${to.precision},${to.scale}): ${v.kind.toUpperCase()}`,
      );
  }
  const parsed = parseScientific(text.trim());
  if (parsed === undefined) throw refused();
  const unscaled = rescale(parsed.unscaled, parsed.scale, to.scale);
  if (!fitsPrecision(unscaled, to.precision)) throw refused();
  return unscaled;
}

/** Decimal text with an optional exponent (Java's 1.0E10), as an unscaled value and a scale of at least 0. */
function parseScientific(text: string): { unscaled: bigint; scale: number } | undefined {
  const match = /^(.*?)(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const mantissa = parseDecimal(match[1]);
  if (mantissa === undefined) return undefined;
  const scale = mantissa.scale - Number(match[2] ?? 0);
  return scale >= 0 ? { unscaled: mantissa.unscaled, scale } : { unscaled: mantissa.unscaled * 10n ** BigInt(-scale), scale: 0 };
}

/** Trino's name of a value's basic type (PRIMITIVE kinds by their primitive type) in cast messages. */
function basicTypeName(v: VariantValue): string {
  if (v.kind === 'array' || v.kind === 'object') return v.kind.toUpperCase();
  return v.kind === 'string' ? 'SHORT_STRING' : 'PRIMITIVE';
}
