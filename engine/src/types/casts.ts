// CAST between SQL types, as Trino casts: which casts exist (canCast) and the function that casts
// one non-null value (castFunction). Failures are EngineErrors with Trino's names and messages;
// TRY_CAST turns them into NULL.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { checkDecimalOverflow, decimalToNumber, fitsPrecision, numberToUnscaled, powerOfTen, rescale } from './decimal.js';
import { MICROS_PER_DAY, parseDate, parseTimeOfDay, parseTimestamp, roundMicros, timestampDays, timestampMicrosOfDay } from './datetime.js';
import { formatDoubleAsText } from './number-format.js';
import { formatDoubleForCast, formatRealForCast } from './scientific-cast-format.js';
import { parseBooleanText, parseDecimalText, parseDoubleText, parseIntegerText } from './text-parsing.js';
import { type SqlType, isIntegral, isNumeric, isString, typeName, typesEqual } from './types.js';
import { codePointCount, padChar, toCharValue, trimTrailingSpaces, truncateCodePoints } from './chars.js';
import { formatValueAsText } from './values.js';
import { mapCast } from './map-cast.js';
import { addressCast, canCastAddress, isAddressType } from './address-casts.js';
import { canCastNumber, involvesNumber, numberCast } from './number/number-casts.js';
import { isSketchType, sketchCast } from './sketch/sketch-casts.js';
import { canCastZoned, zonedCast } from './zoned-casts.js';
import { isLongPlainCast, longPlainCast } from './long-plain-casts.js';
import { withoutZone } from './long-plain-temporal.js';
import { canCastZonedTime, zonedTimeCast } from './zoned-time-casts.js';
import { castFromVariant, castToVariant, castsWithVariant } from './variant/variant-casts.js';
import { canCastFromJson, canCastToJson, castFromJson, toJsonWriter } from './json/json-casts.js';
import { type RowType, canCastRow, fieldwiseCast, rowCastMismatch } from './row-type.js';

export type CastFunction = (value: never) => Scalar;
type OneCast = (value: Scalar) => Scalar;

/** The cast that returns its argument (same storage): the compiler skips calling it. */
export const IDENTITY_CAST: CastFunction = ((value: Scalar) => value) as CastFunction;

const INTEGRAL_BOUNDS = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

/** Trino's spelling of integral types in "Cannot cast 'x' to INT". */
const CAST_TARGET_NAMES = { tinyint: 'TINYINT', smallint: 'SMALLINT', integer: 'INT', bigint: 'BIGINT' } as const;

type IntegralKind = keyof typeof INTEGRAL_BOUNDS;

function invalidCast(message: string): EngineError {
  return new EngineError('INVALID_CAST_ARGUMENT', message);
}
function outOfRange(message: string): EngineError {
  return new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', message);
}

/** Whether CAST(from AS to) exists. */
export function canCast(from: SqlType, to: SqlType): boolean {
  if (from.kind === 'unknown' || typesEqual(from, to)) return true;
  if (to.kind === 'variant' || from.kind === 'variant') return castsWithVariant(to.kind === 'variant' ? from : to);
  if (involvesNumber(from, to)) return canCastNumber(from, to);
  if (to.kind === 'json' || from.kind === 'json') return to.kind === 'json' ? canCastToJson(from) : canCastFromJson(to);
  if (from.kind === 'array' || to.kind === 'array')
    return from.kind === 'array' && to.kind === 'array' && canCast(from.element, to.element);
  if (from.kind === 'map' || to.kind === 'map')
    return from.kind === 'map' && to.kind === 'map' && canCast(from.key, to.key) && canCast(from.value, to.value);
  if (from.kind === 'row' || to.kind === 'row')
    return from.kind === 'row' && to.kind === 'row' && canCastRow(from as RowType, to as RowType, canCast);
  if (isAddressType(from) || isAddressType(to)) return canCastAddress(from, to);
  if (isSketchType(from) || isSketchType(to)) return sketchCast(from, to) !== undefined;
  if (from.kind === 'color' || to.kind === 'color') return false; // Trino casts only NULL to color, a color to nothing
  // Bytes become text only through from_utf8: Trino has a cast varchar -> varbinary, none back.
  if (isString(to)) return from.kind !== 'varbinary';
  const numericLike = (t: SqlType) => isNumeric(t) || t.kind === 'boolean';
  if (numericLike(from) && numericLike(to)) return true;
  if (isString(from)) return to.kind !== 'interval year to month' && to.kind !== 'interval day to second';
  switch (from.kind) {
    case 'date':
      return to.kind === 'timestamp' || to.kind === 'timestamp with time zone';
    case 'timestamp':
      return to.kind === 'date' || to.kind === 'time' || to.kind === 'timestamp' || to.kind === 'timestamp with time zone';
    case 'timestamp with time zone':
      return canCastZoned(from, to) || to.kind === 'time with time zone';
    case 'time':
      return to.kind === 'time' || to.kind === 'time with time zone';
    case 'time with time zone':
      return canCastZonedTime(from, to);
    default:
      return from.kind === to.kind;
  }
}

