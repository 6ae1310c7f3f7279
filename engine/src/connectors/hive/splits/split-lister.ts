// Lists a table's splits lazily, as the file system pages its listing: partition folders are walked
// level by level and pruned with the query's constraint before anything below them is listed; hidden
// files and those of uncommitted writes are left out; each file becomes the byte ranges its format
// reads independently (cut between Parquet row groups where planning already read the footer),
// carrying the query's predicates on data columns for the reader to skip with.

import type { ColumnMetadata, TableConstraint } from '../../../spi/connector.js';
import type { SqlType } from '../../../types/types.js';
import type { FileEntry, FileSystem } from '../file-system/file-system.js';
import type { FileBlock, FileFormat } from '../formats/file-format.js';
import { baseName, isHiddenPath, relativeLocation } from '../location.js';
import type { LakeTable } from '../metastore/lake-table.js';
import { writeIdOfFile } from '../write/write-id.js';
import type { LakeSplitInfo } from './lake-split.js';
import { mayMatch, parsePartitionValue, partitionValueText } from './partitions.js';

/** Bytes per split of a splittable file (Trino's initial split size). */
export const TARGET_SPLIT_BYTES = 32 * 1024 * 1024;

export interface ListingContext {
  fs: FileSystem;
  table: LakeTable;
  format: FileFormat;
  /** Write ids whose files are visible. */
  committed: ReadonlySet<string>;
  /** Files that committed writes replaced (commit-log.ts): not visible. */
  retired?: ReadonlySet<string>;
  constraint?: TableConstraint;
  targetSplitBytes?: number;
  /** The file's blocks (Parquet row groups) when a footer read for planning gave them; never reads one. */
  knownBlocks?: (file: FileEntry) => Promise<readonly FileBlock[] | undefined>;
  signal?: AbortSignal;
}

export async function* listSplits(context: ListingContext): AsyncIterable<LakeSplitInfo> {
  const { table, format } = context;
  const target = context.targetSplitBytes ?? TARGET_SPLIT_BYTES;
  const dataColumns = table.dataColumns.map(splitColumn);
  const partitionColumns = table.partitionColumns.map(splitColumn);
  const constraint = dataConstraint(context.constraint, table);
  for await (const { file, partitionValues } of listVisibleFiles(context)) {
    const blocks = await context.knownBlocks?.(file);
    for (const range of format.ranges(file, table.formatOptions, target, blocks)) {
      yield {
        location: file.location,
        size: file.size,
        ...(file.lastModified === undefined ? {} : { lastModified: file.lastModified }),
        ...(file.etag === undefined ? {} : { etag: file.etag }),
        start: range.start,
        length: range.length,
        format: table.format,
        options: table.formatOptions,
        dataColumns,
        partitionColumns,
        partitionValues,
        ...(constraint.length === 0 ? {} : { constraint }),
      };
    }
  }
}

/** The domains a reader may skip row groups and pages with: over data columns whose values compare as stored. */
function dataConstraint(constraint: TableConstraint | undefined, table: LakeTable): TableConstraint {
  return (constraint ?? []).filter((d) => {
    const column = table.dataColumns.find((c) => c.name === d.column);
    return column !== undefined && prunable(column.type);
  });
}

/** A data file of the table and the partition value texts of its folders (null: the default partition). */
export interface VisibleFile {
  file: FileEntry;
  partitionValues: (string | null)[];
}

/** The table's data files a query sees (of the partitions the constraint may match), as listed. */
export function listVisibleFiles(context: Omit<ListingContext, 'format' | 'targetSplitBytes' | 'knownBlocks'>): AsyncIterable<VisibleFile> {
  return partitionFiles(context, context.table.location, []);
}

/** The files below a partition folder whose first `values.length` partition values are `values`. */
async function* partitionFiles(
  context: Omit<ListingContext, 'format'>,
  directory: string,
  values: (string | null)[],
): AsyncIterable<VisibleFile> {
  const { fs, table } = context;
  const column = table.partitionColumns[values.length];
  if (column === undefined) {
    yield* folderFiles(context, directory, values);
    return;
  }
  const domain = prunable(column.type) ? context.constraint?.find((d) => d.column === column.name) : undefined;
  for (const folder of await fs.listDirectories(directory, context.signal)) {
    const name = baseName(folder);
    if (name.startsWith('.') || name.startsWith('_')) continue;
    const text = partitionValueText(folder, name, column);
    const value = parsePartitionValue(text, column, folder);
    if (!mayMatch(value, domain)) continue;
    yield* partitionFiles(context, folder, [...values, text ?? null]);
  }
}

async function* folderFiles(
  context: Omit<ListingContext, 'format'>,
  directory: string,
  partitionValues: (string | null)[],
): AsyncIterable<VisibleFile> {
  for await (const file of context.fs.listFiles(directory, context.signal)) {
    if (file.size === 0 || isHiddenPath(relativeLocation(directory, file.location))) continue;
    const writeId = writeIdOfFile(baseName(file.location));
    if (writeId !== undefined && !context.committed.has(writeId)) continue;
    if (context.retired?.has(file.location) === true) continue;
    yield { file, partitionValues };
  }
}

function splitColumn(column: ColumnMetadata): { name: string; type: SqlType } {
  return { name: column.name, type: column.type };
}

/** Types whose constraint values compare as their stored values do (a decimal's come at its scale: scan-constraints.ts). */
export function prunable(type: SqlType): boolean {
  return ['boolean', 'tinyint', 'smallint', 'integer', 'bigint', 'decimal', 'varchar', 'date'].includes(type.kind);
}
