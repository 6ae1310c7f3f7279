// One file read range by range while a split reads it: a local file is opened once for all of its
// reads (a split of a Parquet file reads its footer, dictionaries and every row group's column
// chunks: opening and closing the file for each read cost more than some of the reads), and closed
// when the split ends, fails or is cancelled. Stores without handles (S3) read each range on its own.

import type { FileEntry, FileSystem, OutputStream } from './file-system.js';

/** Reads of one file; `close` releases what it holds (reads after it fail). */
export interface FileReader {
  readRange(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A reader of `location`: the file system's own (one open file) when it has one, else its readRange per range. */
export function openFileReader(fs: FileSystem, location: string): FileReader {
  return (
    fs.openReader?.(location) ?? {
      readRange: (offset, length, signal) => fs.readRange(location, offset, length, signal),
      close: async () => undefined,
    }
  );
}

/**
 * `fs` with the reads of `reader`'s file going through it (the Parquet reader and the footer cache
 * are handed this instead of `fs`); everything else goes to `fs`.
 */
export class ReaderFileSystem implements FileSystem {
  constructor(
    private readonly fs: FileSystem,
    private readonly location: string,
    private readonly reader: FileReader,
  ) {}

  readRange(location: string, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    return location === this.location ? this.reader.readRange(offset, length, signal) : this.fs.readRange(location, offset, length, signal);
  }

  listFiles(directory: string, signal?: AbortSignal): AsyncIterable<FileEntry> {
    return this.fs.listFiles(directory, signal);
  }

  listDirectories(directory: string, signal?: AbortSignal): Promise<string[]> {
    return this.fs.listDirectories(directory, signal);
  }

  stat(location: string, signal?: AbortSignal): Promise<FileEntry | undefined> {
    return this.fs.stat(location, signal);
  }

  create(location: string): Promise<OutputStream> {
    return this.fs.create(location);
  }

  createExclusive(location: string, data: Uint8Array): Promise<boolean> {
    return this.fs.createExclusive(location, data);
  }

  deleteFile(location: string): Promise<void> {
    return this.fs.deleteFile(location);
  }

  deleteDirectory(directory: string): Promise<void> {
    return this.fs.deleteDirectory(directory);
  }
}
