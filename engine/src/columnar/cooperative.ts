// Keeps a long query from starving the server: as pages pass between operators, and inside long
// loops, the event loop gets a turn every few milliseconds (HTTP requests, cancels, heartbeats), and
// a cancelled query stops at the next page.
//
// The turns are taken one slice per turn of the loop. Were each waiting pipeline simply to wait for
// setImmediate, every pipeline that yielded would resume in the same turn, one after the other, each
// for a slice: n waiting pipelines held the loop n slices (a worker's CPU profile under 8 clients had
// setImmediate phases of up to 55 ms of CPU, 144 ms over the whole bench run). Here the waiters queue, and one
// resumes per turn of the loop, in the order they came.

import { EngineError } from '../errors/engine-error.js';

/** Where an operator's waits are counted as blocked rather than CPU time. */
export interface BlockedTime {
  blockedOn<T>(wait: Promise<T>): Promise<T>;
}

/** Longest stretch of work between two turns of the event loop. */
const SLICE_MILLIS = 10;
let sliceStart = performance.now();

/** Pipelines waiting for their turn, first come first served. */
const waiting: Array<() => void> = [];
let releaseScheduled = false;

/** Resumes the first waiter; the next one resumes in the next turn of the loop (setImmediate from an immediate waits a turn). */
function releaseOne(): void {
  releaseScheduled = false;
  const resume = waiting.shift();
  if (waiting.length > 0) scheduleRelease();
  resume?.();
}

function scheduleRelease(): void {
  if (releaseScheduled) return;
  releaseScheduled = true;
  setImmediate(releaseOne);
}

/** A turn of the event loop shared fairly: resolves after the loop's timers and I/O have run and every earlier waiter has had its slice. */
export function nextFairTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    scheduleRelease();
  });
}

/** Whether the event loop's turn is due: work that can go on in one piece may until then (task-output.ts). */
export function turnDue(): boolean {
  return performance.now() - sliceStart >= SLICE_MILLIS;
}

/**
 * Gives the event loop a turn when one is due. `blocked`: the operator whose code this is, which
 * counts the turn (other work runs meanwhile) as blocked time, not CPU.
 */
export async function yieldIfDue(signal?: AbortSignal, blocked?: BlockedTime): Promise<void> {
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
  if (!turnDue()) return;
  await (blocked === undefined ? nextFairTurn() : blocked.blockedOn(nextFairTurn()));
  sliceStart = performance.now();
  if (signal?.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
}
