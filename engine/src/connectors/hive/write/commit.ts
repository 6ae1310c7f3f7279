// The end of a write: its commit adds the write id to the table's commit log (all its files become
// visible at once); its abort deletes the files its writers reported.

import type { FileSystem } from '../file-system/file-system.js';
import { commitWrite } from '../metastore/commit-log.js';
import type { WriteFragment, WriteHandle } from './write-handle.js';

/** Commits the write; returns the rows it added. */
export async function commitFragments(fs: FileSystem, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<number> {
  const rows = fragments.reduce((sum, f) => sum + f.rows, 0);
  const bytes = fragments.reduce((sum, f) => sum + f.bytes, 0);
  await commitWrite(fs, handle.metadataDirectory, handle.tableId, { writeId: handle.writeId, queryId: handle.queryId, rows, files: fragments.length, bytes, committedAt: Date.now() });
  return rows;
}

/** Deletes a write's files (best effort: files of a write never committed are invisible anyway). */
export async function abortFragments(fs: FileSystem, fragments: readonly WriteFragment[]): Promise<void> {
  await Promise.allSettled(fragments.map((f) => fs.deleteFile(f.location)));
}