/**
 * The function casting one non-null value of `from` to `to`; throws when the cast does not exist.
 * `sessionZone` is the session time zone of casts that read it (zoned-casts.ts).
 */
export function castFunction(from: SqlType, to: SqlType, sessionZone?: string): CastFunction {
  if (typesEqual(from, to)) return IDENTITY_CAST;
  if (!canCast(from, to)) throw new EngineError('TYPE_MISMATCH', rowCastMismatch(from, to));
  if (from.kind === 'unknown') return (() => null) as CastFunction;
  if (to.kind === 'variant') return castToVariant(from) as CastFunction;
  if (from.kind === 'variant') return castFromVariant(to, (f, t) => castFunction(f, t, sessionZone) as OneCast) as CastFunction;
  if (involvesNumber(from, to)) return numberCast(from, to) as CastFunction;
  if (to.kind === 'json') return toJsonWriter(from) as CastFunction;
  if (from.kind === 'json') return castFromJson(to, (f, t) => castFunction(f, t, sessionZone) as OneCast) as CastFunction;
  if (from.kind === 'array' && to.kind === 'array') return elementwiseCast(castFunction(from.element, to.element));
  if (from.kind === 'map' && to.kind === 'map')
    return mapCast(castFunction(from.key, to.key) as OneCast, castFunction(from.value, to.value) as OneCast, to) as CastFunction;
  if (from.kind === 'row' && to.kind === 'row')
    return fieldwiseCast(from.fields.map((f, i) => castFunction(f.type, to.fields[i].type) as (v: Scalar) => Scalar)) as CastFunction;
  if (isAddressType(from) || isAddressType(to)) return addressCast(from, to) as CastFunction;
  if (isSketchType(from) || isSketchType(to)) return sketchCast(from, to) as CastFunction;
  if (to.kind === 'varchar' || to.kind === 'char') return toStringCast(from, to);
  if (isLongPlainCast(from, to)) return longPlainCast(from, to, sessionZone);
  if (from.kind === 'time with time zone' || to.kind === 'time with time zone') return zonedTimeCast(from, to, sessionZone);
  if (from.kind === 'timestamp with time zone' || to.kind === 'timestamp with time zone') return zonedCast(from, to, sessionZone);
  if (isString(from)) return fromStringCast(from, to);
  if (isIntegral(to)) return toIntegralCast(from, to.kind as IntegralKind);
  switch (to.kind) {
    case 'boolean':
      return toBooleanCast(from);
    case 'double':
      return toDoubleCast(from);
    case 'real': {
      const toDouble = toDoubleCast(from) as (v: Scalar) => number;
      return ((v: Scalar) => Math.fround(toDouble(v))) as CastFunction;
    }
    case 'decimal':
      return toDecimalCast(from, to);
    default:
      return temporalCast(from, to);
  }
}

/**
 * The cast INSERT writes a value with (Trino's no-truncation cast): like castFunction, except that a
 * character value longer than a bounded varchar or char column may lose only trailing spaces; other
 * characters fail the statement instead of being cut off.
 */
