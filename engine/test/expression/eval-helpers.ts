// Builds RowExpressions the way the analyzer does (resolving through the registry and inserting
// coercion casts) and evaluates them through the compiler on real pages.

import { compileExpression, evaluateConstant } from '../../src/exec/expression/compiler.js';
import { columnFromScalars, getScalar } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { type OperatorName, resolveOperator, resolveScalarFunction } from '../../src/functions/scalar/registry.js';
import type { RowExpression } from '../../src/sql/planner/row-expression.js';
import { type SqlType, typesEqual } from '../../src/types/types.js';

export const INT: SqlType = { kind: 'integer' };
export const BIG: SqlType = { kind: 'bigint' };
export const DBL: SqlType = { kind: 'double' };
export const REALT: SqlType = { kind: 'real' };
export const BOOL: SqlType = { kind: 'boolean' };
export const VC: SqlType = { kind: 'varchar' };
export const DATE_T: SqlType = { kind: 'date' };
export const TS3: SqlType = { kind: 'timestamp', precision: 3 };
export const dec = (precision: number, scale: number): SqlType => ({ kind: 'decimal', precision, scale });
export const vc = (length: number): SqlType => ({ kind: 'varchar', length });

export const lit = (value: Scalar, type: SqlType): RowExpression => ({ kind: 'constant', value, type });
export const input = (channel: number, type: SqlType): RowExpression => ({ kind: 'input', channel, type });
export const cast = (arg: RowExpression, type: SqlType, safe = false): RowExpression => ({ kind: 'cast', arg, type, safe });
export const special = (
  form: Extract<RowExpression, { kind: 'special' }>['form'],
  type: SqlType,
  ...args: RowExpression[]
): RowExpression => ({
  kind: 'special',
  form,
  type,
  args,
});

function coerced(arg: RowExpression, to: SqlType): RowExpression {
  return typesEqual(arg.type, to) ? arg : cast(arg, to);
}

/** A resolved function call with coercion casts, as the analyzer builds it. */
export function fn(name: string, ...args: RowExpression[]): RowExpression {
  const s = resolveScalarFunction(
    name,
    args.map((a) => a.type),
  );
  return { kind: 'call', name: s.name, type: s.returnType, args: args.map((a, i) => coerced(a, s.argumentTypes[i])) };
}

export function op(name: OperatorName, ...args: RowExpression[]): RowExpression {
  const s = resolveOperator(
    name,
    args.map((a) => a.type),
  );
  return { kind: 'call', name: s.name, type: s.returnType, args: args.map((a, i) => coerced(a, s.argumentTypes[i])) };
}

/** Evaluates `expr` on a page whose columns hold the given rows, returning the column's scalars. */
export function evalRows(expr: RowExpression, types: readonly SqlType[], rows: ReadonlyArray<readonly Scalar[]>): Scalar[] {
  const columns = types.map((t, c) =>
    columnFromScalars(
      t,
      rows.map((r) => r[c]),
    ),
  );
  const out = compileExpression(expr, types)({ rowCount: rows.length, columns });
  return Array.from({ length: out.length }, (_, i) => getScalar(out, i));
}

/**
 * Evaluates a function of literal arguments twice, as constants and as page inputs (the NULL-capable
 * path), checks both agree, and returns the value.
 */
export function evalFn(name: string, ...args: Array<[Scalar, SqlType]>): Scalar {
  const constant = evaluateConstant(fn(name, ...args.map(([v, t]) => lit(v, t))));
  const types = args.map(([, t]) => t);
  // one row with the values, one all-NULL row so that columns carry null masks
  const rows = [args.map(([v]) => v), args.map(() => null)];
  const [fromPage] = evalRows(fn(name, ...types.map((t, c) => input(c, t))), types, rows);
  if (!sameScalar(constant, fromPage)) throw new Error(`constant path gave ${String(constant)}, page path ${String(fromPage)}`);
  return constant;
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return Object.is(a, b) || a === b;
}

/** Runs `f` and returns the EngineError it throws as "NAME: message". */
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    const err = e as { errorName?: string; message: string };
    return `${err.errorName}: ${err.message}`;
  }
  throw new Error('expected an error');
}
