// Row-level DELETE, UPDATE and MERGE on a table with a primary key, as Trino's JDBC connectors make
// them (the merge sink finds each row by its key), in one PostgreSQL transaction: the table is locked
// against other writers (SHARE ROW EXCLUSIVE: reads go on), its rows are read, the engine says what
// becomes of them, the deleted and updated rows' keys (and the new values) are COPYed into temporary
// tables that one DELETE ... USING and one UPDATE ... FROM apply by key, and new rows are COPYed into
// the table. Any failure (a constraint, a lost connection, an engine error) rolls all of it back.

import { randomBytes } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { EngineError } from '../../errors/engine-error.js';
import { getScalar, type Page } from '../../columnar/page.js';
import type { MergedRows } from '../../spi/connector.js';
import type { Scalar } from '../../types/scalar.js';
import type { PostgresColumn } from './column-mapping.js';
import { CopyDecoder } from './copy-decoder.js';
import { type BooleanTarget, copyHeader, copyTrailer, encodePage } from './copy-encoder.js';
import type { PostgresClient } from './postgresql-client.js';
import { EMPTY_HANDLE, scanQuery } from './scan-query.js';
import { qualifiedTable, quoteIdentifier } from './sql-text.js';
import { plainJsonColumns, writeTarget } from './write-targets.js';

/** Trino's refusal of a row-level change of a table without a primary key. */
export const NO_PRIMARY_KEY = 'The connector can not perform merge on the target table without primary keys';

export interface KeyedTable {
  catalog: string;
  schema: string;
  table: string;
  /** As the engine reads them: the pages `change` gets and returns have these columns, in this order. */
  columns: readonly PostgresColumn[];
  orderedText: boolean;
  keyColumns: readonly string[];
}

/** A column as it is written back: its index in the pages and how its values are encoded. */
interface Written {
  index: number;
  name: string;
  write: BooleanTarget;
}

