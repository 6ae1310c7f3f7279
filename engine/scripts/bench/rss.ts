// The rss suite of `make bench`: what a node's process really holds under each memory setting. For
// each node memory, a coordinator and one worker (both with that setting, the heap it needs and the
// allocator settings the image uses) run two loads from the tpch catalog: TPC-H queries from several
// clients at once, and distinct counts of the lineitem comments. Per load it reads, from /proc, each
// node's peak resident memory (VmHWM, reset before the load) and its resident memory once idle (the
// worker threads' idle timeout after the load), beside the limit the node holds itself to.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLOCATOR_ENV, containerMemoryBytes, heapNeededFor, residentMemoryLimit } from '../../src/config/memory-budget.js';
import { executeStatement, type StatementSession } from '../sqllogictest/statement-client.js';
import { startCluster, type EngineServerProcess } from '../sqllogictest/server-process.js';
import { tpchQuery } from '../tpch/queries.js';
import { distinctCommentQuery, processMemory } from './memory.js';
import { tpchSchema, type BenchOptions } from './options.js';
import { printRssRun, type RssFigures, type RssRun } from './rss-report.js';

const MB = 1024 * 1024;
/** The node memories measured. */
const NODE_MEMORIES_MB = [512, 1024];
/** Joins, aggregations and the comment columns (q10, q13), from every client in turns. */
const TPCH_QUERIES = [1, 3, 5, 9, 10, 13, 18];
const TPCH_CLIENTS = 3;
const DISTINCT_CLIENTS = 2;
/** The worker threads' idle timeout in this suite (shorter than the default 30 s, to keep the suite short); idle is read after it. */
const IDLE_TIMEOUT_MILLIS = 10_000;
const IDLE_WAIT_MILLIS = IDLE_TIMEOUT_MILLIS + 5_000;
const QUERY_TIMEOUT_MILLIS = 30 * 60 * 1000;

export interface RssSuiteContext {
  options: BenchOptions;
  /** engine/dist/src/cli/main.js */
  cliPath: string;
  resultsDir: string;
}

interface Load {
  name: string;
  /** Each client's statements, run one after the other. */
  clients: string[][];
}

export async function runRssSuite(context: RssSuiteContext): Promise<RssRun> {
  const { options } = context;
  const schema = tpchSchema(options.scale);
  const loads: Load[] = [
    {
      name: `TPC-H x${TPCH_CLIENTS}`,
      clients: Array.from({ length: TPCH_CLIENTS }, (_, c) =>
        TPCH_QUERIES.map((_, i) => tpchQuery(TPCH_QUERIES[(i + c) % TPCH_QUERIES.length])),
      ),
    },
    { name: `distinct x${DISTINCT_CLIENTS}`, clients: Array.from({ length: DISTINCT_CLIENTS }, () => [distinctCommentQuery(schema)]) },
  ];
  const run: RssRun = {
    startedAt: new Date().toISOString(),
    scale: options.scale,
    workerThreads: options.threads,
    idleTimeoutMillis: IDLE_TIMEOUT_MILLIS,
    figures: [],
  };
  for (const nodeMemoryMb of NODE_MEMORIES_MB) {
    const nodeMemoryBytes = nodeMemoryMb * MB;
    const heapMb = Math.ceil(heapNeededFor(nodeMemoryBytes) / MB);
    const settings = { nodeMemoryBytes, workerThreads: options.threads, tpch: true };
    console.log(`\nrss: node memory ${nodeMemoryMb}MB, heap ${heapMb}MB, ${options.threads} worker threads...`);
    const env = {
      ...process.env,
      ...ALLOCATOR_ENV,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${heapMb}`.trim(),
    };
    const args = [
      '--node-memory',
      `${nodeMemoryMb}MB`,
      '--task-max-worker-threads',
      String(options.threads),
      '--task-worker-thread-idle-timeout',
      `${IDLE_TIMEOUT_MILLIS}ms`,
    ];
    const [coordinator, worker] = await startCluster(context.cliPath, 1, { env, args });
    try {
      const session: StatementSession = {
        user: 'bench',
        source: 'bench-rss',
        catalog: 'tpch',
        schema,
        properties: options.sessionProperties,
      };
      for (const load of loads) {
        process.stdout.write(`  ${load.name}: `);
        const figures = await measureLoad(load, coordinator, worker, session);
        run.figures.push({
          nodeMemoryBytes,
          heapBytes: heapMb * MB,
          load: load.name,
          ...figures,
          residentLimitBytes: residentMemoryLimit(settings),
          containerBytes: containerMemoryBytes(settings),
        });
        console.log(
          `${figures.succeeded} ok, ${figures.failed} failed; worker peak ${mb(figures.worker.peakBytes)}, idle ${mb(figures.worker.idleBytes)}`,
        );
      }
    } finally {
      await Promise.all([worker.stop(), coordinator.stop()]);
    }
  }
  printRssRun(run);
  mkdirSync(context.resultsDir, { recursive: true });
  const file = join(context.resultsDir, `rss-sf${options.scale}-${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  console.log(`\nwritten to ${file}`);
  return run;
}

async function measureLoad(
  load: Load,
  coordinator: EngineServerProcess,
  worker: EngineServerProcess,
  session: StatementSession,
): Promise<Omit<RssFigures, 'nodeMemoryBytes' | 'heapBytes' | 'load' | 'residentLimitBytes' | 'containerBytes'>> {
  const nodes = [coordinator, worker];
  const samplers = nodes.map((node) => new PeakSampler(node.pid));
  const errors: string[] = [];
  let succeeded = 0;
  await Promise.all(
    load.clients.map(async (statements) => {
      for (const sql of statements) {
        const outcome = await executeStatement(coordinator.url, sql, session, { timeoutMillis: QUERY_TIMEOUT_MILLIS });
        if (outcome.error) errors.push(outcome.error.errorName ?? outcome.error.message);
        else succeeded++;
      }
    }),
  );
  const peaks = samplers.map((s) => s.stop());
  await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MILLIS));
  const idle = nodes.map((node) => processMemory(node.pid, 'VmRSS'));
  return {
    succeeded,
    failed: errors.length,
    errors: [...new Set(errors)],
    coordinator: { peakBytes: peaks[0], idleBytes: idle[0] },
    worker: { peakBytes: peaks[1], idleBytes: idle[1] },
  };
}

/** A process's peak resident memory over a stretch: VmHWM reset at its start (where Linux lets us), and VmRSS sampled meanwhile. */
class PeakSampler {
  private peak: number | undefined;
  private readonly timer: NodeJS.Timeout;
  /** Without the reset VmHWM is the peak since the process started: then the samples alone make the peak. */
  private readonly fields: ('VmRSS' | 'VmHWM')[] = ['VmRSS'];

  constructor(private readonly pid: number | undefined) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      this.fields.push('VmHWM');
    } catch {
      // Not permitted, or not Linux.
    }
    this.sample();
    this.timer = setInterval(() => this.sample(), 50);
  }

  stop(): number | undefined {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }

  private sample(): void {
    for (const field of this.fields) {
      const bytes = processMemory(this.pid, field);
      if (bytes !== undefined) this.peak = Math.max(this.peak ?? 0, bytes);
    }
  }
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? '-' : `${Math.round(bytes / MB)}MB`;
}
