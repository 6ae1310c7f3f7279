// The main-thread side of a scan pipeline run on worker threads: one job per thread, splits
// handed out one at a time as threads ask for them, output pages yielded as they arrive. Split i
// goes to worker i mod n by preference, so that from query to query a worker reads mostly the same
// splits (and keeps their decoded columns); a worker that runs out takes the others' last ones.
// At most CREDITS_PER_WORKER pages per worker are in flight: a worker waits for a credit, which
// comes back when the consumer has taken one of its pages. When the consumer stops early (LIMIT),
// the query is cancelled, or a worker fails, every worker of the query is stopped through a shared
// flag; a worker's error is rethrown here as the same EngineError. A sort's runs are read thread by
// thread instead (ThreadRuns), each page's credit going back to its own thread. The build sides of the joins
// the fragment probes are made here first, in shared memory, and handed to every worker.

import { countConnectorRead } from '../../spi/connector-io.js';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { QueryProgress } from '../../spi/query-progress.js';
import type { Session } from '../../spi/session.js';
import type { TableConstraint } from '../../spi/connector.js';
import { EngineError } from '../../errors/engine-error.js';
import { Fifo } from '../fifo.js';
import { hashAggregation, type HashAggregationSpec } from '../operators/hash-aggregation.js';
import { MemoryReservation } from '../operators/operator-support.js';
import type { HashJoinSpec } from '../operators/hash-join.js';
import { buildSide, type BuildSide } from '../operators/join-build-side.js';
import { shareBuildSide, type SharedBuildSide } from './shared-build-side.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { Page } from '../../columnar/page.js';
import { readSplits } from '../table-scan.js';
import { PartialAggregationDoesNotPay } from './adaptive-partial.js';
import { decodePage } from './page-transfer.js';
import { rememberPoorReduction } from './poor-reductions.js';
import type { PartitionExchange } from './hash-exchange.js';
import { havingOver, pipelineStages, type ScanPipeline } from './scan-pipeline.js';
import { newJobId, sharedThreadPool, type PooledThread, type JobListener, type ThreadPool } from './thread-pool.js';
import { errorFromPayload, type StartJob, type ThreadToMain } from './thread-messages.js';
import type { PreparedSplit } from '../../spi/worker-split.js';
import type { AdaptiveDecisionName } from '../../sql/planner/physical/physical-plan.js';
import { PARTITIONED_FINAL_MIN_THREADS } from '../../sql/planner/physical/adaptive-thresholds.js';

const CREDITS_PER_WORKER = 4;

export interface ParallelEnvironment {
  operator: OperatorContext;
  session: Session;
  progress: QueryProgress;
}

export interface ParallelSourceSpec {
  fragment: ScanPipeline;
  splits: readonly PreparedSplit[];
  /**
   * Splits that arrive while the run goes on (a distributed task's, assigned a few at a time by the
   * coordinator); the run ends once this ends and every split is read. Not with `aggregation`.
   */
  more?: AsyncIterable<PreparedSplit>;
  /** Worker threads to run on (fewer when there are fewer splits). */
  workers: number;
  /** The inputs of the build sides the fragment's probe stages name, by index. */
  builds?: { input: PageStream; spec: HashJoinSpec }[];
  /** Sides made already (in shared memory), numbered after those of `builds` (a parallel mark join's hashed probe side). */
  ready?: BuildSide[];
  /**
   * The scan's dynamic filters, asked once the build sides are made (see exec/dynamic-filters), and
   * again at each split handed out: a remote filter that arrives after the wait still prunes the splits left.
   */
  dynamicFilter?: () => TableConstraint | undefined;
  /** Waits (bounded) for the scan's dynamic filters from other stages, before the run opens its first split. */
  awaitDynamicFilters?: () => Promise<void>;
  /** Records what the run chose in its physical node's adaptive decisions (sql/planner/physical). */
  decide?: (decision: AdaptiveDecisionName, choice: string) => void;
  /**
   * For a fragment that sorts each thread's rows (its `sort`): merges the threads' sorted runs,
   * its pages being the run's output. Not with `aggregation`.
   */
  merge?: (runs: ThreadRuns) => PageStream;
  /** For a fragment ending in a partial aggregation: the rest of it, run here. */
  aggregation?: {
    /** The final step, unless the workers run it. */
    final: HashAggregationSpec;
    /** The whole aggregation in one step over the fragment's stages, for when partial aggregation does not pay. */
    single: HashAggregationSpec;
    /** Remembered when partial aggregation does not pay (see poor-reductions). */
    key: string;
    /**
     * The fragment's stages with the whole aggregation in one step on the threads, partitioned by
     * key hash: run instead of `single` in the main thread when partial aggregation does not pay.
     */
    singleInThreads?: ScanPipeline;
  };
}

