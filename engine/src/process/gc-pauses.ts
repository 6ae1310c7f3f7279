// The garbage collector's pauses of this thread (perf_hooks 'gc' entries: each is a stretch in which
// the thread ran no JavaScript, waiting on the collection, its helper threads included). Reported
// beside the event loop's delay so that a stall can be told apart: the collector's, or the code's
// and the machine's.

import { constants, PerformanceObserver } from 'node:perf_hooks';

/** Which collection paused the thread: a scavenge of the young generation, or a step or end of a full one. */
export type GcKind = 'minor' | 'major' | 'incremental' | 'weak callbacks' | 'other';

const KINDS: ReadonlyMap<number, GcKind> = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);

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

/** Calls `pause` with each collection's pause in milliseconds and its kind until the returned function is called. */
export function observeGcPauses(pause: (millis: number, kind: GcKind) => void): () => void {
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // A 'gc' entry's detail (NodeGCPerformanceDetail) is not in PerformanceEntry's type.
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      pause(entry.duration, (kind !== undefined && KINDS.get(kind)) || 'other');
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
