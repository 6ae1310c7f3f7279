// Casts to and from NUMBER, as Trino has them: from the integral types, decimal, real, double,
// boolean, varchar and char; to the integral types (HALF_UP), decimal (HALF_UP), real, double and
// varchar. The messages and error names are Trino's.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../scalar.js';
import { type SqlType, isIntegral, isString } from '../types.js';
import {
  type FiniteNumber,
  type NumberValue,
  divideHalfUp,
  isFinite,
  normalize,
  numberText,
  numberValue,
  parseFinite,
  parseNumberText,
  powerOf10,
} from './number-value.js';
import { numberToReal } from './number-to-real.js';

type Cast = (value: Scalar) => Scalar;

const FROM_KINDS = new Set<SqlType['kind']>([
  'tinyint',
  'smallint',
  'integer',
  'bigint',
  'decimal',
  'real',
  'double',
  'boolean',
  'varchar',
  'char',
]);
const TO_KINDS = new Set<SqlType['kind']>(['tinyint', 'smallint', 'integer', 'bigint', 'decimal', 'real', 'double', 'varchar']);

/** Whether the cast is one of these (json's casts of number are with json's: json-casts.ts). */
export function involvesNumber(from: SqlType, to: SqlType): boolean {
  return (from.kind === 'number' || to.kind === 'number') && from.kind !== 'json' && to.kind !== 'json';
}

/** Whether CAST(from AS to) exists, one of them number. */
export function canCastNumber(from: SqlType, to: SqlType): boolean {
  if (from.kind === to.kind) return true;
  const [other, kinds] = to.kind === 'number' ? [from, FROM_KINDS] : [to, TO_KINDS];
  return kinds.has(other.kind);
}

const INTEGRAL_RANGES: Record<string, readonly [bigint, bigint]> = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** The cast of one non-null value (the cast exists: canCastNumber). */
export function numberCast(from: SqlType, to: SqlType): Cast {
  return to.kind === 'number' ? toNumber(from) : fromNumber(to);
}

function toNumber(from: SqlType): Cast {
  if (isString(from)) {
    return (v) => {
      const failure = () => new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast '${v as string}' to NUMBER`);
      const parsed = parseNumberText(v as string);
      if (parsed === undefined) throw failure();
      try {
        return numberText(parsed);
      } catch {
        throw failure(); // a scale beyond Trino's storage, which Trino's cast reports so
      }
    };
  }
  switch (from.kind) {
    case 'boolean':
      return (v) => (v === true || v === 1 ? '1' : '0');
    case 'decimal':
      return (v) => numberText({ unscaled: v as bigint, scale: from.scale });
    case 'double':
      return (v) => numberText(doubleValue(v as number, String(v)));
    case 'real':
      return (v) => numberText(doubleValue(v as number, shortestFloatText(v as number)));
    default: // the integral types
      return (v) => numberText({ unscaled: BigInt(v as number | bigint), scale: 0 });
  }
}

/** A double or real as a NUMBER: NaN and infinities as themselves, else the decimal of its shortest text (Java's valueOf). */
function doubleValue(value: number, text: string): NumberValue {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value < 0 ? '-Infinity' : '+Infinity';
  return parseFinite(text) as FiniteNumber;
}

/** The shortest decimal text that reads back as the same float (Java's Float.toString digits). */
function shortestFloatText(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  for (let digits = 1; digits < 9; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return text;
  }
  return value.toPrecision(9);
}

function fromNumber(to: SqlType): Cast {
  if (isIntegral(to)) return toIntegral(to);
  switch (to.kind) {
    case 'double':
      return (v) => Number(v as string);
    case 'real':
      return (v) => numberToReal(numberValue(v as string));
    case 'decimal':
      return toDecimal(to.precision, to.scale);
    default: {
      // varchar(n)
      const length = to.kind === 'varchar' ? to.length : undefined;
      return (v) => {
        if (length !== undefined && (v as string).length > length) {
          throw new EngineError('INVALID_CAST_ARGUMENT', `Value ${v as string} cannot be represented as varchar(${length})`);
        }
        return v;
      };
    }
  }
}

/** The value rounded HALF_UP to `scale` digits after the point. */
function atScale(value: FiniteNumber, scale: number): bigint {
  if (value.scale <= scale) return value.unscaled * powerOf10(scale - value.scale);
  return divideHalfUp(value.unscaled, powerOf10(value.scale - scale));
}

function toIntegral(to: SqlType): Cast {
  const [min, max] = INTEGRAL_RANGES[to.kind];
  const target = to.kind.toUpperCase();
  return (v) => {
    const text = v as string;
    const value = numberValue(text);
    if (value === 'NaN') throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast NUMBER 'NaN' to ${target}`);
    // Beyond 10^19 no rounding can bring it in range: refuse before building a huge bigint.
    const result = isFinite(value) && value.scale > -20 ? atScale(value, 0) : undefined;
    if (result === undefined || result < min || result > max)
      throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Cannot cast NUMBER '${text}' to ${target}`);
    return to.kind === 'bigint' ? result : Number(result);
  };
}

function toDecimal(precision: number, scale: number): Cast {
  const limit = powerOf10(precision);
  return (v) => {
    const text = v as string;
    const value = numberValue(text);
    const message = `Cannot cast NUMBER '${text}' to DECIMAL(${precision}, ${scale})`;
    if (value === 'NaN') throw new EngineError('INVALID_CAST_ARGUMENT', message);
    // A value of more integer digits than the precision cannot fit, rounded or not.
    if (!isFinite(value) || value.scale < -precision) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', message);
    const unscaled = atScale(normalize(value), scale);
    if (unscaled >= limit || unscaled <= -limit) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', message);
    return unscaled;
  };
}
