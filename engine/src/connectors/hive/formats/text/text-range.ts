// The text of a byte range of a newline-delimited file (CSV, JSON lines): the lines that START in
// the range, each whole (the last one read past the range's end), the first partial line left to
// the range before. A compressed file (.gz) is one range: its text is its whole decompressed stream.
// The text comes as chunks that each end at a line end (or at the end of the file).

import { createGunzip } from 'node:zlib';
import { EngineError } from '../../../../errors/engine-error.js';
import type { FileEntry, FileSystem } from '../../file-system/file-system.js';
import type { FileRange, ReadStats } from '../file-format.js';

/** Bytes read per request. */
export const READ_CHUNK_BYTES = 1 << 20;
const NEWLINE = 10;

export function isCompressed(location: string): boolean {
  return /\.gz$/i.test(location);
}

/** Compressions text files may have that this reader cannot undo: such a file fails, naming it, rather than read as text. */
const UNSUPPORTED_COMPRESSION = /\.(bz2|zst|lz4|snappy|deflate|br|xz|lzo)$/i;

export class TextRange {
  /** Offset (in the decompressed stream) of the range's first line, once known. */
  firstLineOffset = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly fs: FileSystem,
    readonly file: FileEntry,
    private readonly range: FileRange,
    private readonly stats: ReadStats,
    private readonly signal?: AbortSignal,
  ) {}

  /** Chunks of text, each ending at a line end except perhaps the file's last. */
  async *chunks(): AsyncIterable<string> {
    const unsupported = UNSUPPORTED_COMPRESSION.exec(this.file.location);
    if (unsupported !== null)
      throw new EngineError(
        'NOT_SUPPORTED',
        `${this.file.location}: ${unsupported[1]} compression is not supported (text files may be plain or .gz)`,
      );
    const compressed = isCompressed(this.file.location);
    const start = compressed ? 0 : this.range.start;
    const end = compressed ? Infinity : this.range.start + this.range.length;
    let offset = start === 0 ? 0 : start - 1;
    let begun = start === 0;
    let pending: Uint8Array | undefined;
    let first = true;
    for await (const raw of compressed ? this.gunzipped() : this.plain(offset)) {
      let bytes = raw;
      const bytesOffset = offset;
      offset += raw.length;
      if (!begun) {
        // The range's first line starts after the first line end at or after start - 1.
        const newline = bytes.indexOf(NEWLINE);
        if (newline < 0) {
          if (offset >= end) return;
          continue;
        }
        this.firstLineOffset = bytesOffset + newline + 1;
        if (this.firstLineOffset >= end) return;
        bytes = bytes.subarray(newline + 1);
        begun = true;
      }
      const combined = pending === undefined ? bytes : concat(pending, bytes);
      const combinedOffset = offset - combined.length;
      // Lines starting at index < limit are the range's; the line holding index limit - 1 is its last.
      const limit = end - combinedOffset;
      let cut: number;
      let done = false;
      if (limit <= combined.length) {
        const lastEnd = combined.indexOf(NEWLINE, Math.max(0, limit - 1));
        if (lastEnd >= 0) {
          cut = lastEnd + 1;
          done = true;
        } else {
          cut = combined.lastIndexOf(NEWLINE) + 1;
        }
      } else {
        cut = combined.lastIndexOf(NEWLINE) + 1;
      }
      pending = cut < combined.length ? combined.slice(cut) : undefined;
      if (cut > 0) {
        yield this.decode(combined.subarray(0, cut), first);
        first = false;
      }
      if (done) return;
    }
    if (pending !== undefined && pending.length > 0) yield this.decode(pending, first);
  }

  private decode(bytes: Uint8Array, first: boolean): string {
    const text = this.decoder.decode(bytes);
    // A byte-order mark opens the file, not its first value.
    return first && this.firstLineOffset === 0 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /** The file's bytes from `offset` on, a chunk per request. */
  private async *plain(offset: number): AsyncIterable<Uint8Array> {
    let position = offset;
    while (position < this.file.size) {
      this.signal?.throwIfAborted();
      const bytes = await this.fs.readRange(
        this.file.location,
        position,
        Math.min(READ_CHUNK_BYTES, this.file.size - position),
        this.signal,
      );
      if (bytes.length === 0) {
        throw new EngineError(
          'HIVE_BAD_DATA',
          `${this.file.location}: the file ended at byte ${position}, before the ${this.file.size} bytes it had when the query was planned`,
        );
      }
      this.stats.bytesRead += bytes.length;
      position += bytes.length;
      yield bytes;
    }
  }

  /** The decompressed stream of a gzip file. */
  private async *gunzipped(): AsyncIterable<Uint8Array> {
    const gunzip = createGunzip();
    const feed = (async () => {
      try {
        for await (const bytes of this.plain(0)) {
          if (!gunzip.write(bytes)) await new Promise<void>((resolve) => gunzip.once('drain', resolve));
        }
        gunzip.end();
      } catch (e) {
        gunzip.destroy(e as Error);
      }
    })();
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    } catch (e) {
      if (e instanceof EngineError) throw e;
      throw new EngineError('HIVE_BAD_DATA', `${this.file.location}: not a readable gzip file (${(e as Error).message})`);
    } finally {
      gunzip.destroy();
      await feed;
    }
  }

  /** The line number in the file of the range's `line`-th line (1-based): counts the lines before the range, on the error path only. */
  async absoluteLine(line: number): Promise<number> {
    if (this.firstLineOffset === 0) return line;
    let before = 0;
    for (let position = 0; position < this.firstLineOffset; position += READ_CHUNK_BYTES) {
      const bytes = await this.fs.readRange(this.file.location, position, Math.min(READ_CHUNK_BYTES, this.firstLineOffset - position));
      for (let i = 0; i < bytes.length; i++) if (bytes[i] === NEWLINE) before++;
    }
    return before + line;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