export function storeAssignmentCast(from: SqlType, to: SqlType, sessionZone?: string): CastFunction {
  if (from.kind === 'array' && to.kind === 'array' && !typesEqual(from, to))
    return elementwiseCast(storeAssignmentCast(from.element, to.element, sessionZone));
  if (from.kind === 'map' && to.kind === 'map' && !typesEqual(from, to)) {
    return mapCast(
      storeAssignmentCast(from.key, to.key, sessionZone) as OneCast,
      storeAssignmentCast(from.value, to.value, sessionZone) as OneCast,
      to,
    ) as CastFunction;
  }
  if (from.kind === 'row' && to.kind === 'row' && !typesEqual(from, to))
    return fieldwiseCast(
      from.fields.map((f, i) => storeAssignmentCast(f.type, to.fields[i].type, sessionZone) as (v: Scalar) => Scalar),
    ) as CastFunction;
  const cast = castFunction(from, to, sessionZone) as (v: Scalar) => Scalar;
  if ((from.kind !== 'varchar' && from.kind !== 'char') || (to.kind !== 'varchar' && to.kind !== 'char')) return cast as CastFunction;
  const length = to.length;
  if (length === undefined || (from.length !== undefined && from.length <= length)) return cast as CastFunction;
  return ((v: string) => {
    if (codePointCount(trimTrailingSpaces(v)) > length) {
      throw invalidCast(`Cannot truncate non-space characters when casting from ${typeName(from)} to ${typeName(to)} on INSERT`);
    }
    return cast(v);
  }) as CastFunction;
}

/** An array cast: each non-null element through the element cast. */
function elementwiseCast(cast: CastFunction): CastFunction {
  const one = cast as (v: Scalar) => Scalar;
  return ((values: readonly Scalar[]) => values.map((v) => (v === null ? null : one(v)))) as CastFunction;
}

function toIntegralCast(from: SqlType, kind: IntegralKind): CastFunction {
  const [min, max] = INTEGRAL_BOUNDS[kind];
  const bigint = kind === 'bigint';
  const emit = bigint ? (v: bigint) => v : (v: bigint) => Number(v);
  const checked = (v: bigint, shown: string): Scalar => {
    if (v < min || v > max) throw outOfRange(`Out of range for ${kind}: ${shown}`);
    return emit(v);
  };
  switch (from.kind) {
    case 'boolean':
      return ((v: boolean) => (bigint ? (v ? 1n : 0n) : v ? 1 : 0)) as CastFunction;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      if (kind === 'bigint') return ((v: number) => BigInt(v)) as CastFunction;
      return ((v: number) => {
        if (v < Number(min) || v > Number(max)) throw outOfRange(`Out of range for ${kind}: ${v}`);
        return v;
      }) as CastFunction;
    case 'bigint':
      return ((v: bigint) => checked(v, String(v))) as CastFunction;
    case 'real':
    case 'double':
      return ((v: number) => {
        if (Number.isNaN(v)) throw invalidCast(`Cannot cast ${from.kind} NaN to ${kind}`);
        if (!Number.isFinite(v)) throw outOfRange(`Out of range for ${kind}: ${formatDoubleAsText(v)}`);
        const rounded = v < 0 ? -Math.round(-v) : Math.round(v); // half away from zero
        return checked(BigInt(rounded), formatDoubleAsText(v));
      }) as CastFunction;
    case 'decimal': {
      const scale = from.scale;
      return ((v: bigint) => {
        const r = rescale(v, scale, 0);
        if (r < min || r > max) throw outOfRange(`Cannot cast '${formatValueAsText(v, from)}' to ${CAST_TARGET_NAMES[kind]}`);
        return emit(r);
      }) as CastFunction;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(from)} to ${kind}`);
  }
}

function toBooleanCast(from: SqlType): CastFunction {
  if (from.kind === 'bigint' || from.kind === 'decimal') return ((v: bigint) => v !== 0n) as CastFunction;
  return ((v: number) => v !== 0) as CastFunction;
}

function toDoubleCast(from: SqlType): CastFunction {
  switch (from.kind) {
    case 'boolean':
      return ((v: boolean) => (v ? 1 : 0)) as CastFunction;
    case 'bigint':
      return ((v: bigint) => Number(v)) as CastFunction;
    case 'decimal': {
      const scale = from.scale;
      return ((v: bigint) => decimalToNumber(v, scale)) as CastFunction;
    }
    default:
      return IDENTITY_CAST; // tinyint..integer, real, double are JS numbers already
  }
}

function toDecimalCast(from: SqlType, to: SqlType & { kind: 'decimal' }): CastFunction {
  const { precision, scale } = to;
  const target = `DECIMAL(${precision}, ${scale})`;
  const fits = (unscaled: bigint, shown: () => string): bigint => {
    if (!fitsPrecision(unscaled, precision)) throw invalidCast(`Cannot cast ${shown()} to ${target}`);
    return unscaled;
  };
  const factor = powerOfTen(scale);
  switch (from.kind) {
    case 'boolean':
      return ((v: boolean) => fits(v ? factor : 0n, () => `BOOLEAN '${v}'`)) as CastFunction;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return ((v: number) => fits(BigInt(v) * factor, () => `${from.kind.toUpperCase()} '${v}'`)) as CastFunction;
    case 'bigint':
      return ((v: bigint) => fits(v * factor, () => `BIGINT '${v}'`)) as CastFunction;
    case 'real':
    case 'double':
      return ((v: number) => {
        const shown = () => `${from.kind.toUpperCase()} '${formatDoubleAsText(v)}'`;
        const unscaled = numberToUnscaled(v, scale);
        if (unscaled === undefined) throw invalidCast(`Cannot cast ${shown()} to ${target}`);
        return fits(unscaled, shown);
      }) as CastFunction;
    case 'decimal': {
      const fromScale = from.scale;
      const shownType = `DECIMAL(${from.precision}, ${from.scale})`;
      return ((v: bigint) => fits(rescale(v, fromScale, scale), () => `${shownType} '${formatValueAsText(v, from)}'`)) as CastFunction;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(from)} to ${typeName(to)}`);
  }
}

