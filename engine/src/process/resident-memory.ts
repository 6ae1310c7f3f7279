// The process's resident memory for the memory guard (heap-guard.ts), read cheaply and only as often
// as it can matter. process.memoryUsage.rss() opens, reads and closes /proc/self/stat, whose kernel
// side also walks every thread of the process: on a busy worker the guard's reads of it cost ~9 ms
// of CPU per query. Here /proc/self/statm stays open and is read with one pread (the kernel reads
// two counters), and a reservation's check reads it only when the process may have grown up to its
// bound since the last reading: the further below, the longer it can wait (up to the guard's timer
// period, which reads it every time).

import { closeSync, openSync, readSync } from 'node:fs';

/** How fast the process is assumed to be able to grow: a few threads touching fresh pages (measured ~1-2 GB/s each). */
const MAX_GROWTH_BYTES_PER_MILLI = 4 * 1024 * 1024;
/** The longest a reservation's check goes without a reading: the guard's timer reads at this period anyway. */
export const MAX_RESIDENT_READ_INTERVAL_MILLIS = 100;

/**
 * How long a reservation's check may go without reading the resident size, `headroomBytes` below
 * the bound at the last reading: the time the process needs to grow that much (0 at or over it).
 */
export function residentReadIntervalMillis(headroomBytes: number): number {
  if (headroomBytes <= 0) return 0;
  return Math.min(MAX_RESIDENT_READ_INTERVAL_MILLIS, Math.floor(headroomBytes / MAX_GROWTH_BYTES_PER_MILLI));
}

/** Reads /proc/self/statm through a descriptor kept open; undefined where there is none (not Linux). */
class StatmReader {
  private readonly buffer = Buffer.alloc(128);
  private pageBytes = 0;

  private constructor(private readonly fd: number) {}

  static open(): StatmReader | undefined {
    let fd: number;
    try {
      fd = openSync('/proc/self/statm', 'r');
    } catch {
      return undefined;
    }
    const reader = new StatmReader(fd);
    const pages = reader.residentPages();
    const rss = process.memoryUsage.rss();
    if (pages === undefined || pages <= 0) {
      closeSync(fd);
      return undefined;
    }
    // The page size, which statm counts in: the power of two nearest the ratio of the two readings.
    reader.pageBytes = 2 ** Math.round(Math.log2(rss / pages));
    return reader;
  }

  bytes(): number | undefined {
    const pages = this.residentPages();
    return pages === undefined ? undefined : pages * this.pageBytes;
  }

  /** statm: "size resident shared text lib data dt", in pages. */
  private residentPages(): number | undefined {
    const length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    const text = this.buffer.toString('latin1', 0, length);
    const start = text.indexOf(' ') + 1;
    const end = text.indexOf(' ', start);
    const pages = Number(text.slice(start, end));
    return start > 0 && end > start && Number.isSafeInteger(pages) ? pages : undefined;
  }
}

let statm: StatmReader | undefined | null = null;

/** The process's resident size now, in bytes. */
export function residentBytes(): number {
  if (statm === null) statm = StatmReader.open();
  return statm?.bytes() ?? process.memoryUsage.rss();
}
