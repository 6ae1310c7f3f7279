// Implicit coercions, as Trino's TypeCoercion defines them: which type may silently become which,
// and the common super type two types meet at (for UNION, CASE branches, IN lists, comparisons).

import { type RowType, rowSuperType } from './row-type.js';
import { type SqlType, decimal, integralDecimalPrecision, mapOf, typesEqual, varchar, MAX_DECIMAL_PRECISION } from './types.js';
import { sketchSuperType } from './sketch/sketch-casts.js';

export { parseTypeSpec } from './parse-type.js';

interface Compatibility {
  /** The type both sides meet at; undefined when they do not meet. */
  superType: SqlType | undefined;
  /** Whether `from` coerces to `to` itself (the super type is `to`). */
  coercible: boolean;
}

const INCOMPATIBLE: Compatibility = { superType: undefined, coercible: false };

/** True when a value of type `from` may be used where `to` is expected, without an explicit CAST. */
export function canCoerce(from: SqlType, to: SqlType): boolean {
  return compatibility(from, to).coercible;
}

/**
 * Whether INSERT may store a value of type `from` in a column of type `to` (Trino's store assignment):
 * whenever the two types meet, which is broader than coercion (varchar(10) into char(3), bigint into
 * integer). The write casts, and fails where a value does not fit (storeAssignmentCast).
 */
export function isStoreAssignable(from: SqlType, to: SqlType): boolean {
  return compatibility(from, to).superType !== undefined;
}

/** The narrowest type both `a` and `b` coerce to, or undefined when there is none. */
export function commonSuperType(a: SqlType, b: SqlType): SqlType | undefined {
  return compatibility(a, b).superType;
}

/** The common super type of every type in `types` (undefined for none, or when two do not meet). */
export function commonSuperTypeOf(types: readonly SqlType[]): SqlType | undefined {
  if (types.length === 0) return undefined;
  let result: SqlType | undefined = types[0];
  for (let i = 1; i < types.length && result !== undefined; i++) result = commonSuperType(result, types[i]);
  return result;
}

function compatibility(from: SqlType, to: SqlType): Compatibility {
  if (typesEqual(from, to)) return { superType: to, coercible: true };
  if (from.kind === 'unknown') return { superType: to, coercible: true };
  if (to.kind === 'unknown') return { superType: from, coercible: false };

  if (from.kind === to.kind) {
    const superType = sameKindSuperType(from, to);
    return superType === undefined ? INCOMPATIBLE : { superType, coercible: typesEqual(superType, to) };
  }

  const fromCoerced = coerceTypeBase(from, to.kind);
  if (fromCoerced !== undefined) return compatibility(fromCoerced, to);

  const toCoerced = coerceTypeBase(to, from.kind);
  if (toCoerced !== undefined) {
    const c = compatibility(from, toCoerced);
    return c.superType === undefined ? INCOMPATIBLE : { superType: c.superType, coercible: false };
  }
  return INCOMPATIBLE;
}

