// The cluster suite of `make bench`: TPC-H straight from the tpch catalog (memory tables live on the
// coordinator only, so a cluster's workers generate the rows of their splits themselves) on one
// node and on a coordinator with N workers, each node its own process on its own port, all on this
// machine. Per query the two engines take turns run by run (a change in the machine's load then
// falls on both), each result is checked against DuckDB's, and every node's /v1/info and event
// loop are watched. Then the throughput of one repartition on the cluster, and a phase of concurrent
// clients on the cluster (see concurrency.ts).

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { executeStatement, type StatementOutcome, type StatementSession } from '../sqllogictest/statement-client.js';
import { startCluster, startEngineServer, type EngineServerProcess } from '../sqllogictest/server-process.js';
import { tpchQuery } from '../tpch/queries.js';
import { printClusterRun, writeClusterRun, type ClusterBenchRun, type ClusterQueryFigures, type EngineAnswer } from './cluster-report.js';
import { printConcurrency, runConcurrencyPhase } from './concurrency.js';
import { differenceFromDuckDb, type DuckDbReference } from './duckdb-reference.js';
import { processMemory, serverHeapOptions } from './memory.js';
import { clusterWorkersText, tpchSchema, type BenchOptions } from './options.js';
import { measureRepartition, printRepartition } from './repartition-throughput.js';
import { measureNodesResponsiveness, type Responsiveness } from './responsiveness.js';
import { geometricMean, median } from './statistics.js';

/** Every node's memory, the single node's and each cluster node's alike. */
const NODE_MEMORY = '6GB';
const NODE_MEMORY_BYTES = 6 * 1024 ** 3;
const QUERY_MAX_MEMORY_PER_NODE = '5GB';
const USER = 'bench';

export interface ClusterSuiteContext {
  options: BenchOptions;
  duck: DuckDbReference;
  /** engine/dist/src/cli/main.js */
  cliPath: string;
  resultsDir: string;
  timeoutMillis: number;
}

export interface Engine {
  name: 'single' | 'cluster';
  url: string;
}

