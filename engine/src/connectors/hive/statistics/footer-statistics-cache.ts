// Parquet footer statistics of the files a table's statistics were made from, kept by file version
// (location, size, modification time, entity tag: fileVersionKey) so that planning the next query
// over the same files opens no footer. A file rewritten in place changes its size, time or tag and is
// read again; a file whose store reports neither time nor tag is never cached.

import { connectorIo } from '../../../spi/connector-io.js';
import { fileVersionKey, type FileEntry, type FileSystem } from '../file-system/file-system.js';
import type { FileBlock } from '../formats/file-format.js';
import { readParquetStatistics, type ParquetFileStatistics } from '../formats/parquet/file-statistics.js';

/**
 * Files remembered (the files of ten tables as large as statistics are made for: see
 * DEFAULT_STATISTICS_LIMITS); past it the least recently used goes. An entry holds a few figures per column.
 */
const DEFAULT_MAX_ENTRIES = 10_000;

export class FooterStatisticsCache {
  /** Map order is insertion order: the first key is the least recently used. */
  private readonly entries = new Map<string, Promise<ParquetFileStatistics>>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /**
   * The file's row groups if the cache holds (or is reading) its statistics, which planning read for
   * the table's: never reads a footer; undefined when it has none or its read failed.
   */
  async knownRowGroups(file: FileEntry): Promise<readonly FileBlock[] | undefined> {
    const key = fileVersionKey(file);
    const entry = key === undefined ? undefined : this.entries.get(key);
    return entry?.then(
      (s) => s.rowGroups,
      () => undefined,
    );
  }

  /** The file's statistics, from the cache or its footer (concurrent asks for one file read it once). */
  statistics(fs: FileSystem, file: FileEntry, signal?: AbortSignal): Promise<ParquetFileStatistics> {
    const key = fileVersionKey(file);
    if (key === undefined) return readCounted(fs, file, signal);
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const loading = readCounted(fs, file, signal);
    this.entries.set(key, loading);
    // A failed read is not remembered: the next query tries the file again.
    loading.catch(() => this.entries.delete(key));
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return loading;
  }
}

/** Reads the file's footer statistics, counting the bytes as the node's connector I/O. */
async function readCounted(fs: FileSystem, file: FileEntry, signal: AbortSignal | undefined): Promise<ParquetFileStatistics> {
  const statistics = await readParquetStatistics(fs, file, signal);
  connectorIo.readBytes += statistics.bytesRead;
  return statistics;
}
