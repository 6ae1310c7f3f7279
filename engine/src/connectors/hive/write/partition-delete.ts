// DELETE on the lake, as Trino's Hive connector does it on its (non-transactional) tables: whole
// partitions, or all of an unpartitioned table, without reading rows (the engine checks the WHERE:
// coordinator/statements/partition-delete.ts). Atomic unlike Trino's (which deletes the folders one
// by one): one commit-log version retires every file of the selected partitions (commit-log.ts), so
// a reader sees all of them or none; a failure before it leaves the table as it was. The files, and
// then the emptied partition folders, are deleted after the commit (best effort: retired, they are
// invisible anyway). An external table's files are not the engine's: as Trino (which drops the
// partitions from its metastore and keeps their files) the partitions leave the table and the files
// stay; an unpartitioned external table is refused, as in Trino.

import { EngineError } from '../../../errors/engine-error.js';
import { columnFromScalars, type Page } from '../../../columnar/page.js';
import type { PageSource, RowPredicate } from '../../../spi/connector.js';
import type { FileSystem } from '../file-system/file-system.js';
import { fileFormat } from '../formats/file-formats.js';
import { baseName, parentLocation } from '../location.js';
import { type CommitState, commitWrite, readCommitState, retiredFiles } from '../metastore/commit-log.js';
import type { LakeTable } from '../metastore/lake-table.js';
import type { LakeSplitInfo } from '../splits/lake-split.js';
import { parsePartitionValue } from '../splits/partitions.js';
import { listSplits } from '../splits/split-lister.js';
import { newWriteId, writeIdOfFile } from './write-id.js';

export interface PartitionDeleteEnvironment {
  table: LakeTable;
  queryId: string;
  /** The table's data file system, and the catalog's metadata file system (commit log). */
  dataFs: FileSystem;
  metadataFs: FileSystem;
  metadataDirectory: string;
  read(info: LakeSplitInfo, columns: readonly string[]): PageSource;
}

/** Attempts of a DELETE whose files another DELETE or optimize rewrote meanwhile (each attempt follows one that did). */
const MAX_ATTEMPTS = 10;

/** Deletes the partitions `selects` picks from a page of their values (one row each). */
export async function deletePartitions(env: PartitionDeleteEnvironment, selects: RowPredicate): Promise<void> {
  const { table } = env;
  if (!table.managed && table.partitionColumns.length === 0)
    throw new EngineError('NOT_SUPPORTED', 'Cannot delete from non-managed Hive table');
  for (let attempt = 1; ; attempt++) {
    const state = await readCommitState(env.metadataFs, env.metadataDirectory, table.tableId);
    let files: string[];
    try {
      files = await retireSelected(env, state, selects);
    } catch (e) {
      // Another DELETE or an optimize retired files this one listed: it selects again from the table as it is now.
      if (attempt < MAX_ATTEMPTS && (await rewrittenSince(env, state))) continue;
      throw e;
    }
    if (!table.managed) return;
    await Promise.allSettled(files.map((f) => env.dataFs.deleteFile(f)));
    await removeEmptyFolders(env.dataFs, table, files);
    return;
  }
}

/** Commits the retirement of the selected partitions' files (as the commit state `state` lists them); returns the files. */
async function retireSelected(env: PartitionDeleteEnvironment, state: CommitState, selects: RowPredicate): Promise<string[]> {
  const { table } = env;
  const listing = {
    fs: env.dataFs,
    table,
    format: fileFormat(table.format),
    committed: new Set(state.writes.map((w) => w.writeId)),
    retired: retiredFiles(state.writes),
  };
  const byPartition = new Map<string, LakeSplitInfo[]>();
  for await (const info of listSplits(listing)) {
    const key = JSON.stringify(info.partitionValues);
    const splits = byPartition.get(key);
    if (splits === undefined) byPartition.set(key, [info]);
    else splits.push(info);
  }
  const partitions = [...byPartition.values()];
  const selected = selects(partitionValuesPage(table, partitions));
  const doomed = partitions.filter((_, i) => selected[i] === 1).flat();
  if (doomed.length === 0) return [];
  const files = [...new Set(doomed.map((info) => info.location))];
  await commitWrite(env.metadataFs, env.metadataDirectory, table.tableId, {
    writeId: newWriteId(env.queryId),
    queryId: env.queryId,
    rows: 0,
    files: 0,
    bytes: 0,
    committedAt: Date.now(),
    retired: { files, committedRows: await engineRows(env, doomed) },
  });
  return files;
}

/** Whether a commit since `state` retired files (a DELETE or an optimize). */
async function rewrittenSince(env: PartitionDeleteEnvironment, state: CommitState): Promise<boolean> {
  const seen = new Set(state.writes.map((w) => w.writeId));
  const latest = await readCommitState(env.metadataFs, env.metadataDirectory, env.table.tableId);
  return latest.writes.some((w) => !seen.has(w.writeId) && w.retired !== undefined);
}

/** One row per partition (its splits' values, parsed), partition columns in order; no columns when unpartitioned. */
function partitionValuesPage(table: LakeTable, partitions: readonly LakeSplitInfo[][]): Page {
  const columns = table.partitionColumns.map((column, c) =>
    columnFromScalars(
      column.type,
      partitions.map(([info]) => parsePartitionValue(info.partitionValues[c] ?? undefined, column, info.location)),
    ),
  );
  return { rowCount: partitions.length, columns };
}

/** The rows of the engine's own files among the splits (the commit log counts those: committedRowCount). */
async function engineRows(env: PartitionDeleteEnvironment, splits: readonly LakeSplitInfo[]): Promise<number> {
  let rows = 0;
  for (const info of splits) {
    if (writeIdOfFile(baseName(info.location)) === undefined) continue;
    for await (const page of env.read(info, [])) rows += page.rowCount;
  }
  return rows;
}

/** Removes the folders the deleted files leave empty, deepest first (one a new file went into meanwhile stays). */
async function removeEmptyFolders(fs: FileSystem, table: LakeTable, files: readonly string[]): Promise<void> {
  if (fs.removeEmptyDirectory === undefined) return;
  const folders = new Set<string>();
  for (const file of files) {
    for (
      let folder = parentLocation(file);
      folder.length > table.location.length && folder.startsWith(table.location);
      folder = parentLocation(folder)
    )
      folders.add(folder);
  }
  const deepestFirst = [...folders].sort((a, b) => b.length - a.length);
  for (const folder of deepestFirst) await fs.removeEmptyDirectory(folder).catch(() => undefined);
}