export async function runClusterSuite(context: ClusterSuiteContext): Promise<ClusterBenchRun> {
  const { options, duck } = context;
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  const nodes = new Map<string, EngineServerProcess>();
  try {
    await startSingleAndCluster(context.cliPath, options, [], nodes);
    const engines: Engine[] = [
      { name: 'single', url: nodes.get('single')!.url },
      { name: 'cluster', url: nodes.get('coordinator')!.url },
    ];
    const session: StatementSession = {
      user: USER,
      source: 'bench',
      catalog: 'tpch',
      schema: tpchSchema(options.scale),
      properties: options.sessionProperties,
    };
    const execute = (url: string, sql: string) => executeStatement(url, sql, session, { timeoutMillis: context.timeoutMillis });

    const queries: ClusterQueryFigures[] = [];
    for (const q of options.queries) {
      process.stdout.write(`q${String(q).padStart(2, '0')} `);
      const figures = await benchQuery(q, engines, nodes, duck, options, execute);
      queries.push(figures);
      console.log(`single ${describe(figures.single)}, cluster ${describe(figures.cluster)}`);
    }

    let repartition: ClusterBenchRun['repartition'];
    let repartitionError: string | undefined;
    console.log('repartition throughput...');
    try {
      const coordinator = nodes.get('coordinator')!.url;
      repartition = await measureRepartition(coordinator, USER, tpchSchema(options.scale), options.runs, async (sql) =>
        failOnError(await execute(coordinator, sql)),
      );
    } catch (e) {
      repartitionError = (e as Error).message;
    }

    let concurrency: ClusterBenchRun['concurrency'];
    let concurrencyError: string | undefined;
    try {
      const clusterNodes = new Map([...nodes].filter(([name]) => name !== 'single').map(([name, server]) => [name, server.url]));
      concurrency = await runConcurrencyPhase(clusterNodes, duck, options, execute);
    } catch (e) {
      concurrencyError = (e as Error).message;
    }

    const answered = queries.filter((f) => !f.single.error && !f.cluster.error);
    const worst = (pick: (r: Responsiveness) => number | undefined) =>
      Object.fromEntries(
        [...nodes.keys()].map((node) => [
          node,
          Math.max(0, ...queries.map((f) => f.responsiveness[node]).map((r) => (r ? (pick(r) ?? 0) : 0))),
        ]),
      );
    const run: ClusterBenchRun = {
      startedAt,
      options,
      workers: options.clusterWorkers,
      queries,
      geometricMeanRatio: geometricMean(answered.map((f) => f.ratio)),
      totalMillis: {
        single: answered.reduce((s, f) => s + f.single.medianMillis, 0),
        cluster: answered.reduce((s, f) => s + f.cluster.medianMillis, 0),
      },
      worstLoopDelayMillis: worst((r) => r.worstLoopDelayMillis),
      worstInfoMillis: worst((r) => r.worstInfoMillis),
      peakMemoryBytes: Object.fromEntries([...nodes].map(([node, server]) => [node, processMemory(server.pid, 'VmHWM')])),
      ...(repartition ? { repartition } : {}),
      ...(repartitionError ? { repartitionError } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(concurrencyError ? { concurrencyError } : {}),
      loadAverage: { start: loadStart, end: loadavg() },
    };
    printClusterRun(run);
    if (repartition) printRepartition(repartition);
    else console.log(`\nrepartition throughput: error: ${repartitionError}`);
    if (concurrency) printConcurrency(concurrency);
    else console.log(`\nconcurrency: error: ${concurrencyError}`);
    console.log(`\nwritten to ${writeClusterRun(run, context.resultsDir)}`);
    return run;
  } finally {
    await Promise.all([...nodes.values()].map((n) => n.stop()));
  }
}

/** One node with the bench's node memory and `extraArgs`. */
export function startBenchNode(
  cliPath: string,
  extraArgs: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<EngineServerProcess> {
  return startEngineServer({ cliPath, ...benchNodeSettings(extraArgs), nodeArgs });
}

function benchNodeSettings(extraArgs: readonly string[]): { env: NodeJS.ProcessEnv; args: string[] } {
  // The servers' heaps must hold their node memory.
  const env = { ...process.env, NODE_OPTIONS: serverHeapOptions(NODE_MEMORY_BYTES) };
  return { env, args: ['--node-memory', NODE_MEMORY, '--query-max-memory-per-node', QUERY_MAX_MEMORY_PER_NODE, ...extraArgs] };
}

/**
 * One node (`single`, the machine's cores as its threads) and a coordinator with the options'
 * workers (`coordinator`, `worker-1`..; each with its share of the cores as threads), all with the
 * same node memory and `extraArgs`, added to `nodes` as they start (the caller stops them).
 */
export async function startSingleAndCluster(
  cliPath: string,
  options: Pick<BenchOptions, 'clusterWorkers' | 'clusterWorkerThreads'>,
  extraArgs: readonly string[],
  nodes: Map<string, EngineServerProcess>,
): Promise<void> {
  console.log(`\nstarting one node and a coordinator with ${clusterWorkersText(options)}...`);
  nodes.set('single', await startBenchNode(cliPath, extraArgs));
  const cluster = await startBenchCluster(cliPath, options, extraArgs);
  cluster.forEach((node, i) => nodes.set(i === 0 ? 'coordinator' : `worker-${i}`, node));
}

/** A coordinator and the options' workers as the bench runs them (the coordinator first); `nodeArgs` are node's own flags (e.g. --cpu-prof). */
export function startBenchCluster(
  cliPath: string,
  options: Pick<BenchOptions, 'clusterWorkers' | 'clusterWorkerThreads'>,
  extraArgs: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<EngineServerProcess[]> {
  const { env, args } = benchNodeSettings(extraArgs);
  // The cluster's nodes sign their requests with a shared secret, as `engine cluster`'s do.
  return startCluster(cliPath, options.clusterWorkers, {
    env: { ...env, ENGINE_SHARED_SECRET: randomBytes(32).toString('base64url') },
    args,
    nodeArgs,
    workerArgs: ['--task-max-worker-threads', String(options.clusterWorkerThreads)],
    // Measured as deployed: the default intervals' heartbeats and announcements cost less CPU than the tests' 500 ms.
    configuredIntervals: true,
  });
}

/** Query `q` on both engines, taking turns run by run, while every node is watched; both results checked against `duck`'s. */
export async function benchQuery(
  q: number,
  engines: Engine[],
  nodes: Map<string, EngineServerProcess>,
  duck: DuckDbReference,
  options: BenchOptions,
  execute: (url: string, sql: string) => Promise<StatementOutcome>,
): Promise<ClusterQueryFigures> {
  const sql = tpchQuery(q);
  const duckAnswer = await duck.answer(q);
  const runs = new Map(
    engines.map((e) => [
      e.name,
      { times: [] as number[], last: undefined as StatementOutcome | undefined, error: undefined as string | undefined },
    ]),
  );
  const names = [...nodes.keys()];
  const { responsiveness } = await measureNodesResponsiveness(
    names.map((n) => nodes.get(n)!.url),
    async () => {
      for (let i = 0; i < options.warmup + options.runs; i++) {
        for (const engine of engines) {
          const state = runs.get(engine.name)!;
          if (state.error !== undefined) continue;
          const started = performance.now();
          const outcome = await execute(engine.url, sql);
          const millis = performance.now() - started;
          if (outcome.error) state.error = outcome.error.message;
          else if (i >= options.warmup) state.times.push(millis);
          state.last = outcome;
        }
      }
    },
  );
  const answer = (name: Engine['name']): EngineAnswer => {
    const state = runs.get(name);
    if (state === undefined) return { medianMillis: NaN, equal: undefined, error: 'not run' };
    if (state.error !== undefined) return { medianMillis: NaN, equal: undefined, error: state.error };
    let difference: string | undefined;
    try {
      difference = differenceFromDuckDb(state.last!, duckAnswer.rows);
    } catch (e) {
      return { medianMillis: median(state.times), equal: undefined, error: `its rows could not be compared: ${(e as Error).message}` };
    }
    return { medianMillis: median(state.times), equal: difference === undefined, ...(difference ? { difference } : {}) };
  };
  const single = answer('single');
  const cluster = answer('cluster');
  return {
    query: q,
    single,
    cluster,
    ratio: cluster.medianMillis / single.medianMillis,
    duckdbMillis: duckAnswer.medianMillis,
    responsiveness: Object.fromEntries(names.map((n, i) => [n, responsiveness[i]])),
  };
}

export function failOnError(outcome: StatementOutcome): StatementOutcome {
  if (outcome.error) throw new Error(outcome.error.message);
  return outcome;
}

export function describe(answer: EngineAnswer): string {
  if (answer.error) return `error: ${answer.error}`;
  return `${answer.medianMillis.toFixed(0)} ms${answer.equal ? '' : ` DIFFERENT: ${answer.difference}`}`;
}
