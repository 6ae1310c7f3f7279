// One task: a fragment of a query running on this node. It maps the fragment's physical plan (the
// coordinator's, from the task request) to operators with the local execution planner — its scans reading the splits the coordinator assigned, its remote sources
// reading the output buffers of the tasks below through exchange clients — and feeds its pages into
// its output buffer. States as Trino's: RUNNING, then FLUSHING once every page is in the buffer,
// then FINISHED once the consumers took them all; or CANCELED, ABORTED, FAILED. Every change bumps
// the version, which GET /v1/task long-polls on; a task that is done reports the largest version.
// FLUSHING and its output buffer's changes short of FINISHED bump it coalesced, as split progress.
// Split progress (a split taken or started) bumps it too, but at most once per
// PROGRESS_COALESCE_MILLIS while the coordinator may send more splits (it sends them as splits
// start): a task taking thousands of splits a second must not make its coordinator fetch and parse
// a task info for each. Once no more splits will come, progress only feeds the query's figures, and
// shows at most once per SETTLED_PROGRESS_COALESCE_MILLIS (as Trino's task info, every few seconds).

import type { CatalogManager } from '../connectors/catalog-manager.js';
import { EngineError, toEngineError } from '../errors/engine-error.js';
import { errorCodeJson, failureInfoJson } from '../errors/failure-info.js';
import { DynamicFilters } from '../exec/dynamic-filters/dynamic-filters.js';
import { remoteDynamicFilters } from '../sql/planner/distributed/remote-dynamic-filters.js';
import { LocalExecutionPlanner, type ExecutionEnvironment, type QuerySpools } from '../exec/local-execution-planner.js';
import { PhysicalPlanIndex } from '../sql/planner/physical/physical-plan-index.js';
import type { PhysicalNode } from '../sql/planner/physical/physical-plan.js';
import type { MemoryContext } from '../exec/memory.js';
import { newQueryProgress, type QueryProgress } from '../spi/query-progress.js';
import type { Session } from '../spi/session.js';
import type { PlanNode, RemoteSourceNode } from '../sql/planner/plan.js';
import { OperatorRecorders, type OperatorRecorder } from '../exec/stats/operator-recorder.js';
import { abortOnSignal, ExchangeClient, type ExchangeClientOptions, type RemoteSourceClient } from './exchange-client.js';
import { MergingExchangeClient } from './merging-exchange-client.js';
import type { OutputBufferOptions } from './output-buffer.js';
import { SplitQueue } from './split-queue.js';
import { TaskOutput } from './task-output.js';
import { taskIdBase } from '../exec/operators/assign-unique-id.js';
import { isDoneState, type TaskFailure, type TaskState } from '../internode/task-info.js';
import type { OutputBuffersSpec, TaskUpdateRequest } from '../internode/task-update-request.js';

/** The version a task that is done reports (Java's Long.MAX_VALUE, as Trino's coordinator expects). */
export const DONE_TASK_VERSION = 9223372036854775807n;

export interface SqlTaskOptions {
  catalogs: CatalogManager;
  /** The query's memory on this node, shared by its tasks here. */
  queryMemory: MemoryContext;
  /** The rows of the common subplans the query's tasks here share (a single node's fragments), kept while any of its tasks is. */
  querySpools: QuerySpools;
  outputBuffer: OutputBufferOptions;
  exchange: ExchangeClientOptions;
  /** The node's running time (AwakeClock), in which the silence of the task's coordinator is counted. */
  awakeMillis: () => number;
}

/** How long split progress may wait before it shows in the version (state changes show at once). */
export const PROGRESS_COALESCE_MILLIS = 100;
/** The same once the task will get no more splits: nothing the coordinator does waits for it. */
export const SETTLED_PROGRESS_COALESCE_MILLIS = 1000;
/** A task's memory shows in the version when it first reaches this, and again at each doubling. */
const MEMORY_SHOWN_FROM_BYTES = 1024 * 1024;

