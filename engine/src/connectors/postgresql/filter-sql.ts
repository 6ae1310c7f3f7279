// Filters as PostgreSQL SQL, for exactly the conjuncts PostgreSQL evaluates as the engine does, and
// nothing else (undefined: not pushed, the engine filters). What differs and how it is handled:
// - text compares and matches with the column's collation there: every comparison, IN, BETWEEN and
//   LIKE of text is made under COLLATE "C", which in a UTF8 database orders by code point, as the
//   engine does; a database in another encoding gets only equality and LIKE pushed.
// - real and double: PostgreSQL's NaN equals NaN and is above every number; the engine's (IEEE)
//   compares false. Only comparisons with a non-NaN constant are pushed, with `x <> 'NaN'` added
//   where PostgreSQL's answer would differ (>, >=, BETWEEN).
// - char(n) compares padded in both, but coerces differently: not pushed (only IS NULL).
// - LIKE escapes with a backslash by default in PostgreSQL, not in the engine: ESCAPE is always given.
// - casts: only those that cannot fail and are exact on both sides (widening integers, decimals,
//   real to double, date to timestamp).
// - integer arithmetic (arithmetic-sql.ts) fails on other rows there than in the engine: computed in
//   numeric, in a condition the engine checks again (pushedFilterSql), never in an exact one (filterSql).

import type { ConnectorExpression } from '../../spi/pushdown.js';
import type { SqlType } from '../../types/types.js';
import { literal, postgresTypeName, quoteString } from './sql-text.js';
import { columnReference, type ColumnLookup } from './column-sql.js';
import { arithmeticOperand, guarded, type FilterContext, type Operand } from './arithmetic-sql.js';

const COMPARISONS: Record<string, string> = {
  equal: '=',
  not_equal: '<>',
  less_than: '<',
  less_than_or_equal: '<=',
  greater_than: '>',
  greater_than_or_equal: '>=',
  is_distinct_from: 'IS DISTINCT FROM',
};
const FLIPPED: Record<string, string> = {
  equal: 'equal',
  not_equal: 'not_equal',
  is_distinct_from: 'is_distinct_from',
  less_than: 'greater_than',
  less_than_or_equal: 'greater_than_or_equal',
  greater_than: 'less_than',
  greater_than_or_equal: 'less_than_or_equal',
};
const EQUALITIES = new Set(['equal', 'not_equal']);

/** A predicate as PostgreSQL SQL, or undefined when any part of it is not certain to agree. */
export function filterSql(e: ConnectorExpression, columns: ColumnLookup): string | undefined {
  return predicate(e, { columns: columns.columns, orderedText: columns.orderedText });
}

/**
 * A conjunct as a condition of a scan's WHERE: `exact` when PostgreSQL gives exactly the engine's
 * answer; otherwise (integer arithmetic) true at least wherever the engine's is true or fails, for
 * the engine to check again.
 */
export function pushedFilterSql(e: ConnectorExpression, columns: ColumnLookup): { sql: string; exact: boolean } | undefined {
  const failures: string[] = [];
  const sql = predicate(e, { columns: columns.columns, orderedText: columns.orderedText, failures });
  return sql === undefined ? undefined : { sql: guarded(sql, failures), exact: failures.length === 0 };
}

function predicate(e: ConnectorExpression, columns: FilterContext): string | undefined {
  switch (e.kind) {
    case 'column':
      return e.type.kind === 'boolean' ? columnReference(e.name, columns, 'value') : undefined;
    case 'constant':
      return e.type.kind === 'boolean' || e.type.kind === 'unknown' ? (e.value === null ? 'NULL' : literal(e.value, e.type)) : undefined;
    case 'call':
      return e.name in COMPARISONS && e.args.length === 2 ? comparison(e.name, e.args[0], e.args[1], columns) : undefined;
    case 'special':
      return specialForm(e.form, e.args, columns);
    case 'cast':
      return undefined;
  }
}