/** The output of each thread of a run apart, in the order the thread made it. */
export interface ThreadRuns {
  /** Threads, one run each (some may be empty). */
  readonly count: number;
  /** The next page of run `run`, undefined once it ended; its thread gets its credit back as it is taken. */
  next(run: number): Promise<Page | undefined>;
}

/**
 * Workers from which on the workers finish a grouped aggregation's final step themselves, each on a
 * partition of the groups (see partitioned-final): one worker's partial results are merged here.
 */
export const WORKER_FINAL_MIN_WORKERS = PARTITIONED_FINAL_MIN_THREADS;

export async function* parallelSource(
  env: ParallelEnvironment,
  spec: ParallelSourceSpec,
  pool: ThreadPool = sharedThreadPool(),
): PageStream {
  const prepared = Promise.all(spec.splits.map((split) => split.ready()));
  await (env.operator.stats?.blockedOn(prepared) ?? prepared);
  if (spec.more !== undefined && spec.aggregation !== undefined)
    throw new EngineError('GENERIC_INTERNAL_ERROR', 'A parallel aggregation needs its splits up front');
  // The build sides live as long as the run and its fallback here.
  const buildMemory = new MemoryReservation(env.operator.memory);
  try {
    const sides: BuildSide[] = [];
    for (const build of spec.builds ?? []) sides.push(await buildSide(env.operator, build.input, build.spec, buildMemory, true));
    sides.push(...(spec.ready ?? []));
    yield* runWithBuildSides(env, spec, pool, sides);
  } finally {
    buildMemory.release();
  }
}

async function* runWithBuildSides(
  env: ParallelEnvironment,
  spec: ParallelSourceSpec,
  pool: ThreadPool,
  sides: readonly BuildSide[],
): PageStream {
  await spec.awaitDynamicFilters?.();
  // Shared once for the run and for its fallback.
  const shared: SharedBuildSide[] = [];
  for (const side of sides) shared.push(await shareBuildSide(side, env.operator));
  const run = new ParallelRun(env, spec, pool, shared);
  if (spec.more !== undefined) void run.feed(spec.more);
  const aggregation = spec.aggregation;
  // A HAVING the threads apply when they finish the groups, applied here when this thread does.
  const having = spec.fragment.finalAggregation?.having;
  let completed = false;
  try {
    if (spec.merge !== undefined) yield* spec.merge(run);
    else if (aggregation === undefined || run.workersFinish) yield* run.pages();
    else yield* havingOver(env.operator, hashAggregation(env.operator, run.pages(), aggregation.final), having);
    completed = true;
  } catch (e) {
    if (!(e instanceof PartialAggregationDoesNotPay) || aggregation === undefined) throw e;
  } finally {
    run.close();
  }
  const partitioned = aggregation?.singleInThreads;
  if (spec.fragment.aggregation?.abandonable === true && (completed || run.abandoned)) {
    spec.decide?.(
      'partial aggregation',
      !run.abandoned
        ? 'kept in the threads'
        : partitioned === undefined
          ? 'keeps too many groups: the whole aggregation in one step in the main thread'
          : 'keeps too many groups: the whole aggregation in one step on the threads, partitioned by key hash',
    );
  }
  if (!run.abandoned || aggregation === undefined) return;
  // Nothing went out yet (an aggregation emits once its input is complete): start over.
  pool.recordFallback();
  rememberPoorReduction(aggregation.key);
  run.returnSplits();
  if (partitioned !== undefined) {
    run.forgetSplits();
    const again = new ParallelRun(env, { ...spec, fragment: partitioned, aggregation: undefined, decide: undefined }, pool, shared);
    try {
      yield* again.pages();
    } finally {
      again.close();
    }
    return;
  }
  const scan = readSplits(
    env,
    spec.splits.map((split) => () => split.local(spec.dynamicFilter?.())),
  );
  yield* havingOver(
    env.operator,
    hashAggregation(env.operator, pipelineStages(env.operator, spec.fragment, scan, sides), aggregation.single),
    having,
  );
}

