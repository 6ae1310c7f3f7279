// The end of a write: its commit adds the write id to the table's commit log (all its files, from
// every writer, become visible at once); its abort deletes the files named by its write id, found by
// listing the table's folder (so also those of writers on nodes that are gone), unless it committed.

import type { FileSystem } from '../file-system/file-system.js';
import { baseName } from '../location.js';
import { type CommittedWrite, commitWrite, readCommitState } from '../metastore/commit-log.js';
import type { WriteFragment, WriteHandle } from './write-handle.js';
import { writeIdOfFile } from './write-id.js';

/** Commits the write with the fragments of all its writers (and the files it replaces, `retired`); returns the rows it added. */
export async function commitFragments(
  fs: FileSystem,
  handle: WriteHandle,
  fragments: readonly WriteFragment[],
  retired?: CommittedWrite['retired'],
): Promise<number> {
  const rows = fragments.reduce((sum, f) => sum + f.rows, 0);
  const bytes = fragments.reduce((sum, f) => sum + f.bytes, 0);
  await commitWrite(fs, handle.metadataDirectory, handle.tableId, {
    writeId: handle.writeId,
    queryId: handle.queryId,
    rows,
    files: fragments.length,
    bytes,
    committedAt: Date.now(),
    ...(retired === undefined ? {} : { retired }),
  });
  return rows;
}

/**
 * Deletes the write's files (best effort: files of a write never committed are invisible anyway);
 * a committed write is left alone.
 */
export async function abortWriteFiles(metadataFs: FileSystem, dataFs: FileSystem, handle: WriteHandle): Promise<void> {
  const state = await readCommitState(metadataFs, handle.metadataDirectory, handle.tableId);
  if (state.writes.some((w) => w.writeId === handle.writeId)) return;
  const deletions: Promise<void>[] = [];
  for await (const file of dataFs.listFiles(handle.location)) {
    if (writeIdOfFile(baseName(file.location)) === handle.writeId) deletions.push(dataFs.deleteFile(file.location));
  }
  await Promise.allSettled(deletions);
}
