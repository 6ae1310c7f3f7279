// What a scan of a PostgreSQL table asks the server for: the table handle the optimizer's pushdown
// builds (plain JSON: filters, an aggregation, an order and a limit), and the one SELECT a split
// runs, made from the handle where the split is read. The SQL is made from structured parts only,
// each checked again (a handle that came from another node names nothing but columns and constants).

import type { ConnectorExpression, SortItem } from '../../spi/pushdown.js';
import { typeName, type SqlType } from '../../types/types.js';
import type { PostgresColumn } from './column-mapping.js';
import { columnReference, selectExpression, type ColumnLookup } from './column-sql.js';
import { pushedFilterSql } from './filter-sql.js';
import { literal, postgresTypeName, qualifiedTable, quoteIdentifier } from './sql-text.js';

export interface PushedAggregate {
  /** The column the scan reads its value as. */
  name: string;
  function: 'count' | 'sum' | 'min' | 'max' | 'avg';
  /** A column of the table; none for count(*). */
  argument?: string;
  /** The engine's result type, which the SQL produces exactly. */
  type: SqlType;
}

export interface PostgresHandle {
  /** Conjuncts the server evaluates (each accepted by pushedFilterSql; the engine checks again those that are not exact). */
  filters: ConnectorExpression[];
  aggregation?: { groupBy: string[]; aggregates: PushedAggregate[] };
  orderBy?: SortItem[];
  limit?: number;
}

export const EMPTY_HANDLE: PostgresHandle = { filters: [] };

/** A split's rows: a range of an integer key, bounds as decimal text (bigints travel as text). */
export interface KeyRange {
  column: string;
  low?: string;
  high?: string;
}

/** What one split reads (the split's `info`). */
export interface PostgresSplitInfo {
  columns: PostgresColumn[];
  orderedText: boolean;
  handle: PostgresHandle;
  range?: KeyRange;
}

export function columnLookup(columns: readonly PostgresColumn[], orderedText: boolean): ColumnLookup {
  return { columns: new Map(columns.map((c) => [c.name, c])), orderedText };
}

/** A failure to make the SQL of a handle: only possible for a handle this connector did not make. */
export class ScanQueryError extends Error {}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ScanQueryError(what);
  return value;
}

/** The SQL of a pushed aggregate, or undefined when PostgreSQL would not compute exactly the engine's value. */
export function aggregateSql(aggregate: Omit<PushedAggregate, 'name'>, lookup: ColumnLookup): string | undefined {
  const { function: name, argument, type } = aggregate;
  if (argument === undefined) return name === 'count' ? 'count(*)' : undefined;
  const column = lookup.columns.get(argument);
  if (column === undefined) return undefined;
  if (name === 'count') return `count(${quoteIdentifier(argument)})`;
  const value = columnReference(argument, lookup, 'value');
  if (value === undefined) return undefined;
  const input = column.type;
  const integer = input.kind === 'smallint' || input.kind === 'integer' || input.kind === 'bigint';
  switch (name) {
    case 'sum':
      // Exact in PostgreSQL (int8 or numeric); the cast fails on overflow (22003), as the engine's sum does.
      if (integer && type.kind === 'bigint') return `CAST(sum(${value}) AS bigint)`;
      if (input.kind === 'decimal' && type.kind === 'decimal' && type.scale === input.scale)
        return `CAST(sum(${value}) AS ${postgresTypeName(type)})`;
      return undefined;
    case 'avg':
      // The engine averages integers in double precision, as avg(float8) does.
      if (integer && type.kind === 'double') return `avg(CAST(${value} AS double precision))`;
      if (input.kind === 'decimal' && type.kind === 'decimal' && type.scale === input.scale) return decimalAverage(value, type);
      return undefined;
    case 'min':
    case 'max':
      if (typeName(type) !== typeName(input) || !orderable(input, lookup)) return undefined;
      return `${name}(${value}${collation(input)})`;
  }
}

/**
 * avg of a decimal(p, s) rounded HALF_UP to scale s exactly: PostgreSQL's avg(numeric) rounds its
 * quotient first, and rounding twice can differ. With S = sum * 10^s (an integer) and N = count:
 * sign(S) * div(2|S| + N, 2N), scaled back by a multiplication (exact in numeric).
 */
function decimalAverage(value: string, type: Extract<SqlType, { kind: 'decimal' }>): string {
  const shift = `CAST('1${'0'.repeat(type.scale)}' AS numeric)`;
  const unshift = type.scale === 0 ? `CAST('1' AS numeric)` : `CAST('0.${'0'.repeat(type.scale - 1)}1' AS numeric)`;
  const scaledSum = `(sum(${value}) * ${shift})`;
  return `CAST(sign(${scaledSum}) * div(abs(${scaledSum}) * 2 + count(${value}), 2 * count(${value})) * ${unshift} AS ${postgresTypeName(type)})`;
}

/** Whether ORDER BY, min and max of the type agree with the engine's order (text under COLLATE "C" in a UTF8 database). */
export function orderable(type: SqlType, lookup: ColumnLookup): boolean {
  switch (type.kind) {
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'boolean':
    case 'date':
    case 'time':
    case 'timestamp':
      return true;
    case 'varchar':
      return lookup.orderedText;
    default:
      // real and double (NaN sorts above every number in PostgreSQL), char, varbinary
      return false;
  }
}

/** Whether grouping by the type puts the same rows together as the engine does (not json: PostgreSQL's text of a json value is not the engine's canonical one). */
export function groupable(column: PostgresColumn): boolean {
  return column.type.kind !== 'real' && column.type.kind !== 'double' && column.type.kind !== 'json';
}

function collation(type: SqlType): string {
  return type.kind === 'varchar' ? ' COLLATE "C"' : '';
}