/** Two parametric types of the same kind meet at the wider parameters. */
function sameKindSuperType(a: SqlType, b: SqlType): SqlType | undefined {
  if (a.kind === 'decimal' && b.kind === 'decimal') {
    const scale = Math.max(a.scale, b.scale);
    // Trino allows a potential loss of precision here; the operators check for overflow.
    const precision = Math.min(MAX_DECIMAL_PRECISION, Math.max(a.precision - a.scale, b.precision - b.scale) + scale);
    return decimal(precision, scale);
  }
  if (a.kind === 'varchar' && b.kind === 'varchar') {
    return a.length === undefined || b.length === undefined ? varchar() : varchar(Math.max(a.length, b.length));
  }
  if (a.kind === 'char' && b.kind === 'char') return { kind: 'char', length: Math.max(a.length, b.length) };
  if (a.kind === 'timestamp' && b.kind === 'timestamp') return { kind: 'timestamp', precision: Math.max(a.precision, b.precision) };
  if (a.kind === 'time' && b.kind === 'time') return { kind: 'time', precision: Math.max(a.precision, b.precision) };
  if (a.kind === 'timestamp with time zone' && b.kind === 'timestamp with time zone')
    return { kind: a.kind, precision: Math.max(a.precision, b.precision) };
  if (a.kind === 'time with time zone' && b.kind === 'time with time zone')
    return { kind: a.kind, precision: Math.max(a.precision, b.precision) };
  if (a.kind === 'array' && b.kind === 'array') {
    const element = commonSuperType(a.element, b.element);
    return element === undefined ? undefined : { kind: 'array', element };
  }
  if (a.kind === 'map' && b.kind === 'map') return mapSuperType(a, b);
  if (a.kind === 'row' && b.kind === 'row') return rowSuperType(a as RowType, b as RowType, commonSuperType);
  if (a.kind === 'sketch' && b.kind === 'sketch') return sketchSuperType(a, b);
  return undefined; // non-parametric kinds are equal or not at all (typesEqual handled equality)
}

/**
 * The type `source` becomes when coerced into the family `targetKind` (Trino's coerceTypeBase): the
 * hand-written rules every other coercion derives from. Undefined when there is no such coercion.
 */
export function coerceTypeBase(source: SqlType, targetKind: SqlType['kind']): SqlType | undefined {
  if (source.kind === targetKind) return source;
  switch (source.kind) {
    case 'unknown':
      switch (targetKind) {
        case 'varchar':
          return varchar(0);
        case 'char':
          return { kind: 'char', length: 0 };
        case 'decimal':
          return decimal(1, 0);
        case 'timestamp':
          return { kind: 'timestamp', precision: 3 };
        case 'time':
          return { kind: 'time', precision: 3 };
        case 'timestamp with time zone':
        case 'time with time zone':
          return { kind: targetKind, precision: 3 };
        default:
          return { kind: targetKind } as SqlType;
      }
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return coerceIntegral(source, targetKind);
    case 'decimal':
      return targetKind === 'real' || targetKind === 'double' || targetKind === 'number' ? { kind: targetKind } : undefined;
    case 'real':
      return targetKind === 'double' ? { kind: 'double' } : undefined;
    case 'date':
      if (targetKind === 'timestamp with time zone') return { kind: targetKind, precision: 0 };
      return targetKind === 'timestamp' ? { kind: 'timestamp', precision: 0 } : undefined;
    // In the session zone (implicit-zone-casts.ts), as Trino coerces.
    case 'timestamp':
      return targetKind === 'timestamp with time zone' ? { kind: targetKind, precision: source.precision } : undefined;
    case 'time':
      return targetKind === 'time with time zone' ? { kind: targetKind, precision: source.precision } : undefined;
    case 'char':
      return targetKind === 'varchar' ? varchar(source.length) : undefined;
    default:
      return undefined;
  }
}

const INTEGRAL_ORDER: readonly SqlType['kind'][] = ['tinyint', 'smallint', 'integer', 'bigint'];

function coerceIntegral(source: SqlType, targetKind: SqlType['kind']): SqlType | undefined {
  if (targetKind === 'real' || targetKind === 'double' || targetKind === 'number') return { kind: targetKind };
  if (targetKind === 'decimal') return decimal(integralDecimalPrecision(source), 0);
  const from = INTEGRAL_ORDER.indexOf(source.kind);
  const to = INTEGRAL_ORDER.indexOf(targetKind);
  return to > from ? ({ kind: targetKind } as SqlType) : undefined;
}

function mapSuperType(a: SqlType & { kind: 'map' }, b: SqlType & { kind: 'map' }): SqlType | undefined {
  const key = commonSuperType(a.key, b.key);
  const value = commonSuperType(a.value, b.value);
  return key === undefined || value === undefined ? undefined : mapOf(key, value);
}
