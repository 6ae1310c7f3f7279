// How late the event loop runs its timers (perf_hooks.monitorEventLoopDelay): the figure that shows
// query work holding the loop. GET /v1/status reports it over a recent window and the worst since
// start. Histograms only reset (they cannot be merged), so two of them run half a window apart and
// the older one is reported: it always covers the last WINDOW_MILLIS / 2 to WINDOW_MILLIS. The
// monitor records the time between its timer's turns, so the resolution is taken off to leave the
// delay (an idle loop reports about 0). The garbage collector's pauses in the same window are
// reported with it: how much of the delay was the collector's.

import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { GcPauseTally, observeGcPauses } from '../process/gc-pauses.js';
import { logLongTask, longTaskMillis } from '../process/long-task-log.js';

const WINDOW_MILLIS = 10_000;
/** Sampling interval of the monitor: finer costs more timer turns, coarser misses short stalls. */
const RESOLUTION_MILLIS = 10;

export interface EventLoopDelay {
  meanMillis: number;
  p50Millis: number;
  p99Millis: number;
  maxMillis: number;
  /** The span the other figures cover (the last this many seconds). */
  windowSeconds: number;
  maxSinceStartMillis: number;
  /** The garbage collector's pauses of the main thread over the same window: how many, in all, and the longest. */
  gcPauses: number;
  gcPauseMillis: number;
  gcPauseMaxMillis: number;
}

interface Window {
  histogram: IntervalHistogram;
  gc: GcPauseTally;
  startedAt: number;
}

export class EventLoopDelayMonitor {
  private older: Window;
  private newer: Window;
  private maxSinceStartNanos = 0;
  private readonly rotation: NodeJS.Timeout;
  private readonly stopObservingGc: () => void;

  constructor() {
    this.older = startWindow();
    this.newer = startWindow();
    this.rotation = setInterval(() => this.rotate(), WINDOW_MILLIS / 2).unref();
    this.stopObservingGc = observeGcPauses((millis, kind) => {
      this.older.gc.add(millis);
      this.newer.gc.add(millis);
      if (longTaskMillis !== undefined && millis >= longTaskMillis) logLongTask(millis, `garbage collector (${kind})`);
    });
  }

  sample(): EventLoopDelay {
    const h = this.older.histogram;
    this.maxSinceStartNanos = Math.max(this.maxSinceStartNanos, h.max, this.newer.histogram.max);
    const counted = h.count > 0;
    return {
      meanMillis: counted ? delayMillis(h.mean) : 0,
      p50Millis: counted ? delayMillis(h.percentile(50)) : 0,
      p99Millis: counted ? delayMillis(h.percentile(99)) : 0,
      maxMillis: counted ? delayMillis(h.max) : 0,
      windowSeconds: round((performance.now() - this.older.startedAt) / 1000),
      maxSinceStartMillis: delayMillis(this.maxSinceStartNanos),
      gcPauses: this.older.gc.count,
      gcPauseMillis: round(this.older.gc.totalMillis),
      gcPauseMaxMillis: round(this.older.gc.maxMillis),
    };
  }

  close(): void {
    clearInterval(this.rotation);
    this.stopObservingGc();
    this.older.histogram.disable();
    this.newer.histogram.disable();
  }

  /** The older window has reached WINDOW_MILLIS: it starts over and becomes the newer one. */
  private rotate(): void {
    const h = this.older.histogram;
    this.maxSinceStartNanos = Math.max(this.maxSinceStartNanos, h.max);
    h.reset();
    [this.older, this.newer] = [this.newer, { histogram: h, gc: new GcPauseTally(), startedAt: performance.now() }];
  }
}

function startWindow(): Window {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MILLIS });
  histogram.enable();
  return { histogram, gc: new GcPauseTally(), startedAt: performance.now() };
}

/** A recorded interval between the monitor's turns, less the interval it asked for. */
function delayMillis(intervalNanos: number): number {
  return round(Math.max(0, intervalNanos / 1e6 - RESOLUTION_MILLIS));
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
