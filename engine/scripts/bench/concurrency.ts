// The cluster suite's concurrency phase: --concurrency clients (8) each run TPC-H queries of a fixed
// mix, one after another, for --concurrency-seconds (60) against the coordinator of a coordinator +
// workers cluster. Counted: the queries completed, failed and answered differently from DuckDB;
// measured on every node: the event loop's delay (the worst p99 and the worst max that /v1/status
// reported, each over its last 5-10 s, asked every 3 s) and the slowest /v1/info; and from the
// coordinator's GET /metrics, its health checks of each node during the phase and the failed ones.

import { tpchQuery } from '../tpch/queries.js';
import type { StatementOutcome } from '../sqllogictest/statement-client.js';
import { differenceFromDuckDb, type DuckDbReference } from './duckdb-reference.js';
import type { BenchOptions } from './options.js';
import { measureNodesResponsiveness } from './responsiveness.js';

/** Queries of the mix: short and long ones, joins and aggregations; client i starts at the i-th. */
export const CONCURRENCY_MIX = [1, 3, 5, 6, 10, 12, 14, 18, 19];

export interface NodeLoopFigures {
  worstLoopP99Millis?: number;
  worstLoopMaxMillis?: number;
  /** The main thread's longest garbage-collector pause over the phase. */
  worstGcPauseMillis?: number;
  worstInfoMillis: number;
}

export interface ConcurrencyFigures {
  clients: number;
  seconds: number;
  mix: number[];
  /** From the first query's start to the last one's end (queries started before the deadline run to their end). */
  elapsedMillis: number;
  completed: number;
  failed: number;
  /** Completed with rows different from DuckDB's. */
  different: number;
  /** Up to five distinct error messages and differences. */
  problems: string[];
  /** Per node (coordinator, worker-1..). */
  loop: Record<string, NodeLoopFigures>;
  /** Per node the coordinator checks (by node id): health checks during the phase, and failed ones. */
  healthChecks: Record<string, { checks: number; failed: number }>;
}

/** Per node id: the coordinator's health checks of it so far, and the failed ones (its GET /metrics counters). */
type HealthCounts = Map<string, { checks: number; failed: number }>;

export async function runConcurrencyPhase(
  clusterNodes: ReadonlyMap<string, string>,
  duck: DuckDbReference,
  options: BenchOptions,
  execute: (url: string, sql: string) => Promise<StatementOutcome>,
): Promise<ConcurrencyFigures> {
  const coordinator = clusterNodes.get('coordinator')!;
  const answers = new Map<number, unknown[][]>();
  for (const q of CONCURRENCY_MIX) answers.set(q, (await duck.answer(q)).rows);
  console.log(
    `concurrency: ${options.concurrency} clients for ${options.concurrencySeconds} s, queries q${CONCURRENCY_MIX.join(', q')}...`,
  );

  const counts = { completed: 0, failed: 0, different: 0 };
  const problems = new Set<string>();
  const before = await healthCounts(coordinator);
  const started = performance.now();
  const deadline = started + options.concurrencySeconds * 1000;
  const client = async (index: number): Promise<void> => {
    for (let k = index; performance.now() < deadline; k++) {
      const q = CONCURRENCY_MIX[k % CONCURRENCY_MIX.length];
      const outcome = await execute(coordinator, tpchQuery(q));
      if (outcome.error) {
        counts.failed++;
        problems.add(`q${q}: ${outcome.error.message}`);
        continue;
      }
      counts.completed++;
      const difference = differenceFromDuckDb(outcome, answers.get(q)!);
      if (difference !== undefined) {
        counts.different++;
        problems.add(`q${q} DIFFERENT: ${difference}`);
      }
    }
  };
  const names = [...clusterNodes.keys()];
  const { responsiveness } = await measureNodesResponsiveness(
    names.map((n) => clusterNodes.get(n)!),
    () => Promise.all(Array.from({ length: options.concurrency }, (_, i) => client(i))),
  );
  const elapsedMillis = performance.now() - started;
  const after = await healthCounts(coordinator);
  const healthChecks: ConcurrencyFigures['healthChecks'] = {};
  for (const [node, counts] of after) {
    const earlier = before.get(node);
    healthChecks[node] = { checks: counts.checks - (earlier?.checks ?? 0), failed: counts.failed - (earlier?.failed ?? 0) };
  }
  return {
    clients: options.concurrency,
    seconds: options.concurrencySeconds,
    mix: CONCURRENCY_MIX,
    elapsedMillis,
    ...counts,
    problems: [...problems].slice(0, 5),
    loop: Object.fromEntries(
      names.map((n, i) => [
        n,
        {
          worstLoopP99Millis: responsiveness[i].worstLoopP99Millis,
          worstLoopMaxMillis: responsiveness[i].worstLoopDelayMillis,
          worstGcPauseMillis: responsiveness[i].worstGcPauseMillis,
          worstInfoMillis: responsiveness[i].worstInfoMillis,
        },
      ]),
    ),
    healthChecks,
  };
}

async function healthCounts(coordinator: string): Promise<HealthCounts> {
  const response = await fetch(`${coordinator}/metrics`);
  if (!response.ok) throw new Error(`GET ${coordinator}/metrics answered ${response.status}`);
  const counts: HealthCounts = new Map();
  for (const match of (await response.text()).matchAll(/^engine_node_health_checks(_failed)?_total\{node_id="([^"]*)"\} (\d+)$/gm)) {
    const node = counts.get(match[2]) ?? { checks: 0, failed: 0 };
    if (match[1] === undefined) node.checks = Number(match[3]);
    else node.failed = Number(match[3]);
    counts.set(match[2], node);
  }
  return counts;
}

export function printConcurrency(figures: ConcurrencyFigures): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
  console.log(
    `\nconcurrency: ${figures.clients} clients for ${figures.seconds} s (${(figures.elapsedMillis / 1000).toFixed(1)} s to the last query's end), mix q${figures.mix.join(', q')}: ${figures.completed} queries completed, ${figures.failed} failed, ${figures.different} different from DuckDB`,
  );
  for (const p of figures.problems) console.log(`  ${p}`);
  console.log(
    `event loop per node over the phase (the worst of /v1/status's 5-10 s windows, asked every 3 s; gc: the main thread's longest garbage-collector pause); goal (issue 21): p99 <= 50 ms, max <= 200 ms, no failed health check`,
  );
  console.log(
    `${'node'.padEnd(14)}${pad('loop p99 ms', 13)}${pad('loop max ms', 13)}${pad('gc max ms', 11)}${pad('info ms', 10)}${pad('health checks', 15)}${pad('failed', 8)}`,
  );
  for (const [node, loop] of Object.entries(figures.loop)) {
    const checks = figures.healthChecks[node];
    console.log(
      `${node.padEnd(14)}${pad(ms(loop.worstLoopP99Millis), 13)}${pad(ms(loop.worstLoopMaxMillis), 13)}${pad(ms(loop.worstGcPauseMillis), 11)}${pad(ms(loop.worstInfoMillis), 10)}${pad(checks ? String(checks.checks) : '-', 15)}${pad(checks ? String(checks.failed) : '-', 8)}`,
    );
  }
}
