// The servers' event loop delay at the end of a run (GET /v1/status's eventLoopDelay): how long
// planning or execution held a loop at worst, for the report. A node that does not answer gets a
// line saying so.

import { PROBE_TIMEOUT_MILLIS } from './servers.js';

interface EventLoopDelayJson {
  p99Millis: number;
  maxMillis: number;
  windowSeconds: number;
  maxSinceStartMillis: number;
}

/** A line per node: the longest delay since it started, and the last window's p99 and max. */
export async function eventLoopLines(urls: readonly string[]): Promise<string[]> {
  return Promise.all(
    urls.map(async (url) => {
      try {
        const response = await fetch(new URL('/v1/status', url), { signal: AbortSignal.timeout(PROBE_TIMEOUT_MILLIS) });
        const delay = ((await response.json()) as { eventLoopDelay?: EventLoopDelayJson }).eventLoopDelay;
        if (delay === undefined) return `${url}: no eventLoopDelay in /v1/status`;
        return `${url}: event loop delay max ${delay.maxSinceStartMillis} ms since start; last ${delay.windowSeconds} s: p99 ${delay.p99Millis} ms, max ${delay.maxMillis} ms`;
      } catch (e) {
        return `${url}: GET /v1/status failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    }),
  );
}