/** A grouping column as selected and grouped by: text read as text, compared as bytes. */
function groupKeySql(column: PostgresColumn): string {
  return `${selectExpression(column)}${collation(column.type)}`;
}

/** The SQL and result type of each output column name of a scan with this handle. */
function outputs(handle: PostgresHandle, lookup: ColumnLookup): Map<string, { sql: string; type: SqlType; orderable: boolean }> {
  const out = new Map<string, { sql: string; type: SqlType; orderable: boolean }>();
  if (handle.aggregation === undefined) {
    for (const column of lookup.columns.values()) {
      out.set(column.name, {
        sql: selectExpression(column),
        type: column.type,
        orderable: column.read !== 'text' && orderable(column.type, lookup),
      });
    }
    return out;
  }
  for (const name of handle.aggregation.groupBy) {
    const column = required(lookup.columns.get(name), `unknown grouping column '${name}'`);
    out.set(name, { sql: groupKeySql(column), type: column.type, orderable: column.read !== 'text' && orderable(column.type, lookup) });
  }
  for (const aggregate of handle.aggregation.aggregates) {
    const sql = required(
      aggregateSql(aggregate, lookup),
      `aggregate ${aggregate.function} of '${aggregate.argument ?? '*'}' cannot be pushed down`,
    );
    out.set(aggregate.name, { sql, type: aggregate.type, orderable: orderable(aggregate.type, lookup) });
  }
  return out;
}

/** ORDER BY items as SQL, or undefined when one of them does not order as the engine does. */
export function orderBySql(orderBy: readonly SortItem[], handle: PostgresHandle, lookup: ColumnLookup): string | undefined {
  const available = outputs(handle, lookup);
  const items: string[] = [];
  for (const item of orderBy) {
    const output = available.get(item.column);
    if (output === undefined || !output.orderable) return undefined;
    items.push(`${output.sql}${collation(output.type)} ${item.ascending ? 'ASC' : 'DESC'} NULLS ${item.nullsFirst ? 'FIRST' : 'LAST'}`);
  }
  return items.join(', ');
}

function rangeSql(range: KeyRange, lookup: ColumnLookup): string {
  const column = required(lookup.columns.get(range.column), `unknown key column '${range.column}'`);
  const key = quoteIdentifier(column.name);
  const bound = (text: string) => required(literal(BigInt(text), { kind: 'bigint' }), 'bad key bound');
  const parts = [
    ...(range.low === undefined ? [] : [`${key} >= ${bound(range.low)}`]),
    ...(range.high === undefined ? [] : [`${key} < ${bound(range.high)}`]),
  ];
  return parts.length === 0 ? 'TRUE' : `(${parts.join(' AND ')})`;
}

/** The WHERE conjuncts of a handle (and a split's key range) as SQL. */
export function whereSql(handle: PostgresHandle, lookup: ColumnLookup, range?: KeyRange): string[] {
  const conjuncts = handle.filters.map((f) => required(pushedFilterSql(f, lookup), 'a filter that cannot be pushed down').sql);
  if (range !== undefined) conjuncts.push(rangeSql(range, lookup));
  return conjuncts;
}

/** The SELECT a split runs for `columns` (output names), and each column's type as it arrives. */
export function scanQuery(
  schema: string,
  table: string,
  info: PostgresSplitInfo,
  columns: readonly string[],
): { sql: string; types: SqlType[] } {
  const lookup = columnLookup(info.columns, info.orderedText);
  const handle = info.handle;
  const available = outputs(handle, lookup);
  const selected = columns.map((name) => required(available.get(name), `unknown column '${name}'`));
  const parts = [`SELECT ${selected.map((s) => s.sql).join(', ')} FROM ${qualifiedTable(schema, table)}`];
  const where = whereSql(handle, lookup, info.range);
  if (where.length > 0) parts.push(`WHERE ${where.join(' AND ')}`);
  if (handle.aggregation !== undefined && handle.aggregation.groupBy.length > 0) {
    parts.push(`GROUP BY ${handle.aggregation.groupBy.map((name) => groupKeySql(lookup.columns.get(name)!)).join(', ')}`);
  }
  if (handle.orderBy !== undefined)
    parts.push(`ORDER BY ${required(orderBySql(handle.orderBy, handle, lookup), 'an order that cannot be pushed down')}`);
  if (handle.limit !== undefined) {
    if (!Number.isSafeInteger(handle.limit) || handle.limit < 0) throw new ScanQueryError(`bad limit ${handle.limit}`);
    parts.push(`LIMIT ${handle.limit}`);
  }
  return { sql: parts.join(' '), types: selected.map((s) => s.type) };
}

/** What EXPLAIN prints of a handle: each pushed part as the server runs it. */
export function explainHandle(handle: PostgresHandle, lookup: ColumnLookup): string[] {
  const lines: string[] = [];
  const where = whereSql(handle, lookup);
  if (where.length > 0) lines.push(`filter = ${where.join(' AND ')}`);
  if (handle.aggregation !== undefined) {
    const available = outputs(handle, lookup);
    if (handle.aggregation.groupBy.length > 0)
      lines.push(`groupBy = [${handle.aggregation.groupBy.map((g) => available.get(g)!.sql).join(', ')}]`);
    lines.push(`aggregates = [${handle.aggregation.aggregates.map((a) => `${a.name} := ${available.get(a.name)!.sql}`).join(', ')}]`);
  }
  if (handle.orderBy !== undefined) lines.push(`orderBy = [${orderBySql(handle.orderBy, handle, lookup)}]`);
  if (handle.limit !== undefined) lines.push(`limit = ${handle.limit}`);
  return lines;
}