export class SqlTask {
  readonly createTime = new Date();
  startTime: Date | undefined;
  endTime: Date | undefined;
  /** The last request of the task's coordinator, and the node's running time then. */
  lastHeartbeat = new Date();
  lastHeardAwakeMillis: number;
  /**
   * The task's counters. A split that starts changes the task's version (coalesced): the coordinator,
   * long-polling on it, sends more splits then rather than at its next poll (a second later).
   */
  readonly progress: QueryProgress = notifyingSplitStarts(newQueryProgress(), () => this.progressed());
  readonly memory: MemoryContext;
  /** The counts and times of the fragment's operators, and of the task output after them. */
  readonly operators: OperatorRecorders;
  private currentState: TaskState = 'PLANNED';
  private changes = 0;
  /** Set while split progress waits to show in the version. */
  private progressTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly abort = new AbortController();
  private output: TaskOutput | undefined;
  private fragment: PlanNode | undefined;
  /** The fragment's physical plan, as the coordinator made it (task-update-check.ts checked it fits the fragment). */
  private physical: PhysicalNode | undefined;
  private session: Session | undefined;
  private readonly splits = new Map<number, SplitQueue>();
  private readonly exchanges = new Map<number, RemoteSourceClient>();
  private readonly pendingLocations = new Map<number, { uri: string; nodeId: string }[]>();
  private readonly noMoreLocations = new Set<number>();
  /** The fragment's dynamic filters: a remote one its join completes shows in a new version (task-info.ts reports it). */
  readonly dynamicFilters = new DynamicFilters(() => this.changed());
  failure: TaskFailure | undefined;
  /** Whether a response carried the task's final state (its coordinator knows it ended). */
  finalInfoSent = false;

  constructor(
    readonly taskId: string,
    private readonly options: SqlTaskOptions,
    private readonly onDone: (task: SqlTask) => void,
  ) {
    this.lastHeardAwakeMillis = options.awakeMillis();
    this.memory = options.queryMemory.child(taskId);
    this.memory.onRevoke((error) => this.fail(error));
    this.memory.watchGrowth(MEMORY_SHOWN_FROM_BYTES, () => this.memoryGrew());
    this.operators = new OperatorRecorders(this.memory, this.progress);
  }

  get state(): TaskState {
    return this.currentState;
  }

  get version(): bigint {
    return isDoneState(this.currentState) ? DONE_TASK_VERSION : BigInt(this.changes);
  }

  /** The fragment the task runs; undefined until its first request. */
  get plan(): PlanNode | undefined {
    return this.fragment;
  }

  get outputBuffer() {
    return this.output?.buffer;
  }

  get outputSpec(): OutputBuffersSpec | undefined {
    return this.outputSpecValue;
  }

  private outputSpecValue: OutputBuffersSpec | undefined;

  /** Plan node ids of the scans told there are no more splits. */
  get noMoreSplits(): string[] {
    return [...this.splits].filter(([, s]) => s.noMoreSplits).map(([id]) => String(id));
  }

  /** Splits received by the task's scans, and those of them not started yet. */
  get splitCounts(): { received: number; waiting: number } {
    let received = 0;
    let waiting = this.progress.queuedSplits;
    for (const queue of this.splits.values()) {
      received += queue.received;
      waiting += queue.backlog;
    }
    return { received, waiting };
  }

  get outputRows(): number {
    return this.output?.rows ?? 0;
  }

  get outputBytes(): number {
    return this.output?.bytes ?? 0;
  }

  get exchangeClients(): ReadonlyMap<number, RemoteSourceClient> {
    return this.exchanges;
  }

