// Keeps a long query from starving the server: as pages pass between operators, and inside long
// loops, the event loop gets a turn every few milliseconds (HTTP requests, cancels, heartbeats), and
// a cancelled query stops at the next page.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '../errors/engine-error.js';

/** Where an operator's waits are counted as blocked rather than CPU time. */
export interface BlockedTime {
  blockedOn<T>(wait: Promise<T>): Promise<T>;
}

/** Longest stretch of work between two turns of the event loop. */
const SLICE_MILLIS = 10;
let sliceStart = performance.now();

/**
 * Gives the event loop a turn when one is due. `blocked`: the operator whose code this is, which
 * counts the turn (other work runs meanwhile) as blocked time, not CPU.
 */
export async function yieldIfDue(signal?: AbortSignal, blocked?: BlockedTime): Promise<void> {
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
  if (performance.now() - sliceStart < SLICE_MILLIS) return;
  await (blocked === undefined ? nextTurn() : blocked.blockedOn(nextTurn()));
  sliceStart = performance.now();
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
}
