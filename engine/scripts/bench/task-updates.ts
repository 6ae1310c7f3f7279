// Task updates at scale, on a real single-node server process with an internal shared secret:
//   limit:  `SELECT l_orderkey FROM tpch.sf100000.lineitem LIMIT 3` (the tpch connector's largest
//           split count, 100,000) — its time, and the worst event-loop delay meanwhile;
//   update: one signed POST /v1/task carrying 100,000 splits of that table — how long the POST takes,
//           how long until the task's scan took every split, and the worst event-loop delay.
// Each scenario runs on a fresh server, so the node's `eventLoopDelay.maxSinceStartMillis` read at
// its end is that scenario's worst (the figure read just before it starts is printed too). While it
// runs, /v1/status is asked every 100 ms and the slowest answer is recorded.
//
//   node engine/dist/scripts/bench/task-updates.js [limit] [update]

import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { EngineHarness } from '../../test/support/engine-harness.js';
import { ServerProcess } from '../../test/support/server-process.js';
import { sourceTask } from '../../test/support/source-task.js';
import type { StatementResponse } from '../../test/support/statement-http.js';

const SECRET = 'task update bench secret';
const TABLE = 'tpch.sf100000.lineitem';

interface Figures {
  scenario: string;
  millis: Record<string, number>;
  worstDelayBeforeMillis: number;
  worstDelayMillis: number;
  slowestStatusMillis: number;
  note?: string;
}

async function status(base: string): Promise<{ eventLoopDelay: EventLoopDelay }> {
  return (await (await fetch(`${base}/v1/status`)).json()) as { eventLoopDelay: EventLoopDelay };
}

/** Runs `work` on a fresh server while timing /v1/status every 100 ms. */
async function measured(scenario: string, work: Scenario): Promise<Figures> {
  const server = await ServerProcess.start([], { ENGINE_SHARED_SECRET: SECRET });
  try {
    // Let start-up work (the text pool, worker threads) settle so that it is not counted.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = (await status(server.uri)).eventLoopDelay.maxSinceStartMillis;
    let done = false;
    let slowest = 0;
    const failures: string[] = [];
    const watcher = (async () => {
      while (!done) {
        const start = performance.now();
        await status(server.uri).catch((e: Error) => failures.push(`${Math.round(performance.now() - start)} ms: ${String((e.cause as Error | undefined)?.message ?? e.message)}`));
        slowest = Math.max(slowest, performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const result = await work(server).finally(() => (done = true));
    await watcher;
    const after = (await status(server.uri)).eventLoopDelay.maxSinceStartMillis;
    return { scenario, millis: result.millis, worstDelayBeforeMillis: before, worstDelayMillis: after, slowestStatusMillis: Math.round(slowest), note: [result.note, ...failures.map((f) => `/v1/status failed after ${f}`)].filter(Boolean).join('; ') };
  } finally {
    await server.stop();
  }
}

type Scenario = (server: ServerProcess) => Promise<{ millis: Record<string, number>; note?: string }>;

const limitQuery: Scenario = async (server) => {
  const start = performance.now();
  let response = (await (await fetch(`${server.uri}/v1/statement`, { method: 'POST', body: `SELECT l_orderkey FROM ${TABLE} LIMIT 3` })).json()) as StatementResponse;
  const rows: unknown[][] = [];
  let resets = 0;
  while (response.nextUri !== undefined) {
    try {
      response = (await (await fetch(response.nextUri)).json()) as StatementResponse;
    } catch {
      // A keep-alive connection the server closed while its loop was held: the same token may be asked again.
      resets++;
      continue;
    }
    rows.push(...(response.data ?? []));
  }
  const millis = Math.round(performance.now() - start);
  const note = `${response.error ? `error: ${response.error.message}` : `${rows.length} rows`}${resets > 0 ? `, ${resets} connection resets` : ''}`;
  return { millis: { query: millis }, note };
};

const bigUpdate: Scenario = async (server) => {
  const harness = new EngineHarness();
  const { request, taskId, splits } = sourceTask(harness, `SELECT l_orderkey FROM ${TABLE}`, '20261201_000000_00001_bench');
  const body = toTaggedJson(request);
  const auth = new InternalAuthenticator(SECRET, 'bench').authorizationHeader();
  const start = performance.now();
  const response = await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...auth } });
  const text = await response.text();
  const post = Math.round(performance.now() - start);
  if (response.status !== 200) return { millis: { post } as Record<string, number>, note: `status ${response.status}: ${text.slice(0, 300)}` };
  // Until the task reports every split received and none waiting for the scan to take it.
  let absorbed = Number.NaN;
  for (;;) {
    const info = (await (await fetch(`${server.uri}/v1/task/${taskId}`, { headers: auth })).json()) as { state: string; stats: { totalSplits: number; queuedSplits: number; runningSplits: number; completedSplits: number } };
    const s = info.stats;
    if (s.totalSplits >= splits.length && s.queuedSplits + s.runningSplits + s.completedSplits >= splits.length) {
      absorbed = Math.round(performance.now() - start);
      break;
    }
    if (info.state !== 'RUNNING' || performance.now() - start > 600_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE', headers: auth });
  return { millis: { post, splitsTaken: absorbed }, note: `${splits.length} splits, ${(body.length / 1e6).toFixed(1)} MB body` };
};

const scenarios: Record<string, Scenario> = { limit: limitQuery, update: bigUpdate };
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(scenarios);
for (const name of chosen) {
  const scenario = scenarios[name];
  if (scenario === undefined) throw new Error(`unknown scenario '${name}' (${Object.keys(scenarios).join(', ')})`);
  console.log(JSON.stringify(await measured(name, scenario)));
}
