// Byte ranges of a file fetched for one row group, looked up by file offset. Reads are planned as
// ranges (column chunks, pages, the dictionary region), nearby ones merged into one request, and
// fetched a few at a time; decoders then ask for bytes by their file offsets.

import type { FileSystem } from '../../file-system/file-system.js';
import { ParquetDataError } from './parquet-errors.js';

export interface ByteRange {
  offset: number;
  length: number;
}

/** Ranges closer than this are read as one request (a request costs more than a few KiB read). */
const MERGE_GAP = 64 * 1024;
/** A merged request stays below this, so that several stay in flight. */
const MAX_MERGED = 8 * 1024 * 1024;
/** Requests in flight per reader. */
export const READS_IN_FLIGHT = 4;

export class FetchedBytes {
  private readonly parts: { offset: number; bytes: Uint8Array }[] = [];

  add(offset: number, bytes: Uint8Array): void {
    this.parts.push({ offset, bytes });
  }

  /** The fetched bytes from `offset` to the end of the fetched range holding it. */
  from(offset: number): Uint8Array {
    for (const p of this.parts) {
      if (offset >= p.offset && offset < p.offset + p.bytes.length) return p.bytes.subarray(offset - p.offset);
    }
    throw new ParquetDataError(`offset ${offset} lies outside the data read (past the end of the file?)`);
  }

  slice(offset: number, length: number): Uint8Array {
    const bytes = this.from(offset);
    if (length > bytes.length) throw new ParquetDataError(`a page of ${length} bytes at offset ${offset} runs past its column chunk`);
    return bytes.subarray(0, length);
  }
}

/** Sorted, merged requests covering `ranges`. */
export function mergeRanges(ranges: readonly ByteRange[]): ByteRange[] {
  const sorted = ranges.filter((r) => r.length > 0).sort((a, b) => a.offset - b.offset);
  const out: ByteRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    const end = r.offset + r.length;
    if (last !== undefined && r.offset <= last.offset + last.length + MERGE_GAP && end - last.offset <= MAX_MERGED) {
      last.length = Math.max(last.length, end - last.offset);
    } else out.push({ offset: r.offset, length: r.length });
  }
  return out;
}

/** Fetches the ranges, at most READS_IN_FLIGHT at once; resolves to the bytes and their total length. */
export async function fetchRanges(
  fs: FileSystem,
  location: string,
  ranges: readonly ByteRange[],
  signal?: AbortSignal,
): Promise<{ bytes: FetchedBytes; total: number }> {
  const requests = mergeRanges(ranges);
  const fetched = new FetchedBytes();
  let total = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const r = requests[next++];
      signal?.throwIfAborted();
      const bytes = await fs.readRange(location, r.offset, r.length, signal);
      if (bytes.length < r.length)
        throw new ParquetDataError(`the file ends within bytes ${r.offset}..${r.offset + r.length} its metadata points at (truncated?)`);
      fetched.add(r.offset, bytes);
      total += bytes.length;
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, requests.length) }, worker));
  return { bytes: fetched, total };
}
