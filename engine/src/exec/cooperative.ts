// Keeps a long query from starving the server: as pages pass between operators, the event loop
// gets a turn every few milliseconds (HTTP requests, cancels, heartbeats), and a cancelled query
// stops at the next page.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '../errors/engine-error.js';
import type { PageStream } from './operators/operator.js';

/** Longest stretch of work between two turns of the event loop. */
const SLICE_MILLIS = 10;
let sliceStart = performance.now();

export async function yieldIfDue(signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
  if (performance.now() - sliceStart < SLICE_MILLIS) return;
  await nextTurn();
  sliceStart = performance.now();
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
}

export async function* cooperative(stream: PageStream, signal: AbortSignal): PageStream {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      await yieldIfDue(signal);
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}
