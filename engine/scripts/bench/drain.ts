// Drain benchmark (issue 8): on a coordinator and 3 worker processes, drains one worker with the
// real `engine node drain` while it holds no work, one long query, or many concurrent queries, and
// measures how long the drain takes (from the command's start to the worker process's exit), whether
// every query still answers right, and how much slower the queries ran than the same queries
// without a drain. After each scenario the drained worker is started again and the next scenario
// waits until the coordinator counts it active.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually, TestCluster } from '../../test/cluster/cluster-fixture.js';
import { ENGINE_MAIN, type ServerProcess } from '../../test/support/server-process.js';
import { executeStatement } from '../sqllogictest/statement-client.js';

export const SCENARIOS = ['idle', 'long', 'concurrent'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface DrainBenchOptions {
  /** Which scenarios run, in this order. */
  scenarios: ScenarioName[];
  /** The tpch schema of the one long query, e.g. sf5. */
  longSchema: string;
  /** The tpch schema of each of the concurrent queries, e.g. sf0.5. */
  concurrentSchema: string;
  concurrency: number;
  /** `engine node drain --poll`, e.g. 1s (its default, what a preStop hook runs). */
  poll: string;
  /** `engine node drain --timeout`, and the longest wait for a query, in milliseconds. */
  timeoutMillis: number;
  /** A directory for every node's log lines at the end (each drained worker's too), if any. */
  logsDir?: string;
}

export interface QueryBatch {
  /** From the first submission to the last answer. */
  wallMillis: number;
  /** Each query's time from submission to its final response, in submission order. */
  elapsedMillis: number[];
  medianMillis: number;
  maxMillis: number;
  /** Errors and wrong answers, one line each. */
  failures: string[];
}

export interface DrainFigures {
  /** From the start of `engine node drain` to the worker process's exit (undefined: it did not exit). */
  workerExitMillis?: number;
  workerExitCode?: number | null;
  /** From the start of `engine node drain` to its own exit. */
  commandMillis?: number;
  commandExitCode?: number | null;
  /** When the command moved the node to ISOLATING (after its own start-up and first look at /v1/status). */
  isolatingAtMillis?: number;
  /** When the command moved the node to SHUTTING_DOWN, i.e. saw it ISOLATED with no work left. */
  shuttingDownAtMillis?: number;
  /** The command's output, each line with its time since the command started. */
  output: string[];
  /** What went wrong: the drain timed out, the command failed, the worker did not exit. */
  problem?: string;
  /** The worker's last log lines, when something went wrong. */
  workerLastLogLines?: string[];
  /** The worker's unfinished tasks (GET /v1/task) when something went wrong. */
  unfinishedTasks?: unknown[];
}

export interface ScenarioFigures {
  scenario: string;
  sql?: string;
  queries: number;
  /** The drained worker's work when the drain started (its running tasks, of how many distinct queries). */
  heldAtDrainStart: { runningTasks: number; queries: number };
  drain: DrainFigures;
  baseline?: QueryBatch;
  duringDrain?: QueryBatch;
  /** The coordinator's error log lines during the scenario (a failed query's stack, say). */
  coordinatorErrors: string[];
  /** duringDrain / baseline: median query time, slowest query, wall time. */
  slowdown?: { median: number; max: number; wall: number };
}

const VICTIM = 'worker-3';
const WORKERS = 3;
const FINAL_TASK_STATES = new Set(['FINISHED', 'CANCELED', 'ABORTED', 'FAILED']);
/** How long the drain waits for the victim to hold tasks of the queries before it starts anyway. */
const HOLD_WAIT_MILLIS = 60_000;
const LOG_LINES_KEPT = 25;
/** pino's level of error lines. */
const ERROR_LEVEL = 50;

/** A GROUP BY that reads the whole of lineitem: its tasks run on every worker until the end. */
export function lineitemAggregation(schema: string): string {
  return `SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_extendedprice) FROM tpch."${schema}".lineitem GROUP BY 1, 2 ORDER BY 1, 2`;
}

export async function runDrainBench(options: DrainBenchOptions, log: (line: string) => void): Promise<ScenarioFigures[]> {
  log(`starting a coordinator and ${WORKERS} workers...`);
  const cluster = await TestCluster.start(WORKERS);
  /** Every node process of the run, named for its log file. */
  const processes = new Map<string, ServerProcess>();
  const remember = () => {
    processes.set('coordinator', cluster.coordinator);
    for (const [nodeId, worker] of cluster.workers)
      if (![...processes.values()].includes(worker)) processes.set(`${nodeId}-${processes.size}`, worker);
  };
  try {
    remember();
    await cluster.waitForActiveWorkers(WORKERS);
    const all: Record<ScenarioName, { name: string; sql?: string; queries: number }> = {
      idle: { name: 'idle', queries: 0 },
      long: { name: 'one long query', sql: lineitemAggregation(options.longSchema), queries: 1 },
      concurrent: {
        name: `${options.concurrency} queries`,
        sql: lineitemAggregation(options.concurrentSchema),
        queries: options.concurrency,
      },
    };
    const scenarios = options.scenarios.map((name) => all[name]);
    const figures: ScenarioFigures[] = [];
    for (const scenario of scenarios) {
      log(`\n== ${scenario.name}`);
      figures.push(await runScenario(cluster, scenario, options, log));
      log(`restarting ${VICTIM}...`);
      await cluster.worker(VICTIM).stop();
      await cluster.startWorker(VICTIM);
      remember();
      await cluster.waitForActiveWorkers(WORKERS);
    }
    return figures;
  } finally {
    await cluster.stop();
    if (options.logsDir !== undefined) writeLogs(options.logsDir, processes, log);
  }
}

function writeLogs(dir: string, processes: Map<string, ServerProcess>, log: (line: string) => void): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, process] of processes) {
    writeFileSync(join(dir, `${name}.log`), [...process.logs.map((l) => JSON.stringify(l)), ...process.stderr].join('\n') + '\n');
  }
  log(`node logs written to ${dir}`);
}

