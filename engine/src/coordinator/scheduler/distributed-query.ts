// Runs a fragmented plan over the cluster. Every fragment but the root becomes a stage of tasks:
// SOURCE and FIXED_HASH stages one task per node that takes work (a SOURCE stage over fewer splits
// than nodes, one per split), SINGLE one task on one of them,
// COORDINATOR_ONLY one task here. Every task is created at once (the requests go out producers
// first; a consumer that asks a producer not created yet waits for it on that node), each told its
// consumers' buffer count, the first batch of the splits of its scans (split-assigner.ts) and where
// its remote sources read (buffer i of every task below, for its task i). The root fragment runs in the query
// itself, reading its remote sources the same way. A node that refuses a task (it just left ACTIVE)
// or is gone before its tasks are all created is left out and the stages are placed again; while no
// node takes tasks at all, the query waits for one (query.requiredWorkersMaxWait). A task that fails,
// or whose node is gone (declared so by the health checks, or silent for the max error duration),
// fails the query; at the end, whatever its outcome, every task hears of it (DELETE). Remote dynamic
// filters go from the join's stage to the scan's through here (remote-dynamic-filters.ts).

import { scanSplits } from '../../exec/scan-splits.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogManager } from '../../connectors/catalog-manager.js';
import { formatDataSize, parseDataSize } from '../../config/data-size.js';
import { formatDuration } from '../../config/duration.js';
import { EngineError, toEngineError } from '../../errors/engine-error.js';
import { LocalExecutionPlanner, type ExecutionEnvironment } from '../../exec/local-execution-planner.js';
import type { PageStream } from '../../exec/operators/operator.js';
import type { Split } from '../../spi/connector.js';
import type { QueryProgress } from '../../spi/query-progress.js';
import type { Session } from '../../spi/session.js';
import { sessionToJson, type SessionJson } from '../../spi/session-json.js';
import { allFragments, isPartitioned, type PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import type { PlanNode, RemoteSourceNode } from '../../sql/planner/plan.js';
import type { NodeRuntimeStats } from '../../sql/planner/plan-printer.js';
import { sources } from '../../sql/planner/plan.js';
import { abortOnSignal, ExchangeClient, type ExchangeClientOptions, type RemoteSourceClient } from '../../worker/exchange-client.js';
import { MergingExchangeClient } from '../../worker/merging-exchange-client.js';
import type { TaskInfo } from '../../internode/task-info.js';
import type { OutputBuffersSpec, ScanSplits, TaskUpdateRequest } from '../../internode/task-update-request.js';
import { SplitAssigner } from './split-assigner.js';
import { balancedRotations, SOURCE_PLACEMENT_BY_SPLITS_PROPERTY } from './source-placement.js';
import { RemoteDynamicFilters } from './remote-dynamic-filters.js';
import { DYNAMIC_FILTER_KEY_BITMAP_PROPERTY, DynamicFilters, remoteKeyBitmapMaxBytes } from '../../exec/dynamic-filters/dynamic-filters.js';
import { booleanSessionProperty } from '../../spi/session-properties.js';
import type { DynamicFilterDomain } from '../../internode/dynamic-filter-domains.js';
import { remoteDynamicFilters } from '../../sql/planner/distributed/remote-dynamic-filters.js';
import { NodeGoneError, RemoteTask, type TaskNode } from './remote-task.js';
import type { TaskChannel } from './task-channel.js';
import { stageSnapshot, type StageSnapshot } from './stage-snapshot.js';
import type { QueryMemoryUsage, TaskMemoryReport } from '../query-memory.js';
import type { DistributedView } from '../query-execution-context.js';
import type { NodeLiveness } from '../remote-node.js';
import { summaryFigures } from '../../exec/stats/operator-summary.js';
import { addRuntimeStats } from '../../exec/stats/runtime-stats.js';
import { TaskOutput } from '../../worker/task-output.js';
import { physicalToJson } from '../../sql/planner/physical/physical-plan-json.js';
import type { PhysicalPlanIndex } from '../../sql/planner/physical/physical-plan-index.js';

export interface ClusterView {
  /** The nodes that take tasks of partitioned stages now (ACTIVE workers; this node when it takes work too). */
  workerNodes(): TaskNode[];
  /** A node refused a task: it just left ACTIVE, so no query should place tasks there for now. */
  nodeRefused(nodeId: string): void;
  /** This node (the coordinator), for COORDINATOR_ONLY stages. */
  self(): TaskNode;
  /** How to reach a task on `node`: in process for this node, over HTTP for another. */
  channel(node: TaskNode): TaskChannel;
  /** `node` as the health checks see it: declared gone (never this node), told when its tasks answer. */
  liveness(node: TaskNode): NodeLiveness;
  /** query.remoteTaskMaxErrorDuration: how long a task's requests may keep failing before its query fails. */
  remoteTaskMaxErrorDurationMillis: number;
  exchange: ExchangeClientOptions;
  /** query.max-memory: what one query's tasks may hold on all nodes together. */
  queryMaxMemoryBytes: number;
  /** How long a query waits for a node to take its tasks while there is none (see waitForNodes). */
  requiredWorkersMaxWaitMillis: number;
}

export interface Stage {
  fragment: PlanFragment;
  tasks: RemoteTask[];
  /** A SOURCE stage's splits, handed to its tasks a few at a time. */
  splits?: SplitAssigner;
  /** The stage's split supply, one hand-out at a time (reading splits may wait on the connector). */
  supplying?: Promise<void>;
}

/**
 * How many times a query places its stages again after nodes refused tasks. Each placement leaves
 * out every node that refused one, so the bound only matters while nodes keep joining and leaving.
 */
const MAX_PLACEMENTS = 10;

/** How often a query waiting for a node looks again (the node list changes at health checks). */
const NODE_WAIT_POLL_MILLIS = 100;

export class DistributedQuery implements DistributedView {
  readonly stages = new Map<number, Stage>();
  private failure: EngineError | undefined;
  private readonly failed = new AbortController();
  private readonly counted = new Map<string, Counted>();
  private finished = false;
  /** Per RemoteSource node reading a shared stage (shared-stages.ts), its first buffer in the stage's tasks. */
  private readonly firstBuffers = new Map<number, number>();
  /** Per fragment, the number of its next task. */
  private readonly taskNumbers = new Map<number, number>();
  /** query.max-memory, or the session's query_max_memory when it sets a lower one. */
  private readonly memoryLimit: number;
  /** The session as every task request carries it, made once per query. */
  private readonly sessionJson: SessionJson;
  /** The remote dynamic filters of the current placement: their domains as the join's tasks report them. */
  private remoteFilters: RemoteDynamicFilters | undefined;
  /** The dynamic filters of the root fragment, which runs here: it may hold a remote filter's join or scan. */
  private readonly rootFilters = new DynamicFilters(() =>
    this.domainsReported(this.root.id, ROOT_TASK, this.rootFilters.publishedDomains()),
  );

  constructor(
    readonly root: PlanFragment,
    private readonly session: Session,
    private readonly cluster: ClusterView,
    private readonly catalogs: CatalogManager,
    private readonly progress: QueryProgress,
    private readonly memory: QueryMemoryUsage,
    /** Each fragment's physical plan, made by the coordinator once (fragment-physical-plans.ts) and sent with the fragment to its tasks. */
    private readonly physicalPlanOf: (fragment: PlanFragment) => PhysicalPlanIndex,
  ) {
    const requested = session.properties.get('query_max_memory');
    this.memoryLimit = Math.min(cluster.queryMaxMemoryBytes, (requested && parseDataSize(requested)) || Infinity);
    this.sessionJson = sessionToJson(session);
    const rootRemote = remoteDynamicFilters(root.root);
    this.rootFilters.expectRemote(rootRemote.scans, rootRemote.joins);
  }

  /**
   * The query's rows: creates the tasks, then runs the root fragment here over their output.
   * `explain`: EXPLAIN ANALYZE's figures, to which the tasks' operators are added at the end.
   */
  async *pages(env: ExecutionEnvironment, explain?: Map<number, NodeRuntimeStats>): PageStream {
    const signal = AbortSignal.any([env.operator.signal, this.failed.signal]);
    let outcome: 'finished' | 'failed' = 'failed';
    try {
      await this.schedule(signal);
      const local: ExecutionEnvironment = {
        ...env,
        operator: { ...env.operator, signal },
        remoteSources: (node, stats) => this.exchange(node, new ExchangeClient(this.cluster.exchange, stats), signal),
        mergingRemoteSources: (node, stats) => this.exchange(node, new MergingExchangeClient(this.cluster.exchange, stats), signal),
        dynamicFilters: this.rootFilters,
      };
      yield* new LocalExecutionPlanner(local, this.physicalPlanOf(this.root)).plan(this.root.root);
      if (this.failure) throw this.failure;
      outcome = 'finished';
    } catch (e) {
      const error = this.failure ?? toEngineError(e);
      throw error.errorName === 'REMOTE_TASK_ERROR' ? ((await this.rootCause()) ?? error) : error;
    } finally {
      await this.close(outcome === 'finished' ? false : true);
      if (explain !== undefined) this.addTaskOperators(explain);
    }
  }

  /** EXPLAIN ANALYZE: what the operators of every task did (their final summaries), by plan node. */
  private addTaskOperators(stats: Map<number, NodeRuntimeStats>): void {
    for (const task of this.allTasks()) {
      const pipelines = task.info?.stats.pipelines ?? [];
      for (const operator of pipelines.flatMap((p) => p.operatorSummaries)) {
        // The task output stands for no plan node of its own (it bears the fragment root's id).
        if (operator.operatorType !== TaskOutput.name) addRuntimeStats(stats, summaryFigures(operator));
      }
    }
  }

  /** The stages under the root (fragment 0 runs in the query itself), for the query detail. */
  subStages(): StageSnapshot[] {
    const snapshot = (fragment: PlanFragment): StageSnapshot | undefined => {
      const stage = this.stages.get(fragment.id);
      if (stage === undefined) return undefined;
      const children = fragment.children.map(snapshot).filter((s): s is StageSnapshot => s !== undefined);
      return stageSnapshot(this.session.queryId, fragment, stage.tasks, children);
    };
    return this.root.children.map(snapshot).filter((s): s is StageSnapshot => s !== undefined);
  }

  nodeCount(): number {
    return new Set([this.cluster.self().nodeId, ...this.allTasks().map((t) => t.node.nodeId)]).size;
  }

  /**
   * When an exchange (here or in a task above) saw a task fail: the error of the task that failed
   * first of its own accord (say DIVISION_BY_ZERO), not that of those that failed reading from it.
   */
  private async rootCause(): Promise<EngineError | undefined> {
    const failures = await Promise.all(this.allTasks().map((t) => t.failure()));
    return failures.find((f) => f !== undefined && f.errorName !== 'REMOTE_TASK_ERROR');
  }

  /** Every task of the query, stage by stage. */
  allTasks(): RemoteTask[] {
    return [...this.stages.values()].flatMap((s) => s.tasks);
  }

  private async schedule(signal: AbortSignal): Promise<void> {
    const refused = new Set<string>();
    const needsWorkers = this.needsWorkers();
    if (needsWorkers) await this.waitForNodes(signal);
    for (let attempt = 1; ; attempt++) {
      const nodes = this.cluster.workerNodes().filter((n) => !refused.has(n.nodeId));
      if (nodes.length === 0 && needsWorkers) throw new EngineError('NO_NODES_AVAILABLE', 'No nodes available to run query');
      try {
        await this.createTasks(nodes);
        return;
      } catch (e) {
        const refusal = e instanceof Refusal ? e : undefined;
        await this.close(true);
        if (refusal === undefined || attempt >= MAX_PLACEMENTS) throw refusal?.error ?? e;
        refused.add(refusal.nodeId);
        this.stages.clear();
        this.counted.clear();
        this.remoteFilters = undefined;
      }
    }
  }

  /** Whether a stage runs on the nodes that take tasks (not all of them on the coordinator: system and memory tables, VALUES). */
  private needsWorkers(): boolean {
    return allFragments(this.root).some((f) => f.id !== this.root.id && f.partitioning !== 'COORDINATOR_ONLY');
  }

  /**
   * A coordinator that takes no tasks itself (node-scheduler.include-coordinator=false) and has no
   * ACTIVE worker, say before the first one joined: the query waits for one, up to
   * query.requiredWorkersMaxWait, as Trino's does for its required workers.
   */
  private async waitForNodes(signal: AbortSignal): Promise<void> {
    const maxWait = this.cluster.requiredWorkersMaxWaitMillis;
    const deadline = Date.now() + maxWait;
    while (this.cluster.workerNodes().length === 0) {
      if (Date.now() >= deadline) {
        throw new EngineError(
          'NO_NODES_AVAILABLE',
          `Insufficient active worker nodes. Waited ${formatDuration(maxWait)} for at least 1 worker, but none is active`,
        );
      }
      await sleep(Math.min(NODE_WAIT_POLL_MILLIS, deadline - Date.now()), undefined, { signal }).catch(() => undefined);
      if (signal.aborted) throw toEngineError(signal.reason);
    }
  }

  /** Places every stage, then creates the tasks bottom-up (producers before their consumers). */
  private async createTasks(nodes: TaskNode[]): Promise<void> {
    const fragments = allFragments(this.root).filter((f) => f.id !== this.root.id);
    // Each stage starts on the next node: a stage's first task takes the larger share of few splits
    // (a small table's), so that extra work goes round the nodes instead of always to the first.
    let turn = 0;
    for (const fragment of fragments) {
      const placed =
        fragment.partitioning === 'COORDINATOR_ONLY'
          ? [this.cluster.self()]
          : isPartitioned(fragment)
            ? rotated(nodes, turn++)
            : [nodes[turn++ % nodes.length]];
      // Task numbers go on across placements: a task id is never reused, even after an abort.
      const first = this.taskNumbers.get(fragment.id) ?? 0;
      this.taskNumbers.set(fragment.id, first + placed.length);
      const tasks = placed.map((node, i) => this.remoteTask(`${this.session.queryId}.${fragment.id}.${first + i}`, node));
      this.stages.set(fragment.id, { fragment, tasks });
    }
    // Every stage's first splits are read at once, then every task is created at once: a stage
    // created only after the one below it answered made each short query wait a round trip to a
    // (busy) worker per stage. The POSTs still go out producers first; a consumer that asks a
    // producer not created yet waits for its creation there (TaskManager.awaitOutputBuffer).
    const bottomUp = [...fragments].reverse().map((fragment) => this.stages.get(fragment.id)!);
    await allSettledOrThrow(bottomUp.map((stage) => this.prepareSplits(stage)));
    if (booleanSessionProperty(this.session, SOURCE_PLACEMENT_BY_SPLITS_PROPERTY)) this.placeBySplits(bottomUp, nodes);
    // Known only now: how many tasks each stage keeps (see prepareSplits), so how many buffers feed each.
    const consumers = this.placeReaders();
    const session = this.sessionJson;
    this.remoteFilters = new RemoteDynamicFilters(
      this.root,
      (id) => (id === this.root.id ? 1 : this.stages.get(id)!.tasks.length),
      (id, domains) => this.sendDomains(id, domains),
      booleanSessionProperty(this.session, DYNAMIC_FILTER_KEY_BITMAP_PROPERTY) ? remoteKeyBitmapMaxBytes(this.session) : 0,
    );
    // Every creation settles before a failure is thrown: a task whose POST was still on its way when
    // another was refused would otherwise be created after its cancel, and be left running with
    // nobody to read it.
    await allSettledOrThrow(
      bottomUp.flatMap((stage) => {
        const fragment = stage.fragment;
        // One physical plan object per stage: its tasks' requests share it, so it is encoded once (task-update-request.ts).
        const physicalPlan = physicalToJson(this.physicalPlanOf(fragment).root);
        return stage.tasks.map(async (task, i) => {
          const request: TaskUpdateRequest = {
            session,
            fragment: fragment.root,
            physicalPlan,
            outputBuffers: outputBuffers(fragment, consumers.get(fragment.id) ?? [1]),
            sources: stage.splits?.initial(i) ?? [],
            remoteSources: remoteSourcesOf(fragment.root).map((node) => ({
              planNodeId: node.id,
              locations: this.locations(node, i),
              noMoreLocations: true,
            })),
          };
          try {
            await task.create(request);
          } catch (e) {
            // Nothing of the task started on a node that refused it or whose process is gone, or it is aborted when a node
            // declared gone answers again: place the query again without it.
            if (e instanceof NodeGoneError || (e instanceof EngineError && e.errorName === 'SERVER_SHUTTING_DOWN')) {
              this.cluster.nodeRefused(task.node.nodeId);
              throw new Refusal(task.node.nodeId, e);
            }
            throw e;
          }
          this.follow(stage, i);
        });
      }),
    );
  }

  private remoteTask(taskId: string, node: TaskNode): RemoteTask {
    return new RemoteTask(taskId, node, this.cluster.channel(node), {
      maxErrorDurationMillis: this.cluster.remoteTaskMaxErrorDurationMillis,
      node: this.cluster.liveness(node),
    });
  }

  /** The SOURCE stages' tasks moved where they even out the splits each node starts with (source-placement.ts); their ids stay. */
  private placeBySplits(stages: readonly Stage[], nodes: readonly TaskNode[]): void {
    const sources = stages.filter((s) => s.splits !== undefined && isPartitioned(s.fragment));
    const offsets = balancedRotations(
      sources.map((s) => s.splits!.initialShares()),
      nodes.length,
      sources.map((s) => Math.max(0, nodes.indexOf(s.tasks[0].node))),
    );
    sources.forEach((stage, k) => {
      stage.tasks = stage.tasks.map((task, i) => this.remoteTask(task.taskId, nodes[(i + offsets[k]) % nodes.length]));
    });
  }

  /**
   * A SOURCE stage's split assigner, holding the first splits of its tasks. A table with fewer splits
   * than the stage has tasks (a small table, all of whose splits are known now) leaves some tasks
   * without any: they are not created. Such a task would read nothing, yet take a copy of every
   * replicated build side of its fragment and hash it; its node would do that work for nothing, as
   * Trino's source stages, which create a node's task with its first split, never do.
   */
  private async prepareSplits(stage: Stage): Promise<void> {
    const fragment = stage.fragment;
    if (fragment.partitionedScans.length === 0) return;
    stage.splits = new SplitAssigner(fragment.partitionedScans, this.tableSplits(fragment), stage.tasks.length);
    await stage.splits.prepareInitial();
    stage.tasks = stage.tasks.slice(0, stage.splits.keepTasksWithSplits());
  }

  /** The splits of each partitioned scan of a SOURCE fragment, as the connector makes them (when taken). */
  private tableSplits(fragment: PlanFragment): Map<number, AsyncIterable<Split>> {
    const out = new Map<number, AsyncIterable<Split>>();
    for (const scan of fragment.partitionedScans) {
      const connector = this.catalogs.get(scan.table.catalog);
      if (connector === undefined) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${scan.table.catalog}' not found`);
      out.set(scan.id, scanSplits(connector, this.session, scan));
    }
    return out;
  }

  /**
   * Per fragment, how many tasks each of its readers has (one reader but for a stage shared by
   * identical copies, shared-stages.ts); notes where each reader's buffers start in the producer's tasks.
   */
  private placeReaders(): Map<number, number[]> {
    const tasksOf = (id: number) => (id === this.root.id ? 1 : this.stages.get(id)!.tasks.length);
    const consumers = new Map<number, number[]>();
    this.firstBuffers.clear();
    for (const f of allFragments(this.root)) {
      for (const child of f.children) {
        if (child.readers === undefined) {
          consumers.set(child.id, [tasksOf(f.id)]);
          continue;
        }
        let first = 0;
        consumers.set(
          child.id,
          child.readers.map((reader) => {
            const tasks = tasksOf(reader.fragmentId);
            this.firstBuffers.set(reader.remoteSourceId, first);
            first += tasks;
            return tasks;
          }),
        );
      }
    }
    return consumers;
  }

  /** Where task `consumerIndex` of a fragment reads a remote source: its buffer in every task below. */
  private locations(node: RemoteSourceNode, consumerIndex: number): { uri: string; nodeId: string }[] {
    const buffer = (this.firstBuffers.get(node.id) ?? 0) + consumerIndex;
    return node.sourceFragmentIds.flatMap((id) =>
      this.stages.get(id)!.tasks.map((t) => ({ uri: t.resultsUri(buffer), nodeId: t.node.nodeId })),
    );
  }

  /** `client`, the root's reader of a remote source, given its locations; when the query ends early it stops waiting at once. */
  private exchange<C extends RemoteSourceClient>(node: RemoteSourceNode, client: C, signal: AbortSignal): C {
    for (const location of this.locations(node, 0)) client.addLocation(location);
    client.setNoMoreLocations();
    abortOnSignal(client, signal, () => this.failure ?? new EngineError('USER_CANCELED', 'Query was canceled'));
    return client;
  }

  /** Follows a task's state into the query's progress and its split supply; its failure fails the query. */
  private follow(stage: Stage, index: number): void {
    const task = stage.tasks[index];
    task.watchDynamicFilters((domains) => {
      // A task of an abandoned placement (other partitions) must not count towards this one's union.
      if (this.stages.get(stage.fragment.id) === stage) this.domainsReported(stage.fragment.id, task.taskId, domains);
    });
    task
      .follow((info) => {
        this.count(task, info);
        if (stage.splits !== undefined) this.supplySplits(stage, stage.splits, index, info);
      })
      .catch((e: unknown) => this.fail(e));
  }

  /**
   * More splits for a task that started some of its own; no-more-splits to every task once all are
   * out. The connector makes splits as they are taken: its failure fails the query.
   */
  private supplySplits(stage: Stage, splits: SplitAssigner, index: number, info: TaskInfo): void {
    stage.supplying = (stage.supplying ?? Promise.resolve())
      // A stage of an abandoned placement (the query was placed again without a node) supplies nothing.
      .then(() =>
        this.stages.get(stage.fragment.id) !== stage || this.failure !== undefined
          ? undefined
          : this.supplySplitsOrThrow(stage, splits, index, info),
      )
      .catch((e: unknown) => this.fail(e));
  }

  private async supplySplitsOrThrow(stage: Stage, splits: SplitAssigner, index: number, info: TaskInfo): Promise<void> {
    const active = new Set(this.cluster.workerNodes().map((n) => n.nodeId));
    const onActive = (t: RemoteTask) => active.has(t.node.nodeId);
    const update = await splits.next(
      index,
      info.stats.totalSplits,
      info.stats.queuedSplits,
      onActive(stage.tasks[index]),
      stage.tasks.some(onActive),
    );
    if (update !== undefined) this.sendSplits(stage.tasks[index], update);
    if (!splits.exhausted()) return;
    stage.tasks.forEach((task, i) => {
      const last = splits.finish(i);
      if (last !== undefined) this.sendSplits(task, last);
    });
  }

  private sendSplits(task: RemoteTask, sources: ScanSplits[]): void {
    task.send({ session: this.sessionJson, sources, remoteSources: [] }).catch((e: unknown) => this.fail(e));
  }

  private domainsReported(fragmentId: number, taskId: string, domains: readonly DynamicFilterDomain[]): void {
    if (domains.length > 0) this.remoteFilters?.reported(fragmentId, taskId, domains);
  }

  /**
   * Remote filters' domains, complete, to the tasks of the stage whose scans take them (all created by
   * now: infos are followed only once every task's creation went out), ahead of split updates still on their way.
   * A failed update fails nothing: the filter is an optimization, and the task's own follow reports a gone node.
   */
  private sendDomains(fragmentId: number, domains: DynamicFilterDomain[]): void {
    if (fragmentId === this.root.id) {
      this.rootFilters.receive(domains);
      return;
    }
    for (const task of this.stages.get(fragmentId)?.tasks ?? [])
      task
        .sendUnordered({ session: this.sessionJson, sources: [], remoteSources: [], dynamicFilterDomains: domains })
        .catch(() => undefined);
  }

  private fail(e: unknown): void {
    if (this.finished || this.failure !== undefined) return;
    this.failure = toEngineError(e);
    this.failed.abort();
  }

  /** Adds what a task did since its last info to the query's progress, and its memory to the query's. */
  private count(task: RemoteTask, info: TaskInfo): void {
    this.countProgress(task, info);
    this.memory.taskReported(task.taskId, taskMemory(info), this.onThisNode(task));
    this.checkClusterMemory();
  }

  private countProgress(task: RemoteTask, info: TaskInfo): void {
    const taskId = task.taskId;
    const now = counted(info);
    const before = this.counted.get(taskId) ?? ZERO;
    const p = this.progress;
    p.totalSplits += now.totalSplits - before.totalSplits;
    p.queuedSplits += now.queuedSplits - before.queuedSplits;
    p.runningSplits += now.runningSplits - before.runningSplits;
    p.completedSplits += now.completedSplits - before.completedSplits;
    p.processedRows += now.rows - before.rows;
    p.processedBytes += now.bytes - before.bytes;
    p.cpuTimeMillis += now.cpuMillis - before.cpuMillis;
    this.counted.set(taskId, now);
  }

  private onThisNode(task: RemoteTask): boolean {
    return task.node.nodeId === this.cluster.self().nodeId;
  }

  /** query.max-memory: what the query holds on all nodes together (its tasks elsewhere as last reported). */
  private checkClusterMemory(): void {
    const reserved = this.memory.reservedBytes;
    const limit = this.memoryLimit;
    if (reserved <= limit || this.failure !== undefined) return;
    this.failure = new EngineError(
      'EXCEEDED_GLOBAL_MEMORY_LIMIT',
      `Query exceeded distributed memory limit of ${formatDataSize(limit)} [Allocated: ${formatDataSize(reserved)}]`,
    );
    this.failed.abort();
  }

  /**
   * Tells every task the query is over: cancel (its output was read) or abort (failure). Their last
   * infos carry their final figures: the query's progress and memory take them in, as the query may
   * have read its last page before the coordinator polled a task's final info. Tasks on a node that
   * does not answer are told in the background, whenever it answers again.
   */
  private async close(abort: boolean): Promise<void> {
    this.finished = true;
    // A node that stopped answering one task answers none: the query does not wait for it.
    const unreachable = new Set(
      this.allTasks()
        .filter((t) => t.unreachable)
        .map((t) => t.node.nodeId),
    );
    await Promise.all(this.allTasks().map((t) => t.cancel(abort, !unreachable.has(t.node.nodeId))));
    for (const task of this.allTasks()) {
      if (task.info === undefined) continue;
      this.countProgress(task, task.info);
      this.memory.taskReported(task.taskId, taskMemory(task.info), this.onThisNode(task));
    }
  }
}

/** Waits for all; then throws the first failure (a Refusal first, so that the query is placed again). */
async function allSettledOrThrow(work: Promise<void>[]): Promise<void> {
  const failures = (await Promise.allSettled(work))
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as unknown);
  if (failures.length > 0) throw failures.find((f) => f instanceof Refusal) ?? failures[0];
}

