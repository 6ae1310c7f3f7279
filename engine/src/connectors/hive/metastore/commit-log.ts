// Which writes of a table are committed. Writes put their files at their final place under names
// that start with the write's id (write-id.ts); such a file is visible only once its write id is in
// the table's commit log. The log is a series of versions in the table's metadata folder,
//   <table metadata folder>/.engine/commits/<version, 20 digits>.json
// each holding the whole set of committed writes. A commit reads the newest version, adds its write,
// and creates the next version with the file system's create-if-absent: when another commit took
// that version first, it reads again and retries, so that two writes both land and none is lost.
// Versions of an earlier table of the same name (a drop that could not delete them) carry another
// table id and count as empty.

import { EngineError } from '../../../errors/engine-error.js';
import type { FileSystem } from '../file-system/file-system.js';
import { childLocation, relativeLocation } from '../location.js';
import { readJson, toJsonBytes } from './json-files.js';

export interface CommittedWrite {
  writeId: string;
  /** The query that wrote it. */
  queryId: string;
  rows: number;
  files: number;
  bytes: number;
  /** Milliseconds since the epoch. */
  committedAt: number;
  /**
   * Files this write replaces (ALTER TABLE EXECUTE optimize): invisible from this commit on, so the
   * rows move from them to the write's files at once. Their rows counted among committed writes'.
   */
  retired?: { files: string[]; committedRows: number };
}

export interface CommitState {
  tableId: string;
  /** 0: nothing committed yet. */
  version: number;
  writes: CommittedWrite[];
}

const VERSION_FILE = /^(\d{20})\.json$/;
/** Commits retried this often before the write fails (each retry follows a commit that did land). */
const MAX_ATTEMPTS = 1000;

export function commitsDirectory(tableMetadataDirectory: string): string {
  return childLocation(tableMetadataDirectory, '.engine/commits/');
}

/** The newest committed state of the table. */
export async function readCommitState(fs: FileSystem, tableMetadataDirectory: string, tableId: string): Promise<CommitState> {
  for (;;) {
    const version = await newestVersion(fs, tableMetadataDirectory);
    if (version === 0) return { tableId, version, writes: [] };
    const state = await readJson<CommitState>(fs, versionFile(tableMetadataDirectory, version));
    // A version deleted under us: its table was dropped meanwhile; read again.
    if (state === undefined) continue;
    if (!Array.isArray(state.writes))
      throw new EngineError('HIVE_INVALID_METADATA', `${versionFile(tableMetadataDirectory, version)}: not a commit of this engine`);
    return state.tableId === tableId ? { ...state, version } : { tableId, version, writes: [] };
  }
}

/** The files the committed writes retired (files of the table that are no longer visible). */
export function retiredFiles(writes: readonly CommittedWrite[]): Set<string> {
  return new Set(writes.flatMap((w) => w.retired?.files ?? []));
}

/** The rows of the committed writes' files that are still visible. */
export function committedRowCount(writes: readonly CommittedWrite[]): number {
  return writes.reduce((sum, w) => sum + w.rows - (w.retired?.committedRows ?? 0), 0);
}

/**
 * Adds a write to the table's committed writes; returns the version that holds it. A write that
 * retires files fails when another commit retired one of them first (its rows would be twice).
 */
export async function commitWrite(fs: FileSystem, tableMetadataDirectory: string, tableId: string, write: CommittedWrite): Promise<number> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = await readCommitState(fs, tableMetadataDirectory, tableId);
    if (state.writes.some((w) => w.writeId === write.writeId)) return state.version;
    const gone = retiredFiles(state.writes);
    const taken = write.retired?.files.find((f) => gone.has(f));
    if (taken !== undefined)
      throw new EngineError('HIVE_CONCURRENT_MODIFICATION_DETECTED', `File ${taken} was rewritten by another write meanwhile`);
    const next: CommitState = { tableId, version: state.version + 1, writes: [...state.writes, write] };
    if (await fs.createExclusive(versionFile(tableMetadataDirectory, next.version), toJsonBytes(next))) return next.version;
  }
  throw new EngineError(
    'HIVE_CONCURRENT_MODIFICATION_DETECTED',
    `Could not commit write ${write.writeId} to ${tableMetadataDirectory}: ${MAX_ATTEMPTS} other commits came first`,
  );
}

async function newestVersion(fs: FileSystem, tableMetadataDirectory: string): Promise<number> {
  const directory = commitsDirectory(tableMetadataDirectory);
  let newest = 0;
  for await (const file of fs.listFiles(directory)) {
    const match = VERSION_FILE.exec(relativeLocation(directory, file.location));
    if (match !== null) newest = Math.max(newest, Number(match[1]));
  }
  return newest;
}

function versionFile(tableMetadataDirectory: string, version: number): string {
  return childLocation(commitsDirectory(tableMetadataDirectory), `${String(version).padStart(20, '0')}.json`);
}
