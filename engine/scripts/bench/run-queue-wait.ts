// How long a process's main thread waited, runnable, for a CPU (/proc/<pid>/task/<pid>/schedstat, its
// second field in nanoseconds): on a busy machine, the part of a pull's wall time that is the
// scheduler's rather than the engine's or the client's work.

import { readFileSync } from 'node:fs';

/** Milliseconds so far, or undefined where /proc does not tell. */
export function mainThreadRunQueueWaitMillis(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const waitedNanos = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ')[1]);
    return Number.isFinite(waitedNanos) ? waitedNanos / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** The wait between two readings, if both were taken. */
export function waitBetween(before: number | undefined, after: number | undefined): number | undefined {
  return before === undefined || after === undefined ? undefined : after - before;
}