async function runScenario(
  cluster: TestCluster,
  scenario: { name: string; sql?: string; queries: number },
  options: DrainBenchOptions,
  log: (line: string) => void,
): Promise<ScenarioFigures> {
  const victim = cluster.worker(VICTIM);
  const coordinator = cluster.coordinator.uri;
  const logged = cluster.coordinator.logs.length;
  const coordinatorErrors = () =>
    cluster.coordinator.logs
      .slice(logged)
      .filter((l) => (l.level ?? 0) >= ERROR_LEVEL)
      .map((l) => JSON.stringify(l));
  if (scenario.sql === undefined) {
    const drain = await drainWorker(victim, options, log);
    return {
      scenario: scenario.name,
      queries: 0,
      heldAtDrainStart: { runningTasks: 0, queries: 0 },
      drain,
      coordinatorErrors: coordinatorErrors(),
    };
  }
  const sql = scenario.sql;
  log(`${scenario.queries} × ${sql}`);
  const expected = await expectedAnswer(coordinator, sql, options.timeoutMillis, log);
  if (scenario.queries > 1) {
    // The first batch at full concurrency runs slower (code not yet optimised, memory not yet grown): not the baseline.
    const warmup = await runBatch(coordinator, sql, scenario.queries, expected, options.timeoutMillis);
    log(`warm-up batch: median ${warmup.medianMillis.toFixed(0)} ms, ${warmup.failures.length} failures`);
  }
  const baseline = await runBatch(coordinator, sql, scenario.queries, expected, options.timeoutMillis);
  log(
    `baseline: median ${baseline.medianMillis.toFixed(0)} ms, wall ${baseline.wallMillis.toFixed(0)} ms, ${baseline.failures.length} failures`,
  );

  log(`the same queries, draining ${VICTIM} once it holds their tasks`);
  const batch = runBatch(coordinator, sql, scenario.queries, expected, options.timeoutMillis);
  const held = await waitUntilHeld(victim.uri, Math.ceil(scenario.queries * 0.75));
  log(`${VICTIM} holds ${held.runningTasks} running tasks of ${held.queries} queries: draining`);
  const [duringDrain, drain] = await Promise.all([batch, drainWorker(victim, options, log)]);
  log(
    `during the drain: median ${duringDrain.medianMillis.toFixed(0)} ms, wall ${duringDrain.wallMillis.toFixed(0)} ms, ${duringDrain.failures.length} failures`,
  );
  for (const failure of duringDrain.failures) log(`  FAILED ${failure}`);
  return {
    scenario: scenario.name,
    sql,
    queries: scenario.queries,
    heldAtDrainStart: held,
    drain,
    baseline,
    duringDrain,
    coordinatorErrors: coordinatorErrors(),
    slowdown: {
      median: duringDrain.medianMillis / baseline.medianMillis,
      max: duringDrain.maxMillis / baseline.maxMillis,
      wall: duringDrain.wallMillis / baseline.wallMillis,
    },
  };
}

