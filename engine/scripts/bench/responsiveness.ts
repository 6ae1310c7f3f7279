// How the servers answer while a benchmark query runs: each server's /v1/info is asked every
// POLL_MILLIS and the slowest answer kept, and its /v1/status every STATUS_POLL_MILLIS for the event
// loop's delay (/v1/status reports it over its last 5-10 s, so asking that often sees every stall)
// and once more afterwards. A long query must never hold an event loop: not the single node's, and
// on a cluster neither the coordinator's nor a worker's.

import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';

export interface Responsiveness {
  /** The slowest /v1/info answer while the query ran. */
  worstInfoMillis: number;
  infoRequests: number;
  /** /v1/info requests that got no answer (the server was gone). */
  infoFailures: number;
  /** The largest eventLoopDelay.maxMillis /v1/status reported while the query ran and right after it. */
  worstLoopDelayMillis?: number;
  /** The largest eventLoopDelay.p99Millis /v1/status reported (each over its last 5-10 s) while the query ran and right after it. */
  worstLoopP99Millis?: number;
  /** The longest garbage-collector pause of the main thread /v1/status reported (over the same windows). */
  worstGcPauseMillis?: number;
  /** /v1/status right after the query (undefined when the server does not report it). */
  eventLoopDelay?: EventLoopDelay;
}

const POLL_MILLIS = 100;
const STATUS_POLL_MILLIS = 3000;

/** Runs `work` while polling the server's /v1/info and /v1/status. */
export async function measureResponsiveness<T>(
  serverUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; responsiveness: Responsiveness }> {
  const { result, responsiveness } = await measureNodesResponsiveness([serverUrl], work);
  return { result, responsiveness: responsiveness[0] };
}

/** Runs `work` while polling every server's /v1/info and /v1/status; one figure per server, in order. */
export async function measureNodesResponsiveness<T>(
  serverUrls: readonly string[],
  work: () => Promise<T>,
): Promise<{ result: T; responsiveness: Responsiveness[] }> {
  const stop = { done: false };
  const pollers = serverUrls.map((url) => pollNode(url, stop));
  try {
    const result = await work();
    stop.done = true;
    const responsiveness = await Promise.all(pollers);
    return { result, responsiveness };
  } finally {
    stop.done = true;
    await Promise.all(pollers);
  }
}

async function pollNode(serverUrl: string, stop: { done: boolean }): Promise<Responsiveness> {
  const figures: Responsiveness = { worstInfoMillis: 0, infoRequests: 0, infoFailures: 0 };
  const readStatus = async () => {
    const delay = await loopDelay(serverUrl);
    if (delay !== undefined) {
      figures.worstLoopDelayMillis = Math.max(figures.worstLoopDelayMillis ?? 0, delay.maxMillis);
      figures.worstLoopP99Millis = Math.max(figures.worstLoopP99Millis ?? 0, delay.p99Millis);
      // Absent from a server older than the figure.
      if (delay.gcPauseMaxMillis !== undefined)
        figures.worstGcPauseMillis = Math.max(figures.worstGcPauseMillis ?? 0, delay.gcPauseMaxMillis);
    }
    return delay;
  };
  let statusAskedAt = performance.now();
  while (!stop.done) {
    const started = performance.now();
    const answered = await fetch(`${serverUrl}/v1/info`).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    if (answered) figures.worstInfoMillis = Math.max(figures.worstInfoMillis, performance.now() - started);
    else figures.infoFailures++;
    figures.infoRequests++;
    if (performance.now() - statusAskedAt >= STATUS_POLL_MILLIS) {
      statusAskedAt = performance.now();
      await readStatus();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MILLIS));
  }
  figures.eventLoopDelay = await readStatus();
  return figures;
}

async function loopDelay(serverUrl: string): Promise<EventLoopDelay | undefined> {
  try {
    const status = (await fetch(`${serverUrl}/v1/status`).then((r) => r.json())) as { eventLoopDelay?: EventLoopDelay };
    return status.eventLoopDelay;
  } catch {
    return undefined;
  }
}

/** The per-query (or per query and node) table: worst /v1/info answer and the loop's delay. */
export function printResponsiveness(rows: ReadonlyArray<{ label: string; responsiveness?: Responsiveness }>): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
  const width = Math.max(6, ...rows.map((r) => r.label.length + 2));
  console.log(
    `\nresponsiveness while each query ran (/v1/info asked every ${POLL_MILLIS} ms; event loop delay from /v1/status every ${STATUS_POLL_MILLIS / 1000} s)`,
  );
  console.log(
    `${'query'.padEnd(width)}${pad('worst info ms', 15)}${pad('worst loop ms', 15)}${pad('loop p99 ms', 13)}${pad('loop max ms', 13)}${pad('max since start', 17)}`,
  );
  for (const { label, responsiveness: r } of rows) {
    if (r === undefined) continue;
    const d = r.eventLoopDelay;
    const failures = r.infoFailures > 0 ? `  (${r.infoFailures} of ${r.infoRequests} unanswered)` : '';
    console.log(
      `${label.padEnd(width)}${pad(ms(r.worstInfoMillis), 15)}${pad(ms(r.worstLoopDelayMillis), 15)}${pad(ms(d?.p99Millis), 13)}${pad(ms(d?.maxMillis), 13)}${pad(ms(d?.maxSinceStartMillis), 17)}${failures}`,
    );
  }
}