/** Makes what `change` says of the table's current rows, atomically; returns its count. */
export async function changeRowsByKey(
  client: PostgresClient,
  target: KeyedTable,
  change: (rows: readonly Page[]) => MergedRows,
): Promise<number> {
  const keys = keyIndexes(target);
  const plainJson = target.columns.some((c) => c.type.kind === 'json')
    ? await plainJsonColumns(client, target.schema, target.table)
    : new Set<string>();
  const targets = target.columns.map((c) => writeTarget(c, plainJson));
  const written: Written[] = target.columns.flatMap((c, index) => {
    const write = targets[index];
    return write === 'nulls' ? [] : [{ index, name: c.name, write }];
  });
  const table = qualifiedTable(target.schema, target.table);
  return client.withConnection(async (connection) => {
    await connection.query('BEGIN');
    await connection.query(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
    const changes = change(await readRows(connection, target));
    checkUnwritable(target, targets, changes);
    const keyed: Keyed = {
      connection,
      table,
      keys,
      keyWrites: keys.map((index) => written.find((w) => w.index === index)!),
      temporary: `engine_${randomBytes(8).toString('hex')}`,
    };
    if (changes.deleted.some((p) => p.rowCount > 0)) await deleteByKey(keyed, changes.deleted);
    // Only columns some row changes are set, as Trino sets only the updated columns (a generated column takes no value).
    const set = written.filter((w) => changes.updated.some(({ before, after }) => changesColumn(before, after, w.index)));
    if (set.length > 0) await updateByKey(keyed, target, set, changes.updated);
    if (changes.inserted.some((p) => p.rowCount > 0)) await copyIn(connection, table, written, changes.inserted);
    await connection.query('COMMIT');
    return changes.changed;
  });
}

/** The transaction's connection, the table and its key, and the prefix of the transaction's temporary tables. */
interface Keyed {
  connection: pg.PoolClient;
  table: string;
  keys: readonly number[];
  keyWrites: readonly Written[];
  temporary: string;
}

async function deleteByKey({ connection, table, keyWrites, temporary }: Keyed, deleted: readonly Page[]): Promise<void> {
  const keyNames = keyWrites.map((k) => quoteIdentifier(k.name));
  await connection.query(`CREATE TEMP TABLE ${temporary}_d ON COMMIT DROP AS SELECT ${keyNames.join(', ')} FROM ${table} WITH NO DATA`);
  await copyIn(connection, `${temporary}_d`, keyWrites, deleted);
  await connection.query(`DELETE FROM ${table} AS t USING ${temporary}_d AS d WHERE ${keyMatch('d', keyWrites, keyNames)}`);
}

/** Sets the `set` columns of the updated rows, found by their key before the change. */
async function updateByKey(
  { connection, table, keys, keyWrites, temporary }: Keyed,
  target: KeyedTable,
  set: readonly Written[],
  updated: MergedRows['updated'],
): Promise<void> {
  // The old key beside the new values, under names no column has.
  const taken = new Set(target.columns.map((c) => c.name));
  const oldKeys = keyWrites.map((k, i) => ({ ...k, index: i, name: freshName(`engine_key_${i}`, taken) }));
  const oldKeyNames = oldKeys.map((k) => quoteIdentifier(k.name));
  const selected = [
    ...keyWrites.map((k, i) => `${quoteIdentifier(k.name)} AS ${oldKeyNames[i]}`),
    ...set.map((w) => quoteIdentifier(w.name)),
  ];
  await connection.query(`CREATE TEMP TABLE ${temporary}_u ON COMMIT DROP AS SELECT ${selected.join(', ')} FROM ${table} WITH NO DATA`);
  const rows = updated.map(({ before, after }) => ({
    rowCount: before.rowCount,
    columns: [...keys.map((k) => before.columns[k]), ...after.columns],
  }));
  await copyIn(connection, `${temporary}_u`, [...oldKeys, ...set.map((w) => ({ ...w, index: keys.length + w.index }))], rows);
  const assignments = set.map((w) => `${quoteIdentifier(w.name)} = u.${quoteIdentifier(w.name)}`).join(', ');
  await connection.query(`UPDATE ${table} AS t SET ${assignments} FROM ${temporary}_u AS u WHERE ${keyMatch('u', keyWrites, oldKeyNames)}`);
}

/** The key columns' indexes; refused when there is no key, or a key column the engine does not read exactly. */
function keyIndexes(target: KeyedTable): number[] {
  if (target.keyColumns.length === 0) throw new EngineError('NOT_SUPPORTED', NO_PRIMARY_KEY);
  return target.keyColumns.map((name) => {
    const index = target.columns.findIndex((c) => c.name === name);
    if (index < 0 || target.columns[index].read === 'text')
      throw new EngineError(
        'NOT_SUPPORTED',
        `Row-level changes of '${target.catalog}.${target.schema}.${target.table}' need its primary key column '${name}', whose PostgreSQL type the engine does not read`,
      );
    return index;
  });
}

/** `t.k = alias.name AND ...` over the key columns. */
function keyMatch(alias: string, keys: readonly Written[], names: readonly string[]): string {
  return keys.map((k, i) => `t.${quoteIdentifier(k.name)} = ${alias}.${names[i]}`).join(' AND ');
}

/** A column the engine reads as text cannot be written: inserted rows must leave it NULL, updated ones as it was. */
function checkUnwritable(target: KeyedTable, targets: readonly (BooleanTarget | 'nulls')[], changes: MergedRows): void {
  targets.forEach((write, index) => {
    if (write !== 'nulls') return;
    const changed =
      changes.inserted.some((p) => p.columns[index].nulls === null || p.columns[index].nulls!.includes(0)) ||
      changes.updated.some(({ before, after }) => changesColumn(before, after, index));
    if (changed)
      throw new EngineError(
        'NOT_SUPPORTED',
        `Column '${target.columns[index].name}' of '${target.catalog}.${target.schema}.${target.table}' has a PostgreSQL type the engine cannot write`,
      );
  });
}

/** Whether some row has another value in column `index` after than before. */
function changesColumn(before: Page, after: Page, index: number): boolean {
  for (let row = 0; row < before.rowCount; row++)
    if (!sameValue(getScalar(before.columns[index], row), getScalar(after.columns[index], row))) return true;
  return false;
}

/** The same value, -0 told from 0 (PostgreSQL keeps the sign of a double). */
function sameValue(a: Scalar, b: Scalar): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null)
    return JSON.stringify(a, tagBigints) === JSON.stringify(b, tagBigints);
  return Object.is(a, b);
}

function tagBigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** Every row of the table, read on the transaction's connection. */
async function readRows(connection: pg.PoolClient, target: KeyedTable): Promise<Page[]> {
  const info = { columns: [...target.columns], orderedText: target.orderedText, handle: EMPTY_HANDLE };
  const names = target.columns.map((c) => c.name);
  const { sql, types } = scanQuery(target.schema, target.table, info, names);
  const decoder = new CopyDecoder(names.map((name, i) => ({ name, type: types[i] })));
  const pages: Page[] = [];
  for await (const chunk of connection.query(copyTo(`COPY (${sql}) TO STDOUT (FORMAT binary)`)))
    pages.push(...decoder.push(chunk as Buffer));
  const last = decoder.finish();
  if (last !== undefined) pages.push(last);
  return pages;
}

/** COPYs the pages' `columns` into `table` (binary) on the transaction's connection. */
async function copyIn(connection: pg.PoolClient, table: string, columns: readonly Written[], pages: readonly Page[]): Promise<void> {
  const stream = connection.query(
    copyFrom(`COPY ${table} (${columns.map((c) => quoteIdentifier(c.name)).join(', ')}) FROM STDIN (FORMAT binary)`),
  );
  const done = finished(stream);
  stream.write(copyHeader());
  for (const page of pages) {
    if (page.rowCount === 0) continue;
    const selected = { rowCount: page.rowCount, columns: columns.map((c) => page.columns[c.index]) };
    stream.write(
      encodePage(
        selected,
        columns.map((c) => c.write),
      ),
    );
  }
  stream.end(copyTrailer());
  await done;
}

/** `name`, or with more underscores in front until no column has it. */
export function freshName(name: string, taken: Set<string>): string {
  let candidate = name;
  while (taken.has(candidate)) candidate = `_${candidate}`;
  taken.add(candidate);
  return candidate;
}
