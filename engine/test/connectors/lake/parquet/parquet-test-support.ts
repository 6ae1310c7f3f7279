// Reading Parquet files through our format, and the same values through DuckDB, in one canonical
// text form per value, so that the tests compare the two engines value for value.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileBlock, ReadStats } from '../../../../src/connectors/hive/formats/file-format.js';
import { ParquetFormat } from '../../../../src/connectors/hive/formats/parquet/parquet-format.js';
import type { ColumnMetadata, TableConstraint } from '../../../../src/spi/connector.js';
import { getScalar, type Page } from '../../../../src/columnar/page.js';
import type { Scalar } from '../../../../src/types/scalar.js';
import { formatDate } from '../../../../src/types/datetime.js';
import { formatDecimal } from '../../../../src/types/decimal.js';
import { PICOS_PER_MICRO, floorDiv, readPicos } from '../../../../src/types/long-plain-temporal.js';
import type { SqlType } from '../../../../src/types/types.js';
import { TestFileSystem } from './test-file-system.js';

export const FORMAT_OPTIONS = { skipHeaderLineCount: 0, csvSeparator: ',', csvQuote: '"', csvEscape: '\\' };

export function emptyStats(): ReadStats {
  return { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
}

/** A temporary folder, removed by `dispose`. */
export class TempDir {
  readonly path = mkdtempSync(join(tmpdir(), 'engine-parquet-'));

  file(name: string): { path: string; location: string } {
    const path = join(this.path, name);
    return { path, location: pathToFileURL(path).href };
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

export async function openDuck(): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  return instance.connect();
}

export interface ReadResult {
  pages: Page[];
  rows: string[][];
  stats: ReadStats;
  /** Row groups each range read, in range order. */
  groupsPerRange: number[];
}

/** Every range of the file read through our format (all ranges, as splits would), values in canonical text. */
export async function readWithFormat(
  location: string,
  columns: readonly ColumnMetadata[],
  options: { constraint?: TableConstraint; targetBytes?: number; fs?: TestFileSystem; blocks?: readonly FileBlock[] } = {},
): Promise<ReadResult> {
  const fs = options.fs ?? new TestFileSystem();
  const format = new ParquetFormat();
  const file = await fs.stat(location);
  if (file === undefined) throw new Error(`no file at ${location}`);
  const stats = emptyStats();
  const pages: Page[] = [];
  const groupsPerRange: number[] = [];
  for (const range of format.ranges(file, FORMAT_OPTIONS, options.targetBytes ?? 64 * 1024 * 1024, options.blocks)) {
    const before = stats.rowGroupsRead + stats.rowGroupsSkipped;
    for await (const page of format.read({
      fs,
      file,
      range,
      columns,
      tableColumns: columns,
      constraint: options.constraint,
      options: FORMAT_OPTIONS,
      stats,
    }))
      pages.push(page);
    groupsPerRange.push(stats.rowGroupsRead + stats.rowGroupsSkipped - before);
  }
  const rows: string[][] = [];
  for (const page of pages) {
    for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => canonical(c.type, getScalar(c, r))));
  }
  return { pages, rows, stats, groupsPerRange };
}

/** A value as text that DuckDB's `duckExpression` of the same column produces. */
export function canonical(type: SqlType, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (type.kind) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'decimal':
      return formatDecimal(value as bigint, type.scale);
    case 'real':
    case 'double':
      return String(value);
    case 'varbinary':
      return Buffer.from(value as Uint8Array)
        .toString('hex')
        .toUpperCase();
    case 'date':
      return formatDate(value as number);
    case 'timestamp':
      // Epoch micros, whichever form the precision keeps (long-plain-temporal.ts).
      return String(floorDiv(readPicos(type)(value as Scalar), PICOS_PER_MICRO));
    default:
      return String(value);
  }
}

/** DuckDB's expression giving column `name` (of our `type`) in canonical text. */
export function duckExpression(name: string, type: SqlType): string {
  const c = `"${name}"`;
  switch (type.kind) {
    case 'real':
    case 'double':
      return `CAST(${c} AS DOUBLE)`;
    case 'varbinary':
      return `hex(${c})`;
    case 'timestamp':
      return `epoch_us(${c})`;
    case 'time':
      return `epoch_us(DATE '1970-01-01' + ${c})`;
    default:
      return `CAST(${c} AS VARCHAR)`;
  }
}

/** DuckDB's rows of the file's `columns`, in file order, as canonical text. */
export async function readWithDuck(
  duck: DuckDBConnection,
  path: string,
  columns: readonly ColumnMetadata[],
  where = '',
): Promise<string[][]> {
  const select = columns.map((c) => duckExpression(c.name, c.type)).join(', ');
  const rows = (await duck.runAndReadAll(`SELECT ${select} FROM read_parquet('${path}') ${where}`)).getRows();
  return rows.map((row) =>
    row.map((v, i) => {
      if (v === null) return 'NULL';
      const kind = columns[i].type.kind;
      if (kind === 'real' || kind === 'double') return String(Number(v));
      return String(v);
    }),
  );
}