class Refusal extends Error {
  constructor(
    readonly nodeId: string,
    readonly error: EngineError,
  ) {
    super(error.message);
  }
}

interface Counted {
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  rows: number;
  bytes: number;
  cpuMillis: number;
}

/** The root fragment's execution, as a reporter of domains (it runs here, in no task). */
const ROOT_TASK = 'root';

const ZERO: Counted = { totalSplits: 0, queuedSplits: 0, runningSplits: 0, completedSplits: 0, rows: 0, bytes: 0, cpuMillis: 0 };

function counted(info: TaskInfo): Counted {
  const s = info.stats;
  return {
    totalSplits: s.totalSplits,
    queuedSplits: s.queuedSplits,
    runningSplits: s.runningSplits,
    completedSplits: s.completedSplits,
    rows: s.rawInputPositions,
    bytes: s.rawInputDataSize,
    cpuMillis: s.totalCpuTime,
  };
}

function taskMemory(info: TaskInfo): TaskMemoryReport {
  return { reservedBytes: info.stats.memoryReservation, peakBytes: info.stats.peakMemoryReservation };
}

/** `consumers`: how many tasks each reader of the fragment's output has (several for a shared, hash-partitioned stage). */
function outputBuffers(fragment: PlanFragment, consumers: readonly number[]): OutputBuffersSpec {
  switch (fragment.output.type) {
    case 'GATHER':
      return { type: 'GATHER' };
    case 'REPLICATE':
      return { type: 'BROADCAST', partitions: consumers[0] };
    case 'REPARTITION': {
      const layout = fragment.root.outputs;
      const partitionChannels = fragment.output.partitionKeys.map((k) => layout.findIndex((s) => s.id === k.id));
      if (partitionChannels.some((c) => c < 0))
        throw new EngineError('GENERIC_INTERNAL_ERROR', `Partition keys of fragment ${fragment.id} are not in its output`);
      // The readers of a shared stage take the same partitions: their stages have as many tasks (FIXED_HASH).
      if (consumers.some((c) => c !== consumers[0]))
        throw new EngineError('GENERIC_INTERNAL_ERROR', `The readers of fragment ${fragment.id} have unequal partitions`);
      const shared = consumers.length > 1 ? { readers: consumers.length } : {};
      return { type: 'PARTITIONED', partitions: consumers[0], partitionChannels, ...shared };
    }
  }
}

function remoteSourcesOf(root: PlanNode): RemoteSourceNode[] {
  const out: RemoteSourceNode[] = [];
  const visit = (node: PlanNode) => {
    if (node.kind === 'RemoteSource') out.push(node);
    (node.kind === 'Apply' ? [node.input] : sources(node)).forEach(visit);
  };
  visit(root);
  return out;
}

/** `nodes` starting at the `turn`-th (modulo their number). */
function rotated<T>(nodes: readonly T[], turn: number): T[] {
  return nodes.map((_, i) => nodes[(i + turn) % nodes.length]);
}
