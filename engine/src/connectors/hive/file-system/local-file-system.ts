// The file:// file system: a local folder, or a volume every node mounts at the same path. A new
// file is written to a hidden temporary name beside it and renamed into place on close, so that it
// appears whole; createExclusive links a written temporary file to the name, which fails when one is
// there (link is atomic on every local and network file system Node runs on).

import { randomBytes } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, rmdir, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EngineError } from '../../../errors/engine-error.js';
import type { ErrorName } from '../../../errors/error-codes.js';
import type { FileEntry, FileSystem, OutputStream } from './file-system.js';
import type { FileReader } from './file-reader.js';

export class LocalFileSystem implements FileSystem {
  async *listFiles(directory: string, signal?: AbortSignal): AsyncIterable<FileEntry> {
    yield* this.walk(directoryPath(directory), signal);
  }

  async listDirectories(directory: string): Promise<string[]> {
    const path = directoryPath(directory);
    const entries = await readDirectory(path);
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(compareText)
      .map((name) => locationOf(`${path}/${name}`, true));
  }

  async stat(location: string): Promise<FileEntry | undefined> {
    const path = filePath(location);
    try {
      const s = await stat(path);
      return s.isFile() ? { location, size: s.size, lastModified: s.mtimeMs } : undefined;
    } catch (e) {
      if (errorCode(e) === 'ENOENT' || errorCode(e) === 'ENOTDIR') return undefined;
      throw fileSystemError(e, location);
    }
  }

  async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    const handle = await openForReading(location);
    try {
      return await readFully(handle, location, offset, length);
    } finally {
      await handle.close();
    }
  }

  openReader(location: string): FileReader {
    return new LocalFileReader(this, location);
  }

  async create(location: string): Promise<OutputStream> {
    const path = filePath(location);
    const temporary = temporaryPath(path);
    let handle: FileHandle;
    try {
      await mkdir(dirname(path), { recursive: true });
      handle = await open(temporary, 'w');
    } catch (e) {
      throw fileSystemError(e, location);
    }
    let open_ = true;
    const finish = async (keep: boolean) => {
      if (!open_) return;
      open_ = false;
      await handle.close();
      if (keep) await rename(temporary, path);
      else await unlink(temporary).catch(() => undefined);
    };
    return {
      write: async (chunk) => {
        try {
          await handle.write(chunk);
        } catch (e) {
          throw fileSystemError(e, location);
        }
      },
      close: async () => {
        try {
          await finish(true);
        } catch (e) {
          throw fileSystemError(e, location);
        }
      },
      abort: () => finish(false),
    };
  }

  async createExclusive(location: string, data: Uint8Array): Promise<boolean> {
    const path = filePath(location);
    const temporary = temporaryPath(path);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, data, { flag: constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY });
      await link(temporary, path);
      return true;
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return false;
      throw fileSystemError(e, location);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  async deleteFile(location: string): Promise<void> {
    try {
      await unlink(filePath(location));
    } catch (e) {
      if (errorCode(e) !== 'ENOENT') throw fileSystemError(e, location);
    }
  }

  async deleteDirectory(directory: string): Promise<void> {
    try {
      await rm(directoryPath(directory), { recursive: true, force: true });
    } catch (e) {
      throw fileSystemError(e, directory);
    }
  }

  async removeEmptyDirectory(directory: string): Promise<void> {
    try {
      await rmdir(directoryPath(directory));
    } catch (e) {
      if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(errorCode(e) ?? '')) throw fileSystemError(e, directory);
    }
  }

  /**
   * Files below `path` in ascending order of their locations: a directory's entries are sorted as
   * their locations sort (a folder's name followed by `/`), and each folder is walked in its place.
   */
  private async *walk(path: string, signal?: AbortSignal): AsyncIterable<FileEntry> {
    signal?.throwIfAborted();
    const entries = await readDirectory(path);
    const keyed = entries
      .filter((e) => e.isDirectory() || e.isFile())
      .map((e) => ({ entry: e, key: e.isDirectory() ? `${e.name}/` : e.name }));
    keyed.sort((a, b) => compareText(a.key, b.key));
    for (const { entry } of keyed) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory()) {
        yield* this.walk(child, signal);
        continue;
      }
      const location = locationOf(child, false);
      try {
        const s = await stat(child);
        yield { location, size: s.size, lastModified: s.mtimeMs };
      } catch (e) {
        // Deleted since the directory was read: not listed.
        if (errorCode(e) !== 'ENOENT') throw fileSystemError(e, location);
      }
    }
  }
}