function specialForm(form: string, args: ConnectorExpression[], columns: FilterContext): string | undefined {
  switch (form) {
    case 'and':
    case 'or': {
      const parts = args.map((a) => predicate(a, columns));
      return parts.every((p) => p !== undefined) ? `(${parts.join(form === 'and' ? ' AND ' : ' OR ')})` : undefined;
    }
    case 'not': {
      const inner = predicate(args[0], columns);
      return inner && `(NOT ${inner})`;
    }
    case 'is_null': {
      // Nullness survives any reading of the column, text or not.
      const arg = args[0];
      const sql = arg.kind === 'column' ? columnReference(arg.name, columns, 'any') : operand(arg, columns)?.sql;
      return sql && `(${sql} IS NULL)`;
    }
    case 'in':
      return inList(args, columns);
    case 'between': {
      const [value, low, high] = args;
      const lower = comparison('greater_than_or_equal', value, low, columns);
      const upper = comparison('less_than_or_equal', value, high, columns);
      return lower && upper && `(${lower} AND ${upper})`;
    }
    case 'like':
      return like(args, columns);
    default:
      return undefined;
  }
}

function comparison(name: string, left: ConnectorExpression, right: ConnectorExpression, columns: FilterContext): string | undefined {
  let a = operand(left, columns);
  let b = operand(right, columns);
  if (a === undefined || b === undefined || !sameType(a.type, b.type)) return undefined;
  let op = name;
  if (a.constant && !b.constant && op in FLIPPED) {
    [a, b] = [b, a];
    op = FLIPPED[op];
  }
  const type = a.type;
  switch (type.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'boolean':
    case 'date':
    case 'time':
    case 'timestamp':
    case 'uuid': // PostgreSQL orders uuids by their bytes, as Trino does
      return `(${a.sql} ${COMPARISONS[op]} ${b.sql})`;
    case 'varchar':
      if (!EQUALITIES.has(op) && op !== 'is_distinct_from' && !columns.orderedText) return undefined;
      return `(${a.sql} COLLATE "C" ${COMPARISONS[op]} ${b.sql})`;
    case 'varbinary':
      return EQUALITIES.has(op) ? `(${a.sql} ${COMPARISONS[op]} ${b.sql})` : undefined;
    case 'real':
    case 'double': {
      // A non-constant against a constant (never NaN: it has no literal) only, see the file's comment.
      if (a.constant || !b.constant || op === 'is_distinct_from') return undefined;
      const compared = `(${a.sql} ${COMPARISONS[op]} ${b.sql})`;
      return op === 'greater_than' || op === 'greater_than_or_equal'
        ? `(${compared} AND ${a.sql} <> CAST('NaN' AS ${postgresTypeName(type)}))`
        : compared;
    }
    default:
      return undefined;
  }
}

function inList(args: ConnectorExpression[], columns: FilterContext): string | undefined {
  const [value, ...items] = args;
  const v = operand(value, columns);
  if (v === undefined || v.constant || items.length === 0) return undefined;
  const rendered: string[] = [];
  for (const item of items) {
    const i = operand(item, columns);
    if (i === undefined || !i.constant || !sameType(i.type, v.type)) return undefined;
    rendered.push(i.sql);
  }
  // Membership is equality: what `=` takes, IN takes.
  if (comparison('equal', value, items[0], columns) === undefined) return undefined;
  const collate = v.type.kind === 'varchar' ? ' COLLATE "C"' : '';
  return `(${v.sql}${collate} IN (${rendered.join(', ')}))`;
}

function like(args: ConnectorExpression[], columns: FilterContext): string | undefined {
  const [value, pattern, escape] = args;
  const v = operand(value, columns);
  if (v === undefined || v.constant || v.type.kind !== 'varchar') return undefined;
  if (pattern.kind !== 'constant' || typeof pattern.value !== 'string' || pattern.value.includes('\u0000')) return undefined;
  let escapeChar = '';
  if (escape !== undefined) {
    if (escape.kind !== 'constant' || typeof escape.value !== 'string' || [...escape.value].length !== 1) return undefined;
    escapeChar = escape.value;
    // A pattern the engine refuses (an escape before anything but %, _ or itself) is left for it to refuse.
    if (!validEscapes(pattern.value, escapeChar)) return undefined;
  }
  return `(${v.sql} COLLATE "C" LIKE ${quoteString(pattern.value)} ESCAPE ${quoteString(escapeChar)})`;
}

function validEscapes(pattern: string, escape: string): boolean {
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== escape) continue;
    const next = chars[i + 1];
    if (next !== '%' && next !== '_' && next !== escape) return false;
    i++;
  }
  return true;
}

