// Worker threads run below the event loop's CPU priority: when the cores are busy, the main thread —
// which answers heartbeats, status and cancels, and feeds the threads their work — runs first, and
// the threads take the rest. Linux lets a thread lower its own priority (raise its nice value)
// without privileges; a thread is named there by its thread id, which /proc/thread-self gives.
// Elsewhere (or without /proc) the thread keeps the process's priority.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { basename } from 'node:path';

/** task.workerThreadNice's default: low enough that a busy thread rarely delays the event loop. */
export const DEFAULT_WORKER_THREAD_NICE = 10;
/** The largest nice value Linux has. */
const LOWEST_PRIORITY = 19;

/** Lowers the calling thread's priority by `increment` nice steps; false where the OS gives no way to. */
export function lowerThisThreadPriority(increment: number): boolean {
  if (increment <= 0) return false;
  let threadId: number;
  try {
    threadId = Number(basename(readlinkSync('/proc/thread-self')));
  } catch {
    return false;
  }
  if (!Number.isInteger(threadId)) return false;
  setPriority(threadId, Math.min(LOWEST_PRIORITY, getPriority(threadId) + increment));
  return true;
}
