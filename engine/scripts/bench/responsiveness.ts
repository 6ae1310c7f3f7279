// How the server answers while a benchmark query runs: /v1/info is asked every POLL_MILLIS and the
// slowest answer kept, and afterwards /v1/status's eventLoopDelay (the loop's delay over its last
// 5-10 s, and the worst since start). A long query must never hold the event loop.

import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';

export interface Responsiveness {
  /** The slowest /v1/info answer while the query ran. */
  worstInfoMillis: number;
  infoRequests: number;
  /** /v1/status right after the query (undefined when the server does not report it). */
  eventLoopDelay?: EventLoopDelay;
}

const POLL_MILLIS = 100;

/** Runs `work` while polling the server's /v1/info. */
export async function measureResponsiveness<T>(serverUrl: string, work: () => Promise<T>): Promise<{ result: T; responsiveness: Responsiveness }> {
  let done = false;
  let worstInfoMillis = 0;
  let infoRequests = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${serverUrl}/v1/info`).then((r) => r.arrayBuffer());
      worstInfoMillis = Math.max(worstInfoMillis, performance.now() - started);
      infoRequests++;
      await new Promise((resolve) => setTimeout(resolve, POLL_MILLIS));
    }
  })();
  try {
    const result = await work();
    done = true;
    await poller;
    const status = (await fetch(`${serverUrl}/v1/status`).then((r) => r.json())) as { eventLoopDelay?: EventLoopDelay };
    return { result, responsiveness: { worstInfoMillis, infoRequests, eventLoopDelay: status.eventLoopDelay } };
  } finally {
    done = true;
    await poller.catch(() => undefined);
  }
}

/** The per-query table: worst /v1/info answer and the loop's delay. */
export function printResponsiveness(queries: ReadonlyArray<{ query: number; responsiveness?: Responsiveness }>): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
  console.log(`\nresponsiveness while each query ran (/v1/info asked every ${POLL_MILLIS} ms; event loop delay from /v1/status)`);
  console.log(`${'query'.padEnd(6)}${pad('worst info ms', 15)}${pad('loop p99 ms', 13)}${pad('loop max ms', 13)}${pad('max since start', 17)}`);
  for (const { query, responsiveness: r } of queries) {
    if (r === undefined) continue;
    const d = r.eventLoopDelay;
    console.log(`${`q${String(query).padStart(2, '0')}`.padEnd(6)}${pad(ms(r.worstInfoMillis), 15)}${pad(ms(d?.p99Millis), 13)}${pad(ms(d?.maxMillis), 13)}${pad(ms(d?.maxSinceStartMillis), 17)}`);
  }
}