/** `count` concurrent runs of `sql`, each as its own user (one user's queries beyond query.max-running-per-user would queue). */
/** The answer every run must give, from a warm-up run alone on the cluster (tried again if it fails: a failure of the first is no answer). */
async function expectedAnswer(coordinator: string, sql: string, timeoutMillis: number, log: (line: string) => void): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await runQuery(coordinator, sql, 'warmup', timeoutMillis);
    if (!outcome.error) return JSON.stringify(outcome.rows);
    log(`warm-up failed: ${outcome.error.errorName ?? 'error'}: ${outcome.error.message}`);
    if (attempt === 3) throw new Error(`the warm-up query failed ${attempt} times, last: ${outcome.error.message}`);
  }
}

async function runBatch(coordinator: string, sql: string, count: number, expected: string, timeoutMillis: number): Promise<QueryBatch> {
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const t = performance.now();
      const outcome = await runQuery(coordinator, sql, `user${i}`, timeoutMillis);
      const elapsed = performance.now() - t;
      const failure = outcome.error
        ? `user${i}: ${outcome.error.errorName ?? 'error'}: ${outcome.error.message}`
        : JSON.stringify(outcome.rows) !== expected
          ? `user${i}: wrong answer ${JSON.stringify(outcome.rows).slice(0, 300)}`
          : undefined;
      return { elapsed, failure };
    }),
  );
  const wallMillis = performance.now() - started;
  const elapsedMillis = runs.map((r) => r.elapsed);
  const sorted = [...elapsedMillis].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return {
    wallMillis,
    elapsedMillis,
    medianMillis: sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
    maxMillis: sorted[sorted.length - 1],
    failures: runs.flatMap((r) => (r.failure === undefined ? [] : [r.failure])),
  };
}

function runQuery(coordinator: string, sql: string, user: string, timeoutMillis: number) {
  return executeStatement(coordinator, sql, { user, source: 'bench-drain', catalog: 'tpch' }, { timeoutMillis });
}

