// Small results of metadata and session statements, built from rows of scalars.

import type { Scalar } from '../../types/scalar.js';
import { columnFromScalars } from '../../columnar/page.js';
import { BIGINT, VARCHAR, type SqlType } from '../../types/types.js';
import { noSessionChanges, type SessionChanges } from '../../spi/session.js';
import type { OutputColumn, StatementResult } from '../../spi/statement-result.js';

export function rowsResult(
  columns: OutputColumn[],
  rows: Scalar[][],
  sessionChanges: SessionChanges = noSessionChanges(),
): StatementResult {
  const page = {
    rowCount: rows.length,
    columns: columns.map((c, i) =>
      columnFromScalars(
        c.type,
        rows.map((r) => r[i]),
      ),
    ),
  };
  return { columns, pages: single(page), sessionChanges };
}

async function* single<T>(value: T): AsyncIterable<T> {
  yield value;
}

export function varcharColumns(...names: string[]): OutputColumn[] {
  return names.map((name) => ({ name, type: VARCHAR }));
}

/** A statement with no result rows (CREATE TABLE, USE, SET SESSION ...). */
export function updateResult(updateType: string, sessionChanges: SessionChanges = noSessionChanges()): StatementResult {
  return { columns: [], pages: empty(), updateType, sessionChanges };
}

/** A write that reports its row count as Trino does: one `rows` bigint column; NULL and no update count when not known. */
export function rowCountResult(updateType: string, count: number | undefined): StatementResult {
  const result = rowsResult([{ name: 'rows', type: BIGINT }], [[count === undefined ? null : BigInt(count)]]);
  return count === undefined ? { ...result, updateType } : { ...result, updateType, updateCount: count };
}

async function* empty<T>(): AsyncIterable<T> {}

export function column(name: string, type: SqlType): OutputColumn {
  return { name, type };
}
