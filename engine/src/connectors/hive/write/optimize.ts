// ALTER TABLE ... EXECUTE optimize on the lake, as Trino's Hive connector does it: the visible files
// smaller than file_size_threshold (of the partitions a WHERE selects) are read and their rows written
// again, into as few files as the writer's target size gives per partition. Unlike Trino's (which
// deletes the old files after committing the new ones, so a failure between can leave rows twice),
// the commit is atomic like an INSERT's: the one commit-log version that makes the new files visible
// retires the old ones (commit-log.ts), so a reader sees the rows once, before or after; a failure
// before it leaves the table as it was. The old files are deleted after the commit (best effort:
// retired, they are invisible anyway). Gated, as in Trino, by the catalog session property
// non_transactional_optimize_enabled; external tables are refused as for INSERT.

import { EngineError } from '../../../errors/engine-error.js';
import type { PageSource } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import type { Session } from '../../../spi/session.js';
import type { FileSystem } from '../file-system/file-system.js';
import { fileFormat } from '../formats/file-formats.js';
import { baseName, relativeLocation } from '../location.js';
import { readCommitState, retiredFiles } from '../metastore/commit-log.js';
import type { LakeTable } from '../metastore/lake-table.js';
import type { LakeSplitInfo } from '../splits/lake-split.js';
import { partitionFolderName } from '../splits/partitions.js';
import { listSplits } from '../splits/split-lister.js';
import { abortWriteFiles, commitFragments } from './commit.js';
import type { LakePageSink } from './page-sink.js';
import type { WriteHandle } from './write-handle.js';
import { writeIdOfFile } from './write-id.js';

export const OPTIMIZE = 'OPTIMIZE';
export const OPTIMIZE_ENABLED_PROPERTY = 'non_transactional_optimize_enabled';

export interface OptimizeEnvironment {
  catalog: string;
  session: Session;
  table: LakeTable;
  /** The table's data file system, and the catalog's metadata file system (commit log). */
  dataFs: FileSystem;
  metadataFs: FileSystem;
  beginWrite(): Promise<WriteHandle>;
  pageSink(handle: WriteHandle): LakePageSink;
  read(info: LakeSplitInfo, columns: readonly string[]): PageSource;
}

/** Rewrites the table's files under `thresholdBytes` (in `partitions`, each a partition's values, when given). */
export async function optimizeTable(env: OptimizeEnvironment, thresholdBytes: number, partitions?: readonly Scalar[][]): Promise<void> {
  const { session, table } = env;
  if (session.properties.get(`${env.catalog}.${OPTIMIZE_ENABLED_PROPERTY}`)?.toLowerCase() !== 'true') {
    throw new EngineError(
      'NOT_SUPPORTED',
      `OPTIMIZE procedure must be explicitly enabled via ${OPTIMIZE_ENABLED_PROPERTY} session property`,
    );
  }
  const handle = await env.beginWrite(); // refuses an external table, as INSERT does
  const folders = partitions?.map((values) => table.partitionColumns.map((c, i) => `${partitionFolderName(c, values[i])}/`).join(''));
  const selected = await smallFiles(env, handle, thresholdBytes, folders === undefined ? undefined : new Set(folders));
  if (selected.length === 0) return;
  const columns = [...table.dataColumns, ...table.partitionColumns].map((c) => c.name);
  const sink = env.pageSink(handle);
  let committed = false;
  try {
    let engineRows = 0;
    for (const info of selected) {
      const ownFile = writeIdOfFile(baseName(info.location)) !== undefined;
      for await (const page of env.read(info, columns)) {
        if (ownFile) engineRows += page.rowCount;
        await sink.appendPage(page);
      }
    }
    const fragments = await sink.finish();
    const files = [...new Set(selected.map((info) => info.location))];
    await commitFragments(env.metadataFs, handle, fragments, { files, committedRows: engineRows });
    committed = true;
    await Promise.allSettled(files.map((f) => env.dataFs.deleteFile(f)));
  } finally {
    if (!committed) {
      await sink.abort();
      await abortWriteFiles(env.metadataFs, env.dataFs, handle);
    }
  }
}

/** The splits of the visible files smaller than the threshold, in the selected partition folders. */
async function smallFiles(
  env: OptimizeEnvironment,
  handle: WriteHandle,
  thresholdBytes: number,
  folders: ReadonlySet<string> | undefined,
): Promise<LakeSplitInfo[]> {
  const { table } = env;
  const { writes } = await readCommitState(env.metadataFs, handle.metadataDirectory, table.tableId);
  const listing = {
    fs: env.dataFs,
    table,
    format: fileFormat(table.format),
    committed: new Set(writes.map((w) => w.writeId)),
    retired: retiredFiles(writes),
  };
  const selected: LakeSplitInfo[] = [];
  for await (const info of listSplits(listing)) {
    if (info.size >= thresholdBytes) continue;
    const path = relativeLocation(table.location, info.location);
    if (folders !== undefined && !folders.has(path.slice(0, path.lastIndexOf('/') + 1))) continue;
    selected.push(info);
  }
  return selected;
}
