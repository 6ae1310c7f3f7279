// The pages of a lake split: its file range read by the table's format, holding the requested
// columns in order (partition columns filled from the split's folder values), and what reading took
// (ReadStats) as the page source's metrics.

import { EngineError, toEngineError } from '../../../errors/engine-error.js';
import {
  BYTES_READ_METRIC,
  type ColumnMetadata,
  type ConnectorMetrics,
  type PageSource,
  type TableConstraint,
} from '../../../spi/connector.js';
import { constantColumn, type Column, type Page } from '../../../columnar/page.js';
import type { FileSystem } from '../file-system/file-system.js';
import { openFileReader, ReaderFileSystem } from '../file-system/file-reader.js';
import { fileFormat } from '../formats/file-formats.js';
import type { ReadStats } from '../formats/file-format.js';
import type { LakeSplitInfo } from '../splits/lake-split.js';
import { parsePartitionValue } from '../splits/partitions.js';
import { withDynamicFilter } from './dynamic-filter.js';

/** Metric names (EXPLAIN ANALYZE prints them). */
export const LAKE_METRICS = {
  files: 'filesRead',
  splits: 'splitsRead',
  bytesRead: BYTES_READ_METRIC,
  bytesSkipped: 'bytesSkipped',
  rowGroupsRead: 'rowGroupsRead',
  rowGroupsSkipped: 'rowGroupsSkipped',
} as const;

/** The pages of a split under a query's dynamic filter: none when its partition values are outside it. */
export function lakePageSource(
  fs: FileSystem,
  info: LakeSplitInfo,
  columns: readonly string[],
  dynamicFilter: TableConstraint | undefined,
): PageSource {
  const filtered = withDynamicFilter(info, dynamicFilter);
  return filtered === undefined ? NO_PAGES : new LakePageSource(fs, filtered, columns);
}

const NO_PAGES: PageSource = {
  async *[Symbol.asyncIterator]() {},
};

export class LakePageSource implements PageSource {
  private readonly stats: ReadStats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };

  constructor(
    private readonly fs: FileSystem,
    private readonly info: LakeSplitInfo,
    private readonly columns: readonly string[],
    private readonly signal?: AbortSignal,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<Page> {
    return this.pages()[Symbol.asyncIterator]();
  }

  metrics(): ConnectorMetrics {
    const s = this.stats;
    const rowGroups: Record<string, number> =
      s.rowGroupsRead + s.rowGroupsSkipped > 0
        ? { [LAKE_METRICS.rowGroupsRead]: s.rowGroupsRead, [LAKE_METRICS.rowGroupsSkipped]: s.rowGroupsSkipped }
        : {};
    return {
      [LAKE_METRICS.splits]: 1,
      [LAKE_METRICS.files]: this.info.start === 0 ? 1 : 0,
      [LAKE_METRICS.bytesRead]: s.bytesRead,
      [LAKE_METRICS.bytesSkipped]: s.bytesSkipped,
      ...rowGroups,
    };
  }

  private async *pages(): AsyncIterable<Page> {
    const { info, columns } = this;
    const dataColumns: ColumnMetadata[] = info.dataColumns;
    // For each requested column: its index among the pages' data columns, or -1 - its partition column.
    const requested: ColumnMetadata[] = [];
    const sources = columns.map((name) => {
      const data = dataColumns.find((c) => c.name === name);
      if (data !== undefined) return requested.push(data) - 1;
      const partition = info.partitionColumns.findIndex((c) => c.name === name);
      if (partition < 0) throw new EngineError('COLUMN_NOT_FOUND', `Column '${name}' is not in the files of ${info.location}`);
      return -1 - partition;
    });
    const partitionValues = info.partitionColumns.map((c, i) =>
      parsePartitionValue(info.partitionValues[i] ?? undefined, c, info.location),
    );
    const format = fileFormat(info.format);
    const file = { location: info.location, size: info.size, lastModified: info.lastModified, etag: info.etag };
    // The file stays open while the split reads it, and is closed when it ends, fails or is cancelled (the consumer's return()).
    const reader = openFileReader(this.fs, info.location);
    let read: AsyncIterable<Page>;
    try {
      read = format.read({
        fs: new ReaderFileSystem(this.fs, info.location, reader),
        file,
        range: { start: info.start, length: info.length },
        columns: requested,
        tableColumns: dataColumns,
        constraint: info.constraint,
        options: info.options,
        stats: this.stats,
        signal: this.signal,
      });
      for await (const page of read) {
        const out: Column[] = sources.map((s) =>
          s >= 0 ? page.columns[s] : constantColumn(info.partitionColumns[-1 - s].type, partitionValues[-1 - s], page.rowCount),
        );
        yield { rowCount: page.rowCount, columns: out };
      }
    } catch (e) {
      throw namingFile(e, info.location);
    } finally {
      await reader.close();
    }
  }
}

/** An error of reading, naming the file when its message does not already. */
function namingFile(e: unknown, location: string): EngineError {
  const error = toEngineError(e);
  if (error.rawMessage.includes(location) || error.errorName === 'USER_CANCELED') return error;
  const named = new EngineError(
    error.errorName === 'GENERIC_INTERNAL_ERROR' ? 'HIVE_CANNOT_OPEN_SPLIT' : error.errorName,
    `Error reading ${location}: ${error.rawMessage}`,
  );
  named.stack = error.stack;
  return named;
}
