// What a test process uses, read from /proc on Linux: CPU time and resident memory of a server the
// test started, to check that work stops and memory stays bounded.

import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

/** User plus system CPU time of the process (all its threads), in milliseconds. */
export function processCpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command: state is index 0, so utime (field 14 of stat) is index 11.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident set size of the process in bytes. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]) * 1024;
}
