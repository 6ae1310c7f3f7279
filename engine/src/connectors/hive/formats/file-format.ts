// A table's file format (PARQUET, CSV, JSON) to the lake connector: how a file splits into ranges
// read independently, how a range becomes pages of the columns a query reads, what columns a file
// has (for tables created without a column list), and how pages become a new file.

import type { ColumnMetadata, TableConstraint } from '../../../spi/connector.js';
import type { Page } from '../../../columnar/page.js';
import type { FileEntry, FileSystem, OutputStream } from '../file-system/file-system.js';

export type FormatName = 'PARQUET' | 'CSV' | 'JSON';

/** The table properties a format reads (Trino's names in comments). */
export interface FormatOptions {
  /** skip_header_line_count: lines at the start of each text file that are not rows. */
  skipHeaderLineCount: number;
  /** csv_separator, csv_quote, csv_escape: one character each. */
  csvSeparator: string;
  csvQuote: string;
  csvEscape: string;
}

/** A byte range of a file: its rows are those that start in it (a row group's data, a text line). */
export interface FileRange {
  start: number;
  length: number;
}

/**
 * A part of a file that one range reads whole (a Parquet row group), as the file's footer says:
 * where its data starts and its compressed bytes.
 */
export interface FileBlock {
  start: number;
  bytes: number;
}

/** What reading saw and what it could skip: EXPLAIN ANALYZE and the query's stats show them. */
export interface ReadStats {
  /** Bytes fetched from storage. */
  bytesRead: number;
  /** Bytes of the range's data left unread because the query cannot need them (columns, row groups, pages). */
  bytesSkipped: number;
  /** Parquet row groups read, and skipped by their statistics. */
  rowGroupsRead: number;
  rowGroupsSkipped: number;
}

export interface FileReadRequest {
  fs: FileSystem;
  file: FileEntry;
  range: FileRange;
  /** The file's columns to read, in this order (partition columns are not in files: the caller adds them). */
  columns: readonly ColumnMetadata[];
  /** Every data column of the table, in its order: CSV fields are matched to columns by their position in it. */
  tableColumns: readonly ColumnMetadata[];
  /** What the query's predicates say: a format may skip data that cannot match (the engine filters every row anyway). */
  constraint?: TableConstraint;
  options: FormatOptions;
  stats: ReadStats;
  signal?: AbortSignal;
}

/** Writes one new file; `finish` completes it (and reports its rows), `abort` leaves nothing. */
export interface FileWriter {
  append(page: Page): Promise<void>;
  /** Bytes written so far (a writer rolls to a new file past a target size). */
  readonly writtenBytes: number;
  /** Bytes of rows held in memory and not yet written out (a row group being filled, text not flushed). */
  readonly retainedBytes: number;
  finish(): Promise<{ rows: number }>;
  abort(): Promise<void>;
}

export interface FileFormat {
  readonly name: FormatName;
  /**
   * The ranges a file is read in, about `targetBytes` each; one range for a file that cannot be
   * split (compressed text, CSV with quoted newlines cannot be told from its bytes: see the format).
   * `blocks`, when planning already read the file's footer, are its row groups: the ranges then cut
   * only between them, so that each holds its share of the data rather than of the bytes.
   */
  ranges(file: FileEntry, options: FormatOptions, targetBytes: number, blocks?: readonly FileBlock[]): FileRange[];
  /** Pages of the range's rows, holding `columns` in order; a bad value fails naming the file (and line). */
  read(request: FileReadRequest): AsyncIterable<Page>;
  /** The columns a file holds (from a Parquet footer, a CSV header, sampled JSON records). */
  inferColumns(fs: FileSystem, file: FileEntry, options: FormatOptions, signal?: AbortSignal): Promise<ColumnMetadata[]>;
  /** A writer of one file of `columns`, to `output`. */
  createWriter(columns: readonly ColumnMetadata[], options: FormatOptions, output: OutputStream): FileWriter;
}