class ParallelRun implements ThreadRuns {
  private readonly taskId = newJobId();
  private readonly cancelFlag = new Int32Array(new SharedArrayBuffer(4));
  private readonly ready: { page: Page; worker: PooledThread }[] = [];
  /** Workers whose task has not ended. */
  private readonly running = new Set<PooledThread>();
  /** Per worker, by position, the indexes of the splits it is to read. */
  private readonly queues: Fifo<number>[];
  private readonly positions = new Map<PooledThread, number>();
  /** Per worker, what its task holds in its own heap, as reported with each finished split. */
  private readonly workerMemory = new Map<PooledThread, MemoryReservation>();
  /** Whether the workers run the fragment's final aggregation (their pages are final rows). */
  readonly workersFinish: boolean = false;
  /** Splits handed out and not reported done. */
  private splitsInFlight = 0;
  private failure: Error | undefined;
  /** Set when the workers gave the work back (see adaptive-partial). */
  abandoned = false;
  /** What this run added to the query's progress for splits the workers finished. */
  private readonly finished = { splits: 0, rows: 0, bytes: 0 };
  private handedOut = 0;
  private closed = false;
  /** Every split of the run so far (those of `spec.more` are added as they come). */
  private readonly splits: PreparedSplit[];
  private noMoreSplits: boolean;
  /** Workers that asked for a split when none was left but more may come. */
  private readonly waiting: PooledThread[] = [];
  private wakeUp: (() => void) | undefined;
  private readonly onAbort = (): void => this.fail(new EngineError('USER_CANCELED', 'Query was canceled'));
  /** The scan's dynamic filters now (spec.dynamicFilter). */
  private readonly dynamicFilter: () => TableConstraint | undefined;
  /** Per worker, how many of the scan's filters it was given: a split takes along the newer ones. */
  private readonly filtersGiven = new Map<PooledThread, number>();

  constructor(
    private readonly env: ParallelEnvironment,
    spec: ParallelSourceSpec,
    pool: ThreadPool,
    /** The build sides of the joins the fragment probes, shared with the threads. */
    builds: readonly SharedBuildSide[],
  ) {
    this.dynamicFilter = spec.dynamicFilter ?? (() => undefined);
    const dynamicFilter = this.dynamicFilter();
    const progress = env.progress;
    progress.totalSplits += spec.splits.length;
    progress.queuedSplits += spec.splits.length;
    this.splits = [...spec.splits];
    this.noMoreSplits = spec.more === undefined;
    const signal = env.operator.signal;
    if (signal.aborted) {
      this.queues = [];
      this.onAbort();
      return;
    }
    signal.addEventListener('abort', this.onAbort);
    const start: StartJob = {
      type: 'start',
      taskId: this.taskId,
      fragment: spec.fragment,
      session: env.session,
      cancelFlag: this.cancelFlag,
      credits: CREDITS_PER_WORKER,
      memoryLimitBytes: env.operator.memory.limitBytes,
      builds: [...builds],
      ...(dynamicFilter === undefined ? {} : { dynamicFilter }),
    };
    const workers = pool.acquire(spec.more === undefined ? Math.min(spec.workers, spec.splits.length) : spec.workers);
    this.queues = workers.map(() => new Fifo<number>());
    spec.splits.forEach((_, i) => this.queues[i % workers.length].push(i));
    const finalStep = spec.fragment.finalAggregation?.step;
    // A final step needs the workers' partial states merged somewhere; rows of a single step cannot be merged here.
    this.workersFinish = finalStep === 'single' || (finalStep === 'final' && workers.length >= WORKER_FINAL_MIN_WORKERS);
    if (spec.fragment.finalAggregation !== undefined) {
      spec.decide?.(
        'final step',
        this.workersFinish ? `partitioned across ${workers.length} threads` : `main thread (${workers.length} threads ran)`,
      );
    }
    // A window on the threads always exchanges its rows between them, by its partition keys' hash.
    const exchanges = this.workersFinish || spec.fragment.window !== undefined ? partitionExchanges(workers.length) : undefined;
    const fragment = this.workersFinish ? spec.fragment : { ...spec.fragment, finalAggregation: undefined };
    workers.forEach((worker, i) => {
      this.positions.set(worker, i);
      this.filtersGiven.set(worker, dynamicFilter?.length ?? 0);
      this.running.add(worker);
      const exchange = exchanges?.[i];
      const ports = exchange?.peers.filter((p): p is MessagePort => p !== null) ?? [];
      pool.startTask(worker, { ...start, fragment, exchange }, this.listener(worker), ports);
    });
  }

