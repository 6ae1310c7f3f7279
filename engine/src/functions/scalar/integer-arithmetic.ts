// Checked arithmetic on the integral types: overflow is NUMERIC_VALUE_OUT_OF_RANGE with Trino's
// wording ("integer addition overflow: 2147483647 + 1"), division by zero is DIVISION_BY_ZERO.
// tinyint, smallint and integer values are JS numbers; bigint values are JS bigints.

import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';

export type IntegralKind = 'tinyint' | 'smallint' | 'integer' | 'bigint';

export const INTEGRAL_RANGE: Record<Exclude<IntegralKind, 'bigint'>, { min: number; max: number }> = {
  tinyint: { min: -128, max: 127 },
  smallint: { min: -32768, max: 32767 },
  integer: { min: -2147483648, max: 2147483647 },
};
export const BIGINT_MIN = -(2n ** 63n);
export const BIGINT_MAX = 2n ** 63n - 1n;

export function overflow(kind: string, operation: string, text: string): EngineError {
  return new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `${kind} ${operation} overflow: ${text}`);
}

export function divisionByZero(): EngineError {
  return new EngineError('DIVISION_BY_ZERO', 'Division by zero');
}

type NumberOp = (a: number, b: number) => number;
type BigintOp = (a: bigint, b: bigint) => bigint;

export interface IntegralOperations<T> {
  add: (a: T, b: T) => T;
  subtract: (a: T, b: T) => T;
  multiply: (a: T, b: T) => T;
  divide: (a: T, b: T) => T;
  modulus: (a: T, b: T) => T;
  negate: (a: T) => T;
}

/** Checked operations for a number-valued integral type. */
export function smallIntegralOperations(kind: Exclude<IntegralKind, 'bigint'>): IntegralOperations<number> {
  const { min, max } = INTEGRAL_RANGE[kind];
  const checked =
    (operation: string, symbol: string, op: NumberOp): NumberOp =>
    (a, b) => {
      const r = op(a, b);
      if (r > max || r < min) throw overflow(kind, operation, `${a} ${symbol} ${b}`);
      return r;
    };
  return {
    add: checked('addition', '+', (a, b) => a + b),
    subtract: checked('subtraction', '-', (a, b) => a - b),
    // A product beyond 2^53 is inexact but still out of range, and an in-range product is exact.
    multiply: checked('multiplication', '*', (a, b) => a * b),
    divide: (a, b) => {
      if (b === 0) throw divisionByZero();
      const r = Math.trunc(a / b);
      if (r > max) throw overflow(kind, 'division', `${a} / ${b}`);
      return r;
    },
    modulus: (a, b) => {
      if (b === 0) throw divisionByZero();
      return (a % b) + 0; // + 0 turns -0 into 0
    },
    negate: (a) => {
      if (a === min) throw overflow(kind, 'negation', `${a}`);
      return -a;
    },
  };
}

export const BIGINT_OPERATIONS: IntegralOperations<bigint> = (() => {
  const checked =
    (operation: string, symbol: string, op: BigintOp): BigintOp =>
    (a, b) => {
      const r = op(a, b);
      if (r > BIGINT_MAX || r < BIGINT_MIN) throw overflow('bigint', operation, `${a} ${symbol} ${b}`);
      return r;
    };
  return {
    add: checked('addition', '+', (a, b) => a + b),
    subtract: checked('subtraction', '-', (a, b) => a - b),
    multiply: checked('multiplication', '*', (a, b) => a * b),
    divide: checked('division', '/', (a, b) => {
      if (b === 0n) throw divisionByZero();
      return a / b;
    }),
    modulus: (a, b) => {
      if (b === 0n) throw divisionByZero();
      return a % b;
    },
    negate: (a) => {
      if (a === BIGINT_MIN) throw overflow('bigint', 'negation', `${a}`);
      return -a;
    },
  };
})();

export function isSmallIntegral(t: SqlType): t is { kind: Exclude<IntegralKind, 'bigint'> } {
  return t.kind === 'tinyint' || t.kind === 'smallint' || t.kind === 'integer';
}