/** Waits until the worker runs tasks of `queries` distinct queries (or HOLD_WAIT_MILLIS passed); what it holds then. */
async function waitUntilHeld(workerUri: string, queries: number): Promise<{ runningTasks: number; queries: number }> {
  const deadline = Date.now() + HOLD_WAIT_MILLIS;
  for (;;) {
    const held = await heldWork(workerUri);
    if (held.queries >= queries || Date.now() > deadline) return held;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function heldWork(workerUri: string): Promise<{ runningTasks: number; queries: number }> {
  const running = await runningTasks(workerUri);
  return { runningTasks: running.length, queries: new Set(running.map((t) => t.taskId.split('.')[0])).size };
}

async function runningTasks(workerUri: string): Promise<{ taskId: string; state: string }[]> {
  const tasks = (await (await fetch(`${workerUri}/v1/task`, { signal: AbortSignal.timeout(10_000) })).json()) as {
    taskId: string;
    state: string;
  }[];
  return tasks.filter((t) => !FINAL_TASK_STATES.has(t.state));
}

/** The worker's running tasks in full, or why they could not be read. */
async function unfinishedTasks(worker: ServerProcess): Promise<unknown[]> {
  if (!worker.running) return [];
  try {
    return await runningTasks(worker.uri);
  } catch (e) {
    return [`GET /v1/task failed: ${(e as Error).message}`];
  }
}

/**
 * Runs `engine node drain --server <worker>` and times it against the worker's exit. A worker still
 * running once the command ended (or after the timeout and a minute) is a problem: it is reported
 * with its last log lines, then killed so that the next scenario can start it again.
 */
async function drainWorker(worker: ServerProcess, options: DrainBenchOptions, log: (line: string) => void): Promise<DrainFigures> {
  const started = performance.now();
  const since = () => performance.now() - started;
  const figures: DrainFigures = { output: [] };
  const command = spawn(
    process.execPath,
    [ENGINE_MAIN, 'node', 'drain', '--server', worker.uri, '--poll', options.poll, '--timeout', `${options.timeoutMillis}ms`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (line: string) => {
    const stamped = `[${since().toFixed(0)} ms] ${line}`;
    figures.output.push(stamped);
    log(`  drain: ${stamped}`);
    if (figures.isolatingAtMillis === undefined && /moving \S+ to ISOLATING/.test(line)) figures.isolatingAtMillis = since();
    if (figures.shuttingDownAtMillis === undefined && /moving \S+ to SHUTTING_DOWN/.test(line)) figures.shuttingDownAtMillis = since();
  };
  createInterface({ input: command.stdout! }).on('line', keep);
  createInterface({ input: command.stderr! }).on('line', keep);
  const commandExit = new Promise<void>((resolve) =>
    command.once('exit', (code) => {
      figures.commandMillis = since();
      figures.commandExitCode = code;
      resolve();
    }),
  );
  const workerExit = worker.waitForExit().then((code) => {
    figures.workerExitMillis = since();
    figures.workerExitCode = code;
  });

  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), options.timeoutMillis + 60_000)));
  try {
    if ((await Promise.race([commandExit.then(() => 'ended' as const), expired])) === 'expired') {
      figures.problem = `engine node drain still runs after ${options.timeoutMillis + 60_000} ms`;
      command.kill('SIGKILL');
    } else if (figures.commandExitCode !== 0) {
      figures.problem = `engine node drain exited with ${figures.commandExitCode}`;
    }
    // The command returns only once the process is gone: the exit event follows within moments.
    const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5000));
    if ((await Promise.race([workerExit.then(() => 'exited' as const), grace])) === 'late') {
      figures.problem = `${figures.problem ? `${figures.problem}; ` : ''}the worker process had not exited 5 s after the command ended`;
    } else if (figures.workerExitCode !== 0) {
      figures.problem = `${figures.problem ? `${figures.problem}; ` : ''}the worker exited with ${figures.workerExitCode}`;
    }
  } finally {
    clearTimeout(timer);
  }
  if (figures.problem !== undefined) {
    figures.workerLastLogLines = [
      ...worker.logs.slice(-LOG_LINES_KEPT).map((l) => JSON.stringify(l)),
      ...worker.stderr
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .slice(-LOG_LINES_KEPT),
    ];
    figures.unfinishedTasks = await unfinishedTasks(worker);
    log(`  PROBLEM: ${figures.problem}\n  ${VICTIM}'s last log lines:\n    ${figures.workerLastLogLines.join('\n    ')}`);
    log(`  ${VICTIM}'s unfinished tasks:\n    ${figures.unfinishedTasks.map((t) => JSON.stringify(t)).join('\n    ')}`);
    worker.signal('SIGKILL');
    await eventually('the drained worker to be killed', async () => (worker.running ? undefined : true), 10_000);
  }
  return figures;
}
