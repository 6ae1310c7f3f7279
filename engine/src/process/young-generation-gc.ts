// Each thread collects its young generation alone. V8 splits a scavenge among helper threads of its
// own — a pool shared by every isolate of the process, at the process's priority — and the collecting
// thread waits for the last of them. On a machine busier than its cores that wait is the scheduler's,
// not the collection's: a scavenge of a few milliseconds of CPU held the main thread 80-300 ms when a
// helper was not running (measured, see README), and the worker threads' scavenges, done by the
// helpers, ran at the main thread's priority instead of their own (task.workerThreadNice). Alone, a
// thread's pause is its own CPU time, at its own priority. A node started with
// `node --parallel-scavenge` keeps V8's way.

import { setFlagsFromString } from 'node:v8';

const KEEP_PARALLEL = '--parallel-scavenge';

/** From now on every thread of the process scavenges alone, unless the node was started with --parallel-scavenge. */
export function scavengeWithoutHelpers(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.includes(KEEP_PARALLEL)) return false;
  setFlagsFromString('--no-parallel-scavenge');
  return true;
}