/** A column, a constant, integer arithmetic (where allowed), COALESCE, NULLIF, or an exact cast of one, as SQL. */
function operand(e: ConnectorExpression, columns: FilterContext): Operand | undefined {
  switch (e.kind) {
    case 'column': {
      const sql = columnReference(e.name, columns, 'value');
      return sql === undefined ? undefined : { sql, type: e.type, constant: false };
    }
    case 'constant': {
      // NaN has no literal: PostgreSQL's NaN is not the engine's.
      const sql = literal(e.value, e.type);
      return sql === undefined ? undefined : { sql, type: e.type, constant: true };
    }
    case 'cast': {
      const inner = operand(e.arg, columns);
      if (inner === undefined || !exactCast(inner.type, e.type)) return undefined;
      // Arithmetic is a numeric of the integer's value: widened to a wider integer as it is, nothing else.
      if (inner.numeric) return INTEGER_RANK[e.type.kind] === undefined ? undefined : { ...inner, type: e.type };
      // A wider varchar is the same text: no cast (it would drop the column's collation for nothing).
      if (e.type.kind === 'varchar') return { ...inner, type: e.type };
      return { ...inner, sql: `CAST(${inner.sql} AS ${postgresTypeName(e.type)})`, type: e.type };
    }
    case 'call':
      return arithmeticOperand(e, columns, operand);
    case 'special':
      return conditionalOperand(e, columns);
    default:
      return undefined;
  }
}

/** Types whose `=` PostgreSQL evaluates as the engine does (not floating point: NaN equals NaN there; not text, whose collation may not be deterministic). */
const NULLIF_TYPES = new Set<SqlType['kind']>(['tinyint', 'smallint', 'integer', 'bigint', 'decimal', 'boolean', 'date', 'timestamp']);

/** COALESCE and NULLIF (as Trino's PostgreSQL connector pushes them) of operands of the result's type. */
function conditionalOperand(e: ConnectorExpression & { kind: 'special' }, columns: FilterContext): Operand | undefined {
  if (e.form !== 'coalesce' && !(e.form === 'nullif' && NULLIF_TYPES.has(e.type.kind))) return undefined;
  const args: Operand[] = [];
  for (const arg of e.args) {
    const rendered = operand(arg, columns);
    if (rendered === undefined || !sameType(rendered.type, e.type)) return undefined;
    args.push(rendered);
  }
  return {
    sql: `${e.form === 'coalesce' ? 'COALESCE' : 'NULLIF'}(${args.map((a) => a.sql).join(', ')})`,
    type: e.type,
    constant: args.every((a) => a.constant),
    numeric: args.some((a) => a.numeric),
  };
}

const INTEGER_DIGITS: Partial<Record<SqlType['kind'], number>> = { tinyint: 3, smallint: 5, integer: 10, bigint: 19 };
const INTEGER_RANK: Partial<Record<SqlType['kind'], number>> = { tinyint: 0, smallint: 1, integer: 2, bigint: 3 };

/** Whether CAST(from AS to) cannot fail and gives the same value in PostgreSQL as in the engine. */
function exactCast(from: SqlType, to: SqlType): boolean {
  const fromDigits = INTEGER_DIGITS[from.kind];
  if (fromDigits !== undefined) {
    if (INTEGER_RANK[to.kind] !== undefined) return INTEGER_RANK[to.kind]! >= INTEGER_RANK[from.kind]!;
    if (to.kind === 'decimal') return to.precision - to.scale >= fromDigits;
    // int8 to float8 rounds to nearest-even in both; int8 to float4 would round twice in the engine.
    return to.kind === 'double' || (to.kind === 'real' && from.kind !== 'bigint');
  }
  if (from.kind === 'real') return to.kind === 'double';
  if (from.kind === 'decimal' && to.kind === 'decimal')
    return to.scale >= from.scale && to.precision - to.scale >= from.precision - from.scale;
  if (from.kind === 'date') return to.kind === 'timestamp';
  if (from.kind === 'varchar' && to.kind === 'varchar')
    return to.length === undefined || (from.length !== undefined && to.length >= from.length);
  return false;
}

/** The same type; varchar lengths aside, which do not change comparisons. */
function sameType(a: SqlType, b: SqlType): boolean {
  if (a.kind === 'varchar' && b.kind === 'varchar') return true;
  return JSON.stringify(a) === JSON.stringify(b);
}