function temporalCast(from: SqlType, to: SqlType): CastFunction {
  if (from.kind === 'date' && to.kind === 'timestamp') return ((v: number) => v * MICROS_PER_DAY) as CastFunction;
  if (from.kind === 'timestamp' && to.kind === 'date') return ((v: number) => timestampDays(v)) as CastFunction;
  if (from.kind === 'timestamp' && to.kind === 'timestamp') {
    if (to.precision >= from.precision) return IDENTITY_CAST;
    return ((v: number) => roundMicros(v, to.precision)) as CastFunction;
  }
  if (from.kind === 'timestamp' && to.kind === 'time') {
    return ((v: number) => roundMicros(timestampMicrosOfDay(v), to.precision) % MICROS_PER_DAY) as CastFunction;
  }
  if (from.kind === 'time' && to.kind === 'time') {
    if (to.precision >= from.precision) return IDENTITY_CAST;
    return ((v: number) => roundMicros(v, to.precision) % MICROS_PER_DAY) as CastFunction;
  }
  throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(from)} to ${typeName(to)}`);
}

// ---------------------------------------------------------------------------------------------
// To and from text

type CharacterType = SqlType & { kind: 'varchar' | 'char' };

function toStringCast(from: SqlType, to: CharacterType): CastFunction {
  if (from.kind === 'varchar' || from.kind === 'char') return characterCast(from, to);
  const length = to.length;
  const format = castText(from);
  return ((v: Scalar) => {
    const text = format(v);
    if (length !== undefined && codePointCount(text) > length) {
      // Trino names a double or real both as displayed and as cast (Value 1200.0 (1.2E3) ...).
      const shown = from.kind === 'double' || from.kind === 'real' ? `${formatValueAsText(v, from)} (${text})` : text;
      throw invalidCast(`Value ${shown} cannot be represented as ${typeName(to)}`);
    }
    return to.kind === 'char' ? trimTrailingSpaces(text) : text;
  }) as CastFunction;
}

/** The text a value casts to: doubles and reals in scientific form (3.77E1), everything else as displayed. */
function castText(from: SqlType): (v: Scalar) => string {
  if (from.kind === 'double') return (v) => formatDoubleForCast(v as number);
  if (from.kind === 'real') return (v) => formatRealForCast(v as number);
  return (v) => formatValueAsText(v, from);
}

/**
 * Trino's casts between character types: they never fail, they truncate. A char value is stored
 * unpadded and a cast to varchar keeps it so (Trino's char -> varchar cast adds no spaces).
 */
function characterCast(from: CharacterType, to: CharacterType): CastFunction {
  const length = to.length;
  if (to.kind === 'char') {
    if (from.kind === 'char' && from.length <= to.length) return IDENTITY_CAST;
    return ((v: string) => toCharValue(v, to.length)) as CastFunction;
  }
  if (length === undefined || (from.length !== undefined && from.length <= length)) return IDENTITY_CAST;
  return ((v: string) => truncateCodePoints(v, length)) as CastFunction;
}

const utf8Encoder = new TextEncoder();

function fromStringCast(from: SqlType, to: SqlType): CastFunction {
  switch (to.kind) {
    case 'boolean':
      return ((v: string) => {
        const b = parseBooleanText(v);
        if (b === undefined) throw invalidCast(`Cannot cast '${v}' to BOOLEAN`);
        return b;
      }) as CastFunction;
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint': {
      const [min, max] = INTEGRAL_BOUNDS[to.kind];
      const name = CAST_TARGET_NAMES[to.kind];
      const bigint = to.kind === 'bigint';
      return ((v: string) => {
        const n = parseIntegerText(v);
        if (n === undefined || n < min || n > max) throw invalidCast(`Cannot cast '${v}' to ${name}`);
        return bigint ? n : Number(n);
      }) as CastFunction;
    }
    case 'real':
    case 'double': {
      const real = to.kind === 'real';
      return ((v: string) => {
        const d = parseDoubleText(v);
        if (d === undefined) throw invalidCast(`Cannot cast '${v}' to ${real ? 'REAL' : 'DOUBLE'}`);
        return real ? Math.fround(d) : d;
      }) as CastFunction;
    }
    case 'decimal': {
      const { precision, scale } = to;
      const target = `DECIMAL(${precision}, ${scale})`;
      return ((v: string) => {
        const unscaled = parseDecimalText(v, scale);
        if (unscaled === undefined) throw invalidCast(`Cannot cast VARCHAR '${v}' to ${target}. Value is not a number.`);
        if (!fitsPrecision(unscaled, precision)) throw invalidCast(`Cannot cast VARCHAR '${v}' to ${target}. Value too large.`);
        return checkDecimalOverflow(unscaled, precision);
      }) as CastFunction;
    }
    case 'date':
      return ((v: string) => {
        const days = parseDate(v);
        if (days === undefined) throw invalidCast(`Value cannot be cast to date: ${v}`);
        return days;
      }) as CastFunction;
    case 'timestamp': {
      const precision = to.precision;
      return ((v: string) => {
        const parsed = parseTimestamp(withoutZone(v));
        if (parsed === undefined) throw invalidCast(`Value cannot be cast to timestamp: ${v}`);
        return roundMicros(parsed.micros, precision);
      }) as CastFunction;
    }
    case 'time': {
      const precision = to.precision;
      return ((v: string) => {
        const parsed = parseTimeOfDay(v);
        if (parsed === undefined) throw invalidCast(`Value cannot be cast to time: ${v}`);
        return roundMicros(parsed.micros, precision) % MICROS_PER_DAY;
      }) as CastFunction;
    }
    case 'varbinary': {
      if (from.kind !== 'char') return ((v: string) => utf8Encoder.encode(v)) as CastFunction;
      const length = from.length; // the bytes of a char(n) are those of its padded text
      return ((v: string) => utf8Encoder.encode(padChar(v, length))) as CastFunction;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(from)} to ${typeName(to)}`);
  }
}
