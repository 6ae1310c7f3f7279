// Decoded footers of the Parquet files this thread reads, kept by file version (fileVersionKey:
// location, size, modification time, entity tag). A file is read as several splits (byte ranges),
// each of which needs the whole footer: a writer that puts a table in one large file (DuckDB's COPY)
// gives a footer of many row groups that every split would read and decode again. A file whose
// store reports neither a modification time nor an entity tag is never cached.

import { fileVersionKey, type FileEntry, type FileSystem } from '../../file-system/file-system.js';
import type { FileMetaData } from './file-metadata.js';
import { readFooter, type Footer } from './footer.js';

/** Footers remembered per thread, and the most footer bytes they may hold together; past either the least recently used goes. */
const MAX_ENTRIES = 64;
const MAX_FOOTER_BYTES = 4 * 1024 * 1024;

interface Entry {
  metadata: Promise<FileMetaData>;
  bytes: number;
}

/** Map order is insertion order: the first key is the least recently used. */
const entries = new Map<string, Entry>();
let heldBytes = 0;

/** The file's footer: bytesRead is 0 when this thread already decoded the same file version's (concurrent asks read it once). */
export async function cachedFooter(fs: FileSystem, file: FileEntry, signal?: AbortSignal): Promise<Footer> {
  const key = fileVersionKey(file);
  if (key === undefined) return readFooter(fs, file, signal);
  const cached = entries.get(key);
  if (cached !== undefined) {
    entries.delete(key);
    entries.set(key, cached);
    return { metadata: await cached.metadata, bytesRead: 0 };
  }
  const reading = readFooter(fs, file, signal);
  const entry: Entry = { metadata: reading.then((f) => f.metadata), bytes: 0 };
  entry.metadata.catch(() => undefined); // Its failure reaches the caller through `reading`.
  entries.set(key, entry);
  try {
    const footer = await reading;
    if (entries.get(key) === entry) {
      entry.bytes = footer.bytesRead;
      heldBytes += entry.bytes;
      evict();
    }
    return footer;
  } catch (e) {
    // A failed read is not remembered: the next split tries the file again.
    if (entries.get(key) === entry) entries.delete(key);
    throw e;
  }
}

function evict(): void {
  while (entries.size > MAX_ENTRIES || (heldBytes > MAX_FOOTER_BYTES && entries.size > 1)) {
    const [oldest, entry] = entries.entries().next().value!;
    entries.delete(oldest);
    heldBytes -= entry.bytes;
  }
}