  async *pages(): PageStream {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      const next = this.ready.shift();
      if (next !== undefined) {
        yield next.page;
        if (this.running.has(next.worker)) next.worker.post({ type: 'credit', taskId: this.taskId });
        continue;
      }
      if (this.running.size === 0) return;
      const woken = new Promise<void>((resolve) => (this.wakeUp = resolve));
      await (this.env.operator.stats?.blockedOn(woken) ?? woken);
    }
  }

  get count(): number {
    if (this.failure !== undefined) throw this.failure;
    return this.queues.length;
  }

  async next(run: number): Promise<Page | undefined> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      const i = this.ready.findIndex((r) => this.positions.get(r.worker) === run);
      if (i >= 0) {
        const [{ page, worker }] = this.ready.splice(i, 1);
        if (this.running.has(worker)) worker.post({ type: 'credit', taskId: this.taskId });
        return page;
      }
      if (![...this.running].some((w) => this.positions.get(w) === run)) return undefined;
      const woken = new Promise<void>((resolve) => (this.wakeUp = resolve));
      await (this.env.operator.stats?.blockedOn(woken) ?? woken);
    }
  }

  /** Stops every worker still running (early stop, cancel or failure) and forgets the task. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.env.operator.signal.removeEventListener('abort', this.onAbort);
    for (const reservation of this.workerMemory.values()) reservation.release();
    this.env.progress.runningSplits -= this.splitsInFlight;
    this.splitsInFlight = 0;
    if (this.running.size === 0) return;
    Atomics.store(this.cancelFlag, 0, 1);
    for (const worker of this.running) {
      worker.post({ type: 'cancel', taskId: this.taskId });
      worker.detach(this.taskId);
    }
    this.running.clear();
  }

  private listener(worker: PooledThread): JobListener {
    return {
      onMessage: (message) => this.receive(worker, message),
      onFailure: (error) => {
        this.running.delete(worker);
        this.fail(error);
      },
    };
  }

  private receive(worker: PooledThread, message: ThreadToMain): void {
    const progress = this.env.progress;
    switch (message.type) {
      case 'needSplit':
        this.handOutSplit(worker);
        return;
      case 'page':
        this.ready.push({ page: decodePage(message.page), worker });
        this.mirrorWorkerMemory(worker, message.memoryBytes);
        break;
      case 'splitDone':
        this.splitsInFlight--;
        progress.runningSplits--;
        progress.completedSplits++;
        progress.processedRows += message.rows;
        progress.processedBytes += message.bytes;
        this.env.operator.stats?.input(message.rows, message.bytes);
        countConnectorRead(message.metrics);
        this.env.operator.stats?.connectorMetrics(message.metrics);
        this.addWorkerCpu(message.cpuMillis);
        this.finished.splits++;
        this.finished.rows += message.rows;
        this.finished.bytes += message.bytes;
        this.mirrorWorkerMemory(worker, message.memoryBytes);
        return;
      case 'memory':
        this.mirrorWorkerMemory(worker, message.memoryBytes);
        return;
      case 'poorReduction':
        this.running.delete(worker);
        this.abandoned = true;
        this.fail(new PartialAggregationDoesNotPay());
        return;
      case 'done':
        this.addWorkerCpu(message.cpuMillis);
        this.running.delete(worker);
        this.mirrorWorkerMemory(worker, 0);
        break;
      case 'failed':
        this.running.delete(worker);
        this.mirrorWorkerMemory(worker, 0);
        this.fail(errorFromPayload(message.error));
        break;
    }
    this.notify();
  }

  /** The CPU of a worker thread: the operator's, and so the task's. */
  private addWorkerCpu(millis: number): void {
    const stats = this.env.operator.stats;
    if (stats !== undefined) stats.addBackgroundCpu(millis);
    else this.env.progress.cpuTimeMillis += millis;
  }

  /** Counts a worker's heap use in the query's memory, so its limit and the node's cover the workers too. */
  private mirrorWorkerMemory(worker: PooledThread, bytes: number): void {
    let reservation = this.workerMemory.get(worker);
    if (reservation === undefined) {
      if (bytes === 0) return;
      reservation = new MemoryReservation(this.env.operator.memory);
      this.workerMemory.set(worker, reservation);
    }
    try {
      reservation.set(bytes);
    } catch (e) {
      this.fail(e as Error);
    }
  }

  /** Adds the splits of `more` as they come, then tells the workers waiting for one that none will. */
  async feed(more: AsyncIterable<PreparedSplit>): Promise<void> {
    try {
      for await (const split of more) {
        await split.ready();
        if (this.closed || this.failure !== undefined) return;
        const index = this.splits.push(split) - 1;
        this.queues[index % Math.max(1, this.queues.length)]?.push(index);
        this.env.progress.totalSplits++;
        this.env.progress.queuedSplits++;
        const waiting = this.waiting.shift();
        if (waiting !== undefined) this.handOutSplit(waiting);
      }
    } catch (e) {
      this.fail(e as Error);
    } finally {
      this.noMoreSplits = true;
      for (const worker of this.waiting.splice(0)) this.handOutSplit(worker);
    }
  }

  private handOutSplit(worker: PooledThread): void {
    const ended = this.closed || this.failure !== undefined;
    const index = ended ? undefined : this.takeSplit(this.positions.get(worker) ?? 0);
    if (index === undefined) {
      if (!ended && !this.noMoreSplits) this.waiting.push(worker);
      else worker.post({ type: 'split', taskId: this.taskId, split: null });
      return;
    }
    const split = this.splits[index].worker;
    this.handedOut++;
    this.splitsInFlight++;
    this.env.progress.queuedSplits--;
    this.env.progress.runningSplits++;
    const newer = this.newerDynamicFilter(worker);
    worker.post({ type: 'split', taskId: this.taskId, split, ...(newer === undefined ? {} : { dynamicFilter: newer }) });
  }

  /**
   * The scan's filters, when more of them are complete than `worker` has (a remote filter that came
   * after the wait); undefined when it has them all. A filter, once complete, keeps its domain.
   */
  private newerDynamicFilter(worker: PooledThread): TableConstraint | undefined {
    const now = this.dynamicFilter();
    if (now === undefined || now.length <= (this.filtersGiven.get(worker) ?? 0)) return undefined;
    this.filtersGiven.set(worker, now.length);
    return now;
  }

  /** After close: counts the splits handed out as queued again, forgetting what the workers read. */
  returnSplits(): void {
    const progress = this.env.progress;
    progress.queuedSplits += this.handedOut;
    progress.completedSplits -= this.finished.splits;
    progress.processedRows -= this.finished.rows;
    progress.processedBytes -= this.finished.bytes;
  }

  /** After returnSplits: takes the run's splits out of the progress, for another run of the same splits to add them. */
  forgetSplits(): void {
    this.env.progress.totalSplits -= this.splits.length;
    this.env.progress.queuedSplits -= this.splits.length;
  }

  /** The next split of the worker at `position`, else the last one of the worker with most left. */
  private takeSplit(position: number): number | undefined {
    const own = this.queues[position].shift();
    if (own !== undefined) return own;
    if (this.queues.length === 0) return undefined;
    const longest = this.queues.reduce((a, b) => (b.length > a.length ? b : a));
    return longest.pop();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }
}

/** A port between every two of `count` workers: worker i's peers[j] talks to worker j. */
function partitionExchanges(count: number): PartitionExchange[] {
  const exchanges: PartitionExchange[] = Array.from({ length: count }, (_, partition) => ({
    partition,
    peers: new Array<MessagePort | null>(count).fill(null),
  }));
  for (let a = 0; a < count; a++) {
    for (let b = a + 1; b < count; b++) {
      const channel = new MessageChannel();
      exchanges[a].peers[b] = channel.port1;
      exchanges[b].peers[a] = channel.port2;
    }
  }
  return exchanges;
}
