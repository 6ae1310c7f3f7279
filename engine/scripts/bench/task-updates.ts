// Task updates at scale, on a real single-node server process with an internal shared secret:
//   limit:  `SELECT l_orderkey FROM tpch.sf100000.lineitem LIMIT 3` (the tpch connector's largest
//           split count, 100,000) — its time, and the worst event-loop delay meanwhile;
//   update: one signed POST /v1/task carrying 100,000 splits of that table — how long the POST takes
//           and the worst event-loop delay while it is taken and for 5 s after (the scan takes the splits);
//   batches: the same 100,000 splits in updates of MAX_SPLITS_PER_TASK_UPDATE.
// Each scenario runs on a fresh server, so the node's `eventLoopDelay.maxSinceStartMillis` read at
// its end is that scenario's worst (the figure read just before it starts is printed too). While it
// runs, /v1/status is asked every 100 ms and the slowest answer is recorded.
//
//   node engine/dist/scripts/bench/task-updates.js [limit] [update] [batches]

import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { MAX_SPLITS_PER_TASK_UPDATE } from '../../src/internode/task-update-request.js';
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
        await status(server.uri).catch((e: Error) =>
          failures.push(`${Math.round(performance.now() - start)} ms: ${String((e.cause as Error | undefined)?.message ?? e.message)}`),
        );
        slowest = Math.max(slowest, performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const result = await work(server).finally(() => (done = true));
    await watcher;
    const after = (await status(server.uri)).eventLoopDelay.maxSinceStartMillis;
    return {
      scenario,
      millis: result.millis,
      worstDelayBeforeMillis: before,
      worstDelayMillis: after,
      slowestStatusMillis: Math.round(slowest),
      note: [result.note, ...failures.map((f) => `/v1/status failed after ${f}`)].filter(Boolean).join('; '),
    };
  } finally {
    await server.stop();
  }
}

type Scenario = (server: ServerProcess) => Promise<{ millis: Record<string, number>; note?: string }>;

const limitQuery: Scenario = async (server) => {
  const start = performance.now();
  let response = (await (
    await fetch(`${server.uri}/v1/statement`, { method: 'POST', body: `SELECT l_orderkey FROM ${TABLE} LIMIT 3` })
  ).json()) as StatementResponse;
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

/** After the updates, the node is watched this long: the task's scan takes its splits meanwhile. */
const OBSERVE_MILLIS = 5000;

/** 100,000 splits of the table sent to one task in updates of `perUpdate` splits; the time of the POSTs. */
async function splitUpdates(server: ServerProcess, perUpdate: number): Promise<{ millis: Record<string, number>; note?: string }> {
  const harness = new EngineHarness();
  const { request, taskId, splits } = await sourceTask(harness, `SELECT l_orderkey FROM ${TABLE}`, '20261201_000000_00001_bench', false);
  const planNodeId = request.sources[0].planNodeId;
  const auth = new InternalAuthenticator(SECRET, 'bench').authorizationHeader();
  const start = performance.now();
  let bytes = 0;
  for (let from = 0; from < splits.length; from += perUpdate) {
    const batch = splits.slice(from, from + perUpdate);
    const sources = [{ planNodeId, splits: batch, noMoreSplits: from + perUpdate >= splits.length }];
    const body = toTaggedJson(from === 0 ? { ...request, sources } : { session: request.session, sources, remoteSources: [] });
    bytes += body.length;
    const response = await fetch(`${server.uri}/v1/task/${taskId}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', ...auth },
    });
    const text = await response.text();
    if (response.status !== 200)
      return { millis: { posts: Math.round(performance.now() - start) }, note: `status ${response.status}: ${text.slice(0, 300)}` };
  }
  const posts = Math.round(performance.now() - start);
  await new Promise((resolve) => setTimeout(resolve, OBSERVE_MILLIS));
  await fetch(`${server.uri}/v1/task/${taskId}`, { method: 'DELETE', headers: auth });
  return {
    millis: { posts },
    note: `${splits.length} splits in updates of ${perUpdate}, ${(bytes / 1e6).toFixed(1)} MB in all, then ${OBSERVE_MILLIS} ms watched`,
  };
}

const scenarios: Record<string, Scenario> = {
  limit: limitQuery,
  update: (server) => splitUpdates(server, 100_000),
  batches: (server) => splitUpdates(server, MAX_SPLITS_PER_TASK_UPDATE),
};
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(scenarios);
for (const name of chosen) {
  const scenario = scenarios[name];
  if (scenario === undefined) throw new Error(`unknown scenario '${name}' (${Object.keys(scenarios).join(', ')})`);
  console.log(JSON.stringify(await measured(name, scenario)));
}