  /**
   * POST /v1/task/{taskId}: the first request creates the task (with `physical`, its physical plan as
   * task-update-check.ts read it); later ones add splits and locations.
   */
  update(request: TaskUpdateRequest, session: Session, physical?: PhysicalNode): void {
    this.heard();
    if (this.fragment === undefined) {
      if (request.fragment === undefined || physical === undefined || request.outputBuffers === undefined) {
        throw new EngineError(
          'GENERIC_USER_ERROR',
          `Task ${this.taskId} does not exist yet: its first request needs a fragment, its physical plan and output buffers`,
        );
      }
      this.fragment = request.fragment;
      this.physical = physical;
      this.session = session;
      this.outputSpecValue = request.outputBuffers;
      const bufferMemory = this.memory.child('output buffer');
      bufferMemory.tag = 'OutputBuffer';
      this.output = new TaskOutput(
        request.outputBuffers,
        request.fragment.outputs.map((s) => s.type),
        { ...this.options.outputBuffer, memory: bufferMemory },
      );
      this.output.buffer.onStateChange(() => this.bufferChanged());
      const remote = remoteDynamicFilters(request.fragment);
      this.dynamicFilters.expectRemote(remote.scans, remote.joins);
    }
    if (isDoneState(this.currentState)) return;
    if (request.dynamicFilterDomains !== undefined) this.dynamicFilters.receive(request.dynamicFilterDomains);
    for (const source of request.sources) {
      let queue = this.splits.get(source.planNodeId);
      if (queue === undefined) {
        queue = new SplitQueue(() => this.progressed());
        this.splits.set(source.planNodeId, queue);
      }
      queue.add(source.splits, source.noMoreSplits);
    }
    for (const remote of request.remoteSources) {
      const client = this.exchanges.get(remote.planNodeId);
      if (client !== undefined) {
        for (const location of remote.locations) client.addLocation(location);
        if (remote.noMoreLocations) client.setNoMoreLocations();
      } else {
        this.pendingLocations.set(remote.planNodeId, [...(this.pendingLocations.get(remote.planNodeId) ?? []), ...remote.locations]);
        if (remote.noMoreLocations) this.noMoreLocations.add(remote.planNodeId);
      }
    }
    this.changed();
    if (this.currentState === 'PLANNED') this.start();
  }

  /** DELETE /v1/task/{taskId}: abort (the default) drops the buffered pages; cancel lets consumers take them. */
  cancel(abort: boolean): void {
    if (isDoneState(this.currentState)) return;
    this.stop(abort ? 'ABORTED' : 'CANCELED');
  }

  fail(error: EngineError): void {
    if (isDoneState(this.currentState)) return;
    this.failure = { ...failureInfoJson(error), errorCode: errorCodeJson(error) };
    this.stop('FAILED');
  }

