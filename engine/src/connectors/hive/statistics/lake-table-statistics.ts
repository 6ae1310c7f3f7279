// A lake table's statistics from its visible files: for Parquet, the row count and per column the
// NULL fraction, least and greatest values and distinct count (from the row groups' counts, where every
// row group gives one: see ColumnStatisticsBuilder) from the files' footers (read at most a few at a time,
// and remembered by file version); for partition columns, their values from the folder names
// (distinct count too). CSV and JSON files do not say how many rows they hold: a table's row count
// is then known only when all its files are of the engine's committed writes (which counted their rows). A table of more files than the limit gets no statistics at all rather than figures
// from a part of it.

import type { ColumnStatistics, TableStatistics } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import { readPicos, writePicos } from '../../../types/long-plain-temporal.js';
import { typesEqual, type SqlType } from '../../../types/types.js';
import type { FileSystem } from '../file-system/file-system.js';
import { baseName } from '../location.js';
import type { LakeTable } from '../metastore/lake-table.js';
import { parsePartitionValue } from '../splits/partitions.js';
import { listVisibleFiles, type VisibleFile } from '../splits/split-lister.js';
import { writeIdOfFile } from '../write/write-id.js';
import { forEachBounded } from './bounded-parallel.js';
import { ColumnStatisticsBuilder } from './column-statistics-builder.js';
import type { FooterStatisticsCache } from './footer-statistics-cache.js';

export interface StatisticsLimits {
  /** Files a table may have for its statistics to be made; past it they are unknown. */
  maxFiles: number;
  /** Footers read at once. */
  footersInParallel: number;
}

/**
 * Planning waits for the statistics: the first query over a table of 1,000 Parquet files reads their
 * footers, 16 at a time (on S3 some 20 ms each: about a second); later ones find them cached.
 */
export const DEFAULT_STATISTICS_LIMITS: StatisticsLimits = { maxFiles: 1_000, footersInParallel: 16 };

export interface StatisticsContext {
  fs: FileSystem;
  table: LakeTable;
  /** Write ids whose files are visible. */
  committed: ReadonlySet<string>;
  /** Files that committed writes replaced: not visible. */
  retired?: ReadonlySet<string>;
  /** Rows those writes added (less those of files they retired). */
  committedRows: number;
  footers: FooterStatisticsCache;
  limits: StatisticsLimits;
  signal?: AbortSignal;
}

/** The table's statistics, or undefined when it has more files than the limit. */
export async function lakeTableStatistics(context: StatisticsContext): Promise<TableStatistics | undefined> {
  const { table, limits } = context;
  const parquet = table.format === 'PARQUET';
  const data = new Map(parquet ? table.dataColumns.map((c) => [c.name, new ColumnStatisticsBuilder(false)]) : []);
  const partitions = table.partitionColumns.map(() => new ColumnStatisticsBuilder(true));
  let rowCount: number | undefined = parquet ? 0 : undefined;
  let files = 0;
  let foreignFiles = 0;
  let tooMany = false;
  async function* counted(): AsyncIterable<VisibleFile> {
    for await (const file of listVisibleFiles(context)) {
      if (++files > limits.maxFiles) {
        tooMany = true;
        return;
      }
      yield file;
    }
  }

  await forEachBounded(counted(), limits.footersInParallel, async ({ file, partitionValues }) => {
    let rows: number | undefined;
    if (writeIdOfFile(baseName(file.location)) === undefined) foreignFiles++;
    if (parquet) {
      const footer = await context.footers.statistics(context.fs, file, context.signal);
      rows = footer.rowCount;
      rowCount! += rows;
      for (const column of table.dataColumns) {
        const stats = footer.columns.get(column.name.toLowerCase());
        const bound = stats === undefined ? undefined : boundConversion(stats.type, column.type);
        // A column of another type in the file is coerced when read: its footer bounds are of the file's type.
        const builder = data.get(column.name)!;
        if (stats === undefined || bound === undefined) builder.add(undefined, false, undefined, undefined);
        else builder.add(stats.nullCount, stats.nullCount === rows, bound(stats.min), bound(stats.max));
        // An all-NULL file adds no values; a file of another type (coerced when read) may map distinct values together.
        if (stats?.nullCount !== rows)
          builder.addChunkDistinct(stats !== undefined && keepsDistinct(stats.type, column.type) ? stats.distinct : undefined);
      }
    }
    table.partitionColumns.forEach((column, i) => {
      partitions[i].addConstant(rows, parsePartitionValue(partitionValues[i] ?? undefined, column, file.location));
    });
  });
  if (tooMany) return undefined;
  if (!parquet && foreignFiles === 0) rowCount = context.committedRows;

  const columns: Record<string, ColumnStatistics> = {};
  for (const [name, builder] of data) columns[name] = builder.build(rowCount);
  table.partitionColumns.forEach((column, i) => (columns[column.name] = partitions[i].build(rowCount)));
  return rowCount === undefined ? { columns } : { rowCount, columns };
}

type Bound = Scalar | undefined;

/** Whether a file's distinct values stay distinct read as the column's type: the same type, or strings (of any declared length). */
function keepsDistinct(fileType: SqlType, columnType: SqlType): boolean {
  return typesEqual(fileType, columnType) || (fileType.kind === 'varchar' && columnType.kind === 'varchar');
}

/**
 * How a file's bound reads as the column's: as it is for the same type; a timestamp of another precision rounds as its
 * values do when read (monotonic, so the bounds stay bounds); none for other types.
 */
function boundConversion(fileType: SqlType, columnType: SqlType): ((bound: Bound) => Bound) | undefined {
  if (typesEqual(fileType, columnType)) return (bound) => bound;
  if (fileType.kind !== 'timestamp' || columnType.kind !== 'timestamp') return undefined;
  const picos = readPicos(fileType);
  const write = writePicos(columnType);
  return (bound) => {
    if (bound === undefined || bound === null) return undefined;
    try {
      return write(picos(bound));
    } catch {
      return undefined; // beyond the years the column's type holds: reading such a value fails, the bound is unknown
    }
  };
}
