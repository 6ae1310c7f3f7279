// Where a lake's files live, behind one interface: a local folder (file://, which may be a volume
// every node mounts) or a bucket of any S3-compatible store (s3://). Locations are always full URIs
// (`file:///data/orders/part-0.parquet`, `s3://bucket/orders/part-0.parquet`); directories are
// locations ending in `/`. Every operation fails with an EngineError that names the location.

import type { FileReader } from './file-reader.js';

/** A file as a listing or a lookup reports it. */
export interface FileEntry {
  location: string;
  /** Bytes. */
  size: number;
  /** Milliseconds since the epoch, when the store reports it. */
  lastModified?: number;
  /** The store's entity tag of this version of the object (S3's ETag), when it reports one. */
  etag?: string;
}

/**
 * A key naming one version of a file, for caches of what was read from it; undefined when the store
 * reports neither a modification time nor an entity tag (location and size alone do not say it is
 * the same file). S3's Last-Modified has one-second resolution: an object rewritten within the same
 * second at the same size differs only in its ETag.
 */
export function fileVersionKey(file: FileEntry): string | undefined {
  if (file.lastModified === undefined && file.etag === undefined) return undefined;
  return JSON.stringify([file.location, file.size, file.lastModified ?? null, file.etag ?? null]);
}

/** Where written bytes go: the file appears, whole, when `close` resolves; `abort` leaves nothing. */
export interface OutputStream {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

export interface FileSystem {
  /**
   * The files below a directory, at any depth, in ascending order of location, as the store pages
   * them (a listing of 100,000 files is never held at once). A directory that does not exist lists
   * nothing.
   */
  listFiles(directory: string, signal?: AbortSignal): AsyncIterable<FileEntry>;
  /**
   * The directories directly below a directory (full locations ending in `/`), in ascending order; a
   * directory that does not exist has none. Partition folders are pruned with it before anything
   * below them is listed (S3: a listing with delimiter `/`, its common prefixes).
   */
  listDirectories(directory: string, signal?: AbortSignal): Promise<string[]>;
  /** The file, or undefined when there is none at the location. */
  stat(location: string, signal?: AbortSignal): Promise<FileEntry | undefined>;
  /** Bytes [offset, offset + length) of the file; fewer only past its end. */
  readRange(location: string, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** The file open for many range reads (file-reader.ts), where the store has open files; else readRange serves each. */
  openReader?(location: string): FileReader;
  /** A new file (replacing one at the location) written in chunks. */
  create(location: string): Promise<OutputStream>;
  /**
   * Writes the file only if none exists at the location: true when written, false when one was
   * there. The one atomic compare-and-set commits rely on.
   */
  createExclusive(location: string, data: Uint8Array): Promise<boolean>;
  deleteFile(location: string): Promise<void>;
  /** Deletes every file below the directory (a no-op when there is none). */
  deleteDirectory(directory: string): Promise<void>;
  /** Removes the directory if it is empty (stores without real directories, S3, leave this out: theirs vanish with their last file). */
  removeEmptyDirectory?(directory: string): Promise<void>;
}
