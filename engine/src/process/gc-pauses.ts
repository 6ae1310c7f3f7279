// The garbage collector's pauses of this thread (perf_hooks 'gc' entries: each is a stretch in which
// the thread ran no JavaScript, waiting on the collection, its helper threads included). Reported
// beside the event loop's delay so that a stall can be told apart: the collector's, or the code's
// and the machine's.

import { PerformanceObserver } from 'node:perf_hooks';

/** The pauses counted since a tally started. */
export class GcPauseTally {
  count = 0;
  totalMillis = 0;
  maxMillis = 0;

  add(millis: number): void {
    this.count++;
    this.totalMillis += millis;
    this.maxMillis = Math.max(this.maxMillis, millis);
  }
}

/** Calls `pause` with each collection's pause in milliseconds until the returned function is called. */
export function observeGcPauses(pause: (millis: number) => void): () => void {
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pause(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