/**
 * One local file open for the reads of a split: opened at its first read, closed once by `close`. A
 * read after `close` opens the file for itself (a footer read that another split of the thread
 * shares may outlive the split that started it).
 */
class LocalFileReader implements FileReader {
  private handle: Promise<FileHandle> | undefined;
  private closed = false;

  constructor(
    private readonly fs: LocalFileSystem,
    private readonly location: string,
  ) {}

  async readRange(offset: number, length: number): Promise<Uint8Array> {
    if (this.closed) return this.fs.readRange(this.location, offset, length);
    this.handle ??= openForReading(this.location);
    return readFully(await this.handle, this.location, offset, length);
  }

  /** Closes the file once reads in flight end (FileHandle.close waits for them). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const handle = await this.handle?.catch(() => undefined);
    await handle?.close();
  }
}

async function openForReading(location: string): Promise<FileHandle> {
  try {
    return await open(filePath(location), 'r');
  } catch (e) {
    throw fileSystemError(e, location);
  }
}

/** Bytes [offset, offset + length) of the open file; fewer only past its end. */
async function readFully(handle: FileHandle, location: string, offset: number, length: number): Promise<Uint8Array> {
  try {
    const buffer = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === length ? buffer : buffer.subarray(0, filled);
  } catch (e) {
    throw fileSystemError(e, location);
  }
}

/** Compares as the stores order keys (code units; the same as UTF-8 byte order below U+10000). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function readDirectory(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (e) {
    if (errorCode(e) === 'ENOENT' || errorCode(e) === 'ENOTDIR') return [];
    throw fileSystemError(e, locationOf(path, true));
  }
}

function temporaryPath(path: string): string {
  return `${dirname(path)}/.tmp-${randomBytes(8).toString('hex')}`;
}

function filePath(location: string): string {
  if (location.endsWith('/')) throw new EngineError('HIVE_FILESYSTEM_ERROR', `Location ${location} is a directory, not a file`);
  return pathOf(location);
}

function directoryPath(location: string): string {
  const path = pathOf(location);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The path of a file:// location. Locations hold paths as they are (as Trino's do, and as S3 keys
 * are), not percent-encoded: `file:///data/dt=a%2Fb/` is the folder named `dt=a%2Fb`.
 */
function pathOf(location: string): string {
  const match = /^file:(?:\/\/)?(\/.*)$/.exec(location);
  if (match === null)
    throw new EngineError('HIVE_FILESYSTEM_ERROR', `Location ${location} is not a file:// location with an absolute path (file:///path)`);
  return match[1];
}

function locationOf(path: string, directory: boolean): string {
  return `file://${path}${directory && !path.endsWith('/') ? '/' : ''}`;
}

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

const REASONS: Record<string, { name: ErrorName; reason: string }> = {
  ENOENT: { name: 'HIVE_FILE_NOT_FOUND', reason: 'does not exist' },
  EACCES: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'permission denied' },
  EPERM: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'permission denied' },
  EISDIR: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'is a directory' },
  ENOTDIR: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'a parent is not a directory' },
  ENOSPC: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'no space left on the device' },
  EROFS: { name: 'HIVE_FILESYSTEM_ERROR', reason: 'read-only file system' },
};

/** An I/O failure as an EngineError naming the location. */
function fileSystemError(e: unknown, location: string): EngineError {
  if (e instanceof EngineError) return e;
  const code = errorCode(e);
  const known = code === undefined ? undefined : REASONS[code];
  if (known !== undefined) return new EngineError(known.name, `${location}: ${known.reason}`);
  return new EngineError('HIVE_FILESYSTEM_ERROR', `${location}: ${(e as Error).message}`);
}
