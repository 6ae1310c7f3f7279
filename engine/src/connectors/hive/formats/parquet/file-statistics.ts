// What a Parquet footer says about the file's data without reading it: the row count, and per
// column the NULL count and least and greatest values over all row groups (as far as every row
// group's statistics give them), for table statistics (join ordering, SHOW STATS).

import type { Scalar } from '../../../../types/scalar.js';
import type { SqlType } from '../../../../types/types.js';
import type { FileEntry, FileSystem } from '../../file-system/file-system.js';
import { compareBounds, type Bound } from '../../../../spi/domain/prepared-domain.js';
import { BoundDecoder } from './domain-pruning.js';
import { readFooter } from './footer.js';
import { schemaColumns } from './parquet-reader.js';
import { rowGroupBlocks } from './row-group-ranges.js';
import type { FileBlock } from '../file-format.js';
import { mergeDistinctCounts, rowGroupDistinct, type DistinctCounts } from './chunk-distinct-counts.js';

export interface ParquetColumnStatistics {
  /** The column's type in the file (min and max are of it). */
  type: SqlType;
  /** Undefined when a row group does not say. */
  nullCount?: number;
  /** In our storage (bigint for bigint and decimals, days for dates, microseconds for timestamps); undefined when unknown. */
  min?: Scalar;
  max?: Scalar;
  /** From the row groups' distinct counts, when every row group with values gives one. */
  distinct?: ChunkDistinctCounts;
}

/** The row groups' distinct counts of a file's column, their ranges as table values. */
export type ChunkDistinctCounts = DistinctCounts<Exclude<Scalar, null>>;

export interface ParquetFileStatistics {
  rowCount: number;
  /** By lower-cased column name; flat columns of a type we read. */
  columns: Map<string, ParquetColumnStatistics>;
  /** Where the row groups start, and their bytes: splits are cut between them (row-group-ranges.ts). */
  rowGroups: FileBlock[];
  /** Bytes read to get them (the footer). */
  bytesRead: number;
}

export async function readParquetStatistics(fs: FileSystem, file: FileEntry, signal?: AbortSignal): Promise<ParquetFileStatistics> {
  const { metadata, bytesRead } = await readFooter(fs, file, signal);
  const columns = new Map<string, ParquetColumnStatistics>();
  for (const column of schemaColumns(metadata, file.location)) {
    if (column.kind !== 'flat' || !('kind' in column.type)) continue;
    const decoder = new BoundDecoder(column, column.type);
    let nullCount: number | undefined = 0;
    let min: Bound | undefined;
    let max: Bound | undefined;
    let bounded = metadata.rowGroups.length > 0;
    let distinct: DistinctCounts<Bound> | undefined;
    let distinctKnown = true;
    for (const group of metadata.rowGroups) {
      const stats = group.columns[column.chunkIndex]?.meta.statistics;
      nullCount = nullCount === undefined || stats?.nullCount === undefined ? undefined : nullCount + stats.nullCount;
      if (group.numRows === stats?.nullCount) continue; // all NULL: no bounds to merge
      const low = decoder.decode(stats?.minValue);
      const high = decoder.decode(stats?.maxValue);
      if (low === undefined || high === undefined) bounded = false;
      else {
        if (min === undefined || (compareBounds(low, min) ?? 0) < 0) min = low;
        if (max === undefined || (compareBounds(high, max) ?? 0) > 0) max = high;
      }
      if (stats?.distinctCount === undefined) distinctKnown = false;
      else if (distinctKnown) {
        const counts = rowGroupDistinct(stats.distinctCount, group.numRows - (stats.nullCount ?? 0), low, high);
        distinct = distinct === undefined ? counts : mergeDistinctCounts(distinct, counts, (a, b) => compareBounds(a, b) ?? 0);
      }
    }
    const kind = column.type.kind;
    const scalar = (b: Bound | undefined): Exclude<Scalar, null> | undefined => {
      if (b === undefined || !bounded) return undefined;
      if (b instanceof Uint8Array && kind === 'varchar') return new TextDecoder().decode(b);
      return kind === 'boolean' ? b === 1 : b;
    };
    const statistics: ParquetColumnStatistics = { type: column.type, nullCount, min: scalar(min), max: scalar(max) };
    if (distinctKnown && distinct !== undefined && distinct.largest > 0) {
      const { highestLow, lowestHigh, ...counts } = distinct;
      statistics.distinct = { ...counts, highestLow: scalar(highestLow), lowestHigh: scalar(lowestHigh) };
    }
    columns.set(column.name.toLowerCase(), statistics);
  }
  return { rowCount: metadata.numRows, columns, rowGroups: rowGroupBlocks(metadata), bytesRead };
}
