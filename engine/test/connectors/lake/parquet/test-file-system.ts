// A FileSystem over a local folder for the Parquet format's tests (the connector's own
// local-file-system.ts is built separately); counts the ranged reads it serves.

import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileEntry, FileSystem, OutputStream } from '../../../../src/connectors/hive/file-system/file-system.js';

export class TestFileSystem implements FileSystem {
  readRequests = 0;

  async *listFiles(directory: string): AsyncIterable<FileEntry> {
    const dir = fileURLToPath(directory);
    const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const entry = await this.stat(pathToFileURL(join(dir, name)).href);
      if (entry !== undefined) yield entry;
    }
  }

  async stat(location: string): Promise<FileEntry | undefined> {
    const s = await stat(fileURLToPath(location)).catch(() => undefined);
    return s?.isFile() ? { location, size: s.size, lastModified: s.mtimeMs } : undefined;
  }

  async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    this.readRequests++;
    const handle = await open(fileURLToPath(location), 'r');
    try {
      const buffer = new Uint8Array(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buffer, read, length - read, offset + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  }

  async create(location: string): Promise<OutputStream> {
    const path = fileURLToPath(location);
    const chunks: Uint8Array[] = [];
    return {
      write: async (chunk) => void chunks.push(chunk.slice()),
      close: async () => {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, Buffer.concat(chunks));
      },
      abort: async () => void (chunks.length = 0),
    };
  }

  async createExclusive(location: string, data: Uint8Array): Promise<boolean> {
    const path = fileURLToPath(location);
    await mkdir(dirname(path), { recursive: true });
    return writeFile(path, data, { flag: 'wx' }).then(
      () => true,
      () => false,
    );
  }

  async deleteFile(location: string): Promise<void> {
    await rm(fileURLToPath(location), { force: true });
  }

  async deleteDirectory(directory: string): Promise<void> {
    await rm(fileURLToPath(directory), { recursive: true, force: true });
  }
}
