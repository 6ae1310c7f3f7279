// How a routine looping in a worker thread learns that its query was cancelled: the thread's task
// runs in the scope of its query's shared cancel flag (thread-job.ts), which the main thread sets
// when the query stops; a routine's loop reads it with its clock (routine-code.ts) and ends with
// USER_CANCELED, freeing the thread. A filter or projection calling a looping routine on a task's
// main thread is sent to a worker too (parallel/off-thread-routines.ts): there it would hold the event loop.

import { AsyncLocalStorage } from 'node:async_hooks';
import { EngineError } from '../../errors/engine-error.js';

const cancelFlags = new AsyncLocalStorage<Int32Array>();

/** Runs `task` with `flag` as the cancel flag of the routines it runs. */
export function withCancelFlag<T>(flag: Int32Array, task: () => T): T {
  return cancelFlags.run(flag, task);
}

/** Fails with USER_CANCELED when the running task's query was cancelled. */
export function throwIfRoutineCancelled(): void {
  const flag = cancelFlags.getStore();
  if (flag !== undefined && Atomics.load(flag, 0) !== 0) throw new EngineError('USER_CANCELED', 'Query was canceled');
}
