// Integer arithmetic (+, -, *, /, %, negation) in pushed filters, where Trino's PostgreSQL connector
// pushes it (on tinyint, smallint, integer and bigint). PostgreSQL's integer operators fail on
// overflow and division by zero as the engine's do, but not on the same rows: it evaluates a WHERE's
// conditions in an order of its own, so `b <> 0 AND a / b > 1` may fail there and not in the engine.
// So PostgreSQL computes each operation in numeric, which cannot overflow, with a zero divisor giving
// NULL, and notes where the engine's operation would fail (a result outside the type's range, a zero
// divisor). Rows where none would fail get exactly the engine's values; rows where one might are kept
// for the engine, which checks the whole condition again on the rows PostgreSQL returns (the
// condition is not enforced by the scan) and fails or not exactly as it would have.

import type { ConnectorExpression } from '../../spi/pushdown.js';
import { BIGINT_MAX, BIGINT_MIN, INTEGRAL_RANGE } from '../../functions/scalar/integer-arithmetic.js';
import type { SqlType } from '../../types/types.js';
import type { ColumnLookup } from './column-sql.js';

/** The columns a filter reads, and where arithmetic is allowed, the conditions under which the engine's arithmetic would fail. */
export interface FilterContext extends ColumnLookup {
  failures?: string[];
}

/** A value expression rendered; `numeric`: the value of integer arithmetic, computed in PostgreSQL's numeric. */
export interface Operand {
  sql: string;
  type: SqlType;
  constant: boolean;
  numeric?: boolean;
}

const BINARY: Record<string, string> = { add: '+', subtract: '-', multiply: '*' };

function integerRange(type: SqlType): { min: string; max: string } | undefined {
  if (type.kind === 'bigint') return { min: String(BIGINT_MIN), max: String(BIGINT_MAX) };
  if (type.kind === 'tinyint' || type.kind === 'smallint' || type.kind === 'integer') {
    const { min, max } = INTEGRAL_RANGE[type.kind];
    return { min: String(min), max: String(max) };
  }
  return undefined;
}

/** An arithmetic call as numeric SQL (its failure conditions added to the context), or undefined when it is not pushed. */
export function arithmeticOperand(
  e: ConnectorExpression & { kind: 'call' },
  context: FilterContext,
  operand: (e: ConnectorExpression, context: FilterContext) => Operand | undefined,
): Operand | undefined {
  const range = integerRange(e.type);
  const failures = context.failures;
  if (failures === undefined || range === undefined) return undefined;
  const unary = e.name === 'negate';
  if (e.args.length !== (unary ? 1 : 2) || (!unary && !(e.name in BINARY) && e.name !== 'divide' && e.name !== 'modulus')) return undefined;
  const args: Operand[] = [];
  for (const arg of e.args) {
    const rendered = operand(arg, context);
    if (rendered === undefined || rendered.type.kind !== e.type.kind) return undefined;
    args.push(rendered);
  }
  const [x, y] = args.map((a) => (a.numeric ? a.sql : `CAST(${a.sql} AS numeric)`));
  let value: string;
  if (unary) value = `(- ${x})`;
  else if (e.name in BINARY) value = `(${x} ${BINARY[e.name]} ${y})`;
  else {
    // div and mod truncate toward zero, as the engine's / and % do.
    value = `${e.name === 'divide' ? 'div' : 'mod'}(${x}, NULLIF(${y}, 0))`;
    failures.push(`(${y} = 0)`);
  }
  if (e.name !== 'modulus') failures.push(`(${value} < ${range.min} OR ${value} > ${range.max})`);
  return { sql: value, type: e.type, constant: args.every((a) => a.constant), numeric: true };
}

/** A conjunct with arithmetic: kept wherever the engine's arithmetic might fail, else the condition's own value. */
export function guarded(sql: string, failures: readonly string[]): string {
  return failures.length === 0 ? sql : `(CASE WHEN ${[...new Set(failures)].join(' OR ')} THEN TRUE ELSE ${sql} END)`;
}