  /** Resolves once the version differs from `version`, or after `maxWaitMillis`. */
  async waitForChange(version: bigint | undefined, maxWaitMillis: number): Promise<void> {
    this.heard();
    if (version === undefined || version !== this.version || maxWaitMillis <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMillis);
      this.waiters.add(done);
    });
  }

  /** A request of the task's coordinator came. */
  private heard(): void {
    this.lastHeartbeat = new Date();
    this.lastHeardAwakeMillis = this.options.awakeMillis();
  }

  private start(): void {
    this.setState('RUNNING');
    this.startTime = new Date();
    void this.run();
  }

  /**
   * Plans the fragment and runs it. The planning waits for the next turn of the event loop: the
   * request that created the task is answered first (the coordinator waits for every creation
   * before it reads the query's output, and a busy node takes its requests one after another). A
   * fragment that fails to plan fails the task: its state reports the error, as Trino's does.
   */
  private async run(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (isDoneState(this.currentState)) return;
    const session = this.session!;
    const env: ExecutionEnvironment = {
      operator: { memory: this.memory, signal: this.abort.signal, timeZone: session.timeZone },
      catalogs: this.options.catalogs,
      session,
      progress: this.progress,
      operators: this.operators,
      remoteSources: (node, stats) => this.remoteSource(node, new ExchangeClient(this.exchangeOptions(), stats)),
      mergingRemoteSources: (node, stats) => this.remoteSource(node, new MergingExchangeClient(this.exchangeOptions(), stats)),
      dynamicFilters: this.dynamicFilters,
      // The scans the coordinator assigns splits to are named in the first request; the others read their table here.
      assignedSplits: (scan) => this.splits.get(scan.id),
      uniqueIdBase: taskIdBase(this.taskId),
      querySpools: this.options.querySpools,
    };
    const output = this.output!;
    const fragment = this.fragment!;
    // The task output is the consumer of the fragment's root: its own operator in the summaries.
    const outputStats = this.operators.extra(fragment.id, TaskOutput.name);
    try {
      const plan = new PhysicalPlanIndex(this.physical!);
      const planner = new LocalExecutionPlanner(env, plan);
      const sharedProducers = planner.runSharedProducers();
      const stream = planner.plan(fragment, new Map(), outputStats);
      const iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const before = { rows: output.rows, bytes: output.bytes };
        await output.add(next.value, outputStats);
        recordOutput(outputStats, output, before);
        if (isDoneState(this.currentState)) {
          await iterator.return?.();
          return;
        }
      }
      // Other tasks may still wait for the rows of a common subplan this one produces.
      await sharedProducers;
      if (isDoneState(this.currentState)) return;
      const before = { rows: output.rows, bytes: output.bytes };
      output.finish();
      recordOutput(outputStats, output, before);
      this.setState('FLUSHING');
      this.bufferChanged();
    } catch (e) {
      if (!isDoneState(this.currentState)) this.fail(toEngineError(e));
    } finally {
      outputStats.stop();
    }
  }

  /** The task's input ends once every buffer it reads is complete: their releases go out meanwhile. */
  private exchangeOptions(): ExchangeClientOptions {
    return { ...this.options.exchange, endBeforeRelease: true };
  }

  /** `client` reading the remote source: given the locations that came before it and those that come after. */
  private remoteSource<C extends RemoteSourceClient>(node: RemoteSourceNode, client: C): C {
    this.exchanges.set(node.id, client);
    for (const location of this.pendingLocations.get(node.id) ?? []) client.addLocation(location);
    this.pendingLocations.delete(node.id);
    if (this.noMoreLocations.has(node.id)) client.setNoMoreLocations();
    abortOnSignal(
      client,
      this.abort.signal,
      () => new EngineError('USER_CANCELED', `Task ${this.taskId} was ${this.currentState.toLowerCase()}`),
    );
    return client;
  }

  /**
   * The output buffer's state changed (no more pages, a consumer released its buffer): FINISHED once
   * all released. Short of that nothing the coordinator acts on changed, so it shows coalesced as
   * split progress does, mostly with the FINISHED that follows: a task's long poll is answered once
   * at its end, not once per state and consumer on the way.
   */
  private bufferChanged(): void {
    const buffer = this.output?.buffer;
    if (buffer === undefined) return;
    if (this.currentState === 'FLUSHING' && buffer.state === 'FINISHED') this.setState('FINISHED');
    else this.progressed();
  }

  private stop(state: TaskState): void {
    this.setState(state);
    this.abort.abort();
    for (const queue of this.splits.values()) queue.close();
    for (const client of this.exchanges.values()) client.close();
    if (state === 'CANCELED') this.output?.finish();
    else this.output?.buffer.abort();
  }

  private setState(state: TaskState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    if (isDoneState(state)) {
      this.endTime = new Date();
      this.memory.close();
      this.onDone(this);
    }
    // FLUSHING (its output produced, not all read yet) asks nothing of the coordinator: see bufferChanged.
    if (state === 'FLUSHING') this.progressed();
    else this.changed();
  }

  /** Split progress: shows in the version within PROGRESS_COALESCE_MILLIS, with whatever else changed by then. */
  private progressed(): void {
    if (this.progressTimer !== undefined || isDoneState(this.currentState)) return;
    this.progressTimer = setTimeout(() => this.changed(), this.progressCoalesceMillis).unref();
  }

  /** How long split progress waits to show in the version now: short while a scan of the task may get more splits. */
  get progressCoalesceMillis(): number {
    for (const queue of this.splits.values()) if (!queue.noMoreSplits) return PROGRESS_COALESCE_MILLIS;
    return SETTLED_PROGRESS_COALESCE_MILLIS;
  }

  /** Memory that doubled shows soon even once the task's splits are all in: the coordinator enforces query_max_memory on it. */
  private memoryGrew(): void {
    if (isDoneState(this.currentState)) return;
    if (this.progressTimer !== undefined && this.progressCoalesceMillis === PROGRESS_COALESCE_MILLIS) return;
    clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => this.changed(), PROGRESS_COALESCE_MILLIS).unref();
  }

  private changed(): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    this.changes++;
    for (const wake of [...this.waiters]) wake();
  }
}

/** What the task output put into its buffer since `before` (the pages as the buffer holds them; an empty page is dropped, small pieces wait for their partition's batch). */
function recordOutput(stats: OperatorRecorder, output: TaskOutput, before: { rows: number; bytes: number }): void {
  if (output.rows > before.rows) stats.output(output.rows - before.rows, output.bytes - before.bytes);
}

/** `progress`, calling `onStart` whenever its queued splits go down (a split started). */
function notifyingSplitStarts(progress: QueryProgress, onStart: () => void): QueryProgress {
  let queued = progress.queuedSplits;
  return Object.defineProperty(progress, 'queuedSplits', {
    get: () => queued,
    set: (value: number) => {
      const started = value < queued;
      queued = value;
      if (started) onStart();
    },
    enumerable: true,
  });
}
