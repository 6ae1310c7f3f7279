// Turns a plan into a tree of operators over page streams: the physical planner
// (sql/planner/physical) decides once what runs where, and each physical node maps here to its
// operators. Each node's output layout is its `outputs`: channel i holds symbol outputs[i];
// expressions are rewritten from symbols to channels here, so operators never see symbols. Every
// operator gets its own memory context and recorder, and each of its inputs is a recorded edge
// (stats/), where it is counted and timed.

import { nearestJoin, nearestJoinSpec } from './operators/nearest-join.js';
import type { CatalogManager } from '../connectors/catalog-manager.js';
import { allSplits, type Split } from '../spi/connector.js';
import type { Session } from '../spi/session.js';
import type { QueryProgress } from '../spi/query-progress.js';
import { EngineError } from '../errors/engine-error.js';
import type {
  AggregateNode,
  FilterNode,
  JoinNode,
  OrderingItem,
  PlanNode,
  ProjectNode,
  RemoteSourceNode,
  TableScanNode,
  WindowNode,
} from '../sql/planner/plan.js';
import { sources } from '../sql/planner/plan.js';
import { mergePartialFinal } from '../sql/planner/aggregation-steps.js';
import type {
  ParallelMarkJoin,
  ParallelScan,
  ParallelSort,
  PhysicalNode,
  PhysicalOperator,
  Spool,
} from '../sql/planner/physical/physical-plan.js';
import type { PhysicalPlanIndex } from '../sql/planner/physical/physical-plan-index.js';
import { aggregateFunctionOf } from '../sql/planner/function-handles.js';
import { constant, inputRef, mapChildren, type RowExpression, type Symbol } from '../sql/planner/row-expression.js';
import type { SqlType } from '../types/types.js';
import { scanSplits } from './scan-splits.js';
import { applyOperator } from './apply.js';
import { lateralApplyOperator } from './lateral-apply.js';
import { recursiveUnion, workTable, type WorkTables } from './recursive-union.js';
import { enforceSingleRow } from './operators/enforce-single-row.js';
import { filterAndProject } from './operators/filter-and-project.js';
import { groupId } from './operators/group-id.js';
import { hashAggregation, type HashAggregationSpec } from './operators/hash-aggregation.js';
import { hashJoin, type HashJoinSpec } from './operators/hash-join.js';
import type { ParallelBuildSettings } from '../sql/planner/physical/parallel-hash-build.js';
import { limit } from './operators/limit.js';
import { SpooledRows } from './operators/spool.js';
import type { OperatorContext, PageStream } from './operators/operator.js';
import type { SortKey } from '../functions/scalar/value-ordering.js';
import { setOperation } from './operators/set-operation.js';
import { sort } from './operators/sort.js';
import { buildScanPipeline, singleStepInThreads } from './threads/scan-pipeline-builder.js';
import { parallelSource, type ParallelSourceSpec, type ThreadRuns } from './threads/parallel-source.js';
import { mergeSortedRuns } from './threads/merge-sorted-runs.js';
import { remoteMerge, type SortedStreams } from './exchange/remote-merge.js';
import { parallelMarkJoin } from './threads/parallel-mark-join.js';
import { pipelineKey, knownPoorReduction } from './threads/poor-reductions.js';
import type { FilterProjectStage, ScanPipeline } from './threads/scan-pipeline.js';
import { partitionedWindow, type ThreadWindow, windowSpecOf } from './threads/thread-window.js';
import { callsLoopingRoutine, filterAndProjectInThread } from './threads/off-thread-routines.js';
import { mapSplits, scanConnector, scanDynamicFilter, tableScan } from './table-scan.js';
import { booleanSessionProperty } from '../spi/session-properties.js';
import {
  collectingDynamicFilters,
  DYNAMIC_FILTER_KEY_BITMAP_PROPERTY,
  remoteKeyBitmapMaxBytes,
  DynamicFilters,
  probeKeyFilters,
} from './dynamic-filters/dynamic-filters.js';
import { waitForRemoteFilters } from './dynamic-filters/remote-filter-wait.js';
import { topN } from './operators/top-n.js';
import { tableWriter } from './operators/table-writer.js';
import { tableFinish, type WriteCommit } from './operators/table-finish.js';
import { values } from './operators/values.js';
import { window } from './operators/window.js';
import { mapFrame } from '../sql/planner/window-frame.js';
import { assignUniqueId } from './operators/assign-unique-id.js';
import { markDistinct } from './operators/mark-distinct.js';
import { unnest } from './operators/unnest.js';
import { estimatedPageBytes, type Page } from '../columnar/page.js';
import type { Scalar } from '../types/scalar.js';
import { OperatorRecorders, type OperatorRecorder } from './stats/operator-recorder.js';
import { recordedEdge } from './stats/recorded-edge.js';
import { assertNever } from '../sql/planner/assert-never.js';

export interface ExecutionEnvironment {
  operator: OperatorContext;
  catalogs: CatalogManager;
  session: Session;
  progress: QueryProgress;
  /** Where the operators' counts and times go (made here, under `operator.memory`, when absent). */
  operators?: OperatorRecorders;
  /**
   * In a distributed task: the pages of a remote source (from the tasks of the fragments below);
   * `stats`: the operator's, for its waits for pages and the CPU of decoding them.
   */
  remoteSources?: (node: RemoteSourceNode, stats: OperatorRecorder) => PageStream;
  /** In a distributed task: the sorted streams of a merging remote source (one with an order), one per source task. */
  mergingRemoteSources?: (node: RemoteSourceNode, stats: OperatorRecorder) => SortedStreams;
  /**
   * In a distributed task: the splits the scheduler assigns to a scan, as they come (undefined: the
   * table's own splits, all read here).
   */
  assignedSplits?: (node: TableScanNode) => AssignedSplits | undefined;
  /** In the statement of a write (CREATE TABLE AS, INSERT): how its TableFinish commits it. */
  commitWrite?: WriteCommit;
  /** The joins' dynamic filters, for the scans under them (made here when absent). */
  dynamicFilters?: DynamicFilters;
  /** In a distributed task: the first id its AssignUniqueId gives (taskIdBase: apart from the other tasks'). */
  uniqueIdBase?: number;
  /** In a task of a single node's query: the rows of the common subplans its fragments share (Spool acrossTasks), by producer id. */
  querySpools?: QuerySpools;
}

/** A common subplan's pages, run in the context of the reader that holds it. */
type SpoolProducer = (ctx: OperatorContext) => PageStream;

/** The buffered rows of each common subplan shared by a query's tasks on a node, by its producer's plan node id. */
export type QuerySpools = Map<number, SpooledRows>;

/** The splits a task's scan is given, as they come. */
export interface AssignedSplits extends AsyncIterable<Split> {
  /** Resolves true once `count` splits arrived, false if fewer will ever come. */
  atLeast(count: number): Promise<boolean>;
}

/** Values of outer symbols while a correlated subquery runs for one binding. */
export type Bindings = ReadonlyMap<number, { value: Scalar; type: SqlType }>;

/** The context of one operator: its own memory and recorder. */
type Site = OperatorContext & { stats: OperatorRecorder };

/**
 * A node over a parallel scan that its threads run too: a sort (a run each, merged in the main
 * thread) or a window (on the partitions each thread owns, gathered in the main thread).
 */
interface ThreadTop {
  /** What the threads run over the pipeline's rows. */
  top: Pick<ScanPipeline, 'sort' | 'window'>;
  /** The operator the main thread runs, named for EXPLAIN ANALYZE. */
  operatorName: string;
  /** Merges the threads' runs (a sort); absent: their pages as they come. */
  merge?: (runs: ThreadRuns) => PageStream;
  /** The node in the main thread, for when the threads do not pay. */
  inMainThread: PhysicalNode;
}

/** The splits a scan already listed (by scan node id), for the main-thread run of a parallel scan that did not pay. */
type ListedSplits = ReadonlyMap<number, readonly Split[]>;

export class LocalExecutionPlanner {
  /** The rows of each running recursion's previous level, which its step reads (by RecursiveUnion node id). */
  readonly workTables: WorkTables = new Map();

  /** The buffered rows of each common subplan within this plan, by its producer's plan node id. */
  private readonly spools: QuerySpools = new Map();

  private readonly recorders: OperatorRecorders;

  private readonly env: ExecutionEnvironment;

  /** `physical`: the physical plan it maps, made by the physical planner (on a worker: the coordinator's, from the task request). */
  constructor(
    env: ExecutionEnvironment,
    private readonly physical: PhysicalPlanIndex,
  ) {
    this.env = env.dynamicFilters === undefined ? { ...env, dynamicFilters: new DynamicFilters() } : env;
    this.recorders = env.operators ?? new OperatorRecorders(env.operator.memory, env.progress);
  }

  /**
   * Starts the producers this plan holds of common subplans shared across the query's tasks on this
   * node (Spool acrossTasks): other tasks wait for their rows, so they run whatever this task's
   * operators read first (a join reads its build side before a producer on its probe side), and a
   * task that ends early (a LIMIT) still buffers every row. Resolves once they have run (failed or not:
   * their readers see a failure); the task finishes only then.
   */
  async runSharedProducers(): Promise<void> {
    const started: Promise<unknown>[] = [];
    for (const physical of this.physical.nodes()) {
      if (physical.kind !== 'Spool' || physical.acrossTasks !== true || physical.source === undefined) continue;
      const stats = this.recorders.of(physical.node.id);
      const site: Site = { ...this.env.operator, memory: stats.memory, stats };
      started.push(this.spooledRows(physical).start(site, this.spoolProducer(physical, physical.source, new Map(), undefined)));
    }
    await Promise.allSettled(started);
  }

  /** The operator of `node` (and those below it); `consumer`: the operator its pages go to, if any. */
  plan(node: PlanNode, bindings: Bindings = new Map(), consumer?: OperatorRecorder): PageStream {
    return this.operatorOf(this.physical.of(node), bindings, consumer);
  }

  /** The operators of a physical node, recorded as its logical node's. */
  private operatorOf(
    physical: PhysicalNode,
    bindings: Bindings,
    consumer: OperatorRecorder | undefined,
    listed?: ListedSplits,
  ): PageStream {
    const stats = this.recorders.of(physical.node.id);
    const site: Site = { ...this.env.operator, memory: stats.memory, stats };
    return recordedEdge(this.unrecorded(physical, bindings, site, listed), stats, consumer, this.env.operator.signal);
  }

  /** The operators of a physical node, recorded by the caller. */
  private unrecorded(physical: PhysicalNode, bindings: Bindings, ctx: Site, listed: ListedSplits | undefined): PageStream {
    switch (physical.kind) {
      case 'Operator':
        return this.planHere(physical, bindings, ctx, listed);
      case 'SingleStepAggregation':
        ctx.stats.named(hashAggregation.name);
        return hashAggregation(ctx, this.operatorOf(physical.source, bindings, ctx.stats, listed), this.aggregationSpec(physical.node));
      case 'ParallelScan':
        return this.parallelScan(physical, bindings, ctx);
      case 'ParallelMarkJoin':
        return this.parallelMarkJoin(physical, bindings, ctx, listed);
      case 'ParallelSort':
        return this.parallelSort(physical, bindings, ctx);
      case 'ParallelWindow':
        return this.parallelScan(physical.pipeline, bindings, ctx, {
          top: { window: this.threadWindow(physical.node) },
          operatorName: partitionedWindow.name,
          inMainThread: physical.inMainThread,
        });
      case 'ParallelHashBuild':
        // The build rows as its source makes them: the join fills its table on the threads (joinSpec).
        return this.unrecorded(physical.source, bindings, ctx, listed);
      case 'Spool':
        ctx.stats.named(SpooledRows.name);
        return this.spooledRows(physical).replay(
          ctx,
          physical.source === undefined ? undefined : this.spoolProducer(physical, physical.source, bindings, listed),
        );
    }
  }

  /** The rows of a common subplan, one buffer for all its copies' Spools (in this plan, or the query's tasks on this node). */
  private spooledRows(spool: Spool): SpooledRows {
    const spools = spool.acrossTasks === true ? this.env.querySpools : this.spools;
    if (spools === undefined)
      throw new EngineError('GENERIC_INTERNAL_ERROR', `Spool ${spool.node.id} is shared across tasks outside a task`);
    let rows = spools.get(spool.commonSubplan);
    if (rows === undefined) {
      rows = new SpooledRows(spool.consumers);
      spools.set(spool.commonSubplan, rows);
    }
    return rows;
  }

  /** The producer's pages (its plan `source`), run by the first reader that holds it (recorded as that reader's). */
  private spoolProducer(spool: Spool, source: PhysicalNode, bindings: Bindings, listed: ListedSplits | undefined): SpoolProducer {
    return (ctx) => this.unrecorded(source, bindings, { ...this.env.operator, ...ctx, stats: this.recorders.of(spool.node.id) }, listed);
  }

  /** A sort whose threads sort the rows of their splits, a run each, merged here (exec/threads/merge-sorted-runs). */
  private parallelSort(p: ParallelSort, bindings: Bindings, ctx: Site): PageStream {
    const { node } = p;
    const types = node.source.outputs.map((s) => s.type);
    const keys = sortKeys(node.orderBy, node.source.outputs);
    const count = node.kind === 'TopN' ? node.count : undefined;
    return this.parallelScan(p.pipeline, bindings, ctx, {
      top: { sort: { types, keys, ...(count === undefined ? {} : { count }) } },
      operatorName: mergeSortedRuns.name,
      merge: (runs) => mergeSortedRuns(ctx, runs, types, keys, count),
      inMainThread: p.inMainThread,
    });
  }

  /** A merging remote source: its source tasks' sorted streams, merged in its order (exec/exchange/remote-merge). */
  private remoteMerge(node: RemoteSourceNode, orderBy: OrderingItem[], ctx: Site): PageStream {
    const merging = this.env.mergingRemoteSources;
    if (merging === undefined)
      throw new EngineError('GENERIC_INTERNAL_ERROR', `Merging remote source ${node.id} outside a distributed task`);
    const sources = merging(node, ctx.stats);
    // Named after the class that reads the streams (MergingExchangeClient), as an exchange is.
    ctx.stats.named(sources.constructor.name);
    return remoteMerge(
      ctx,
      sources,
      node.outputs.map((s) => s.type),
      sortKeys(orderBy, node.outputs),
    );
  }

  /** A mark join whose build side may stream past its hashed probe side on the threads (exec/threads/parallel-mark-join). */
  private parallelMarkJoin(p: ParallelMarkJoin, bindings: Bindings, ctx: Site, listed: ListedSplits | undefined): PageStream {
    const { node, build } = p;
    const spec = this.joinSpec(node, bindings);
    const connector = scanConnector(this.env, build.scan);
    const preparer = connector.workerSplitSource?.(build.scan.table);
    const built = buildScanPipeline(build.threadTop, undefined, false, {
      filterProjectStage: (n) => this.filterProjectStage(n, bindings),
      aggregationSpec: (n) => this.aggregationSpec(n),
      joinSpec: (n) => this.joinSpec(n, bindings),
    });
    if (preparer === undefined || built === undefined || built.builds.length > 0)
      throw new EngineError('GENERIC_INTERNAL_ERROR', `The build side of join ${node.id} cannot run on worker threads`);
    const env = { ...this.env, operator: ctx };
    ctx.stats.named(parallelMarkJoin.name);
    const probe = this.operatorOf(p.probe, bindings, ctx.stats, listed);
    return parallelMarkJoin(env, probe, {
      join: spec,
      fragment: built.fragment,
      splits: () => allSplits(scanSplits(connector, this.env.session, build.scan)),
      prepare: (split) => preparer.prepare(split, built.fragment.columns, this.env.session),
      assigned: build.splits === 'assigned' ? this.env.assignedSplits?.(build.scan) : undefined,
      workers: build.threads,
      minSplits: build.minSplits,
      dynamicFilter: () => scanDynamicFilter(env, build.scan),
      probeRead: this.probeKeyFilters(node),
      inMainThread: (rest, splits) => {
        const buildListed = splits === undefined ? listed : new Map([...(listed ?? []), [build.scan.id, splits]]);
        const buildInput = this.operatorOf(this.physical.of(node.right), bindings, ctx.stats, buildListed);
        return hashJoin(ctx, rest, this.buildInput(node, buildInput, ctx), spec);
      },
      decide: (decision, choice) => ctx.stats.decide(decision, choice),
    });
  }

  private planHere(physical: PhysicalOperator, bindings: Bindings, ctx: Site, listed: ListedSplits | undefined): PageStream {
    const node = physical.node;
    const types = (n: PlanNode) => n.outputs.map((s) => s.type);
    const indexOf = (layout: readonly Symbol[], s: Symbol) => channelOf(layout, s);
    const input = (source: PlanNode) =>
      this.operatorOf(sourceOf(physical, source) ?? this.physical.of(source), bindings, ctx.stats, listed);
    /** Makes the operator, named after its function. */
    const run = <A extends unknown[]>(operator: (...args: A) => PageStream, ...args: A): PageStream => {
      ctx.stats.named(operator.name);
      return operator(...args);
    };

    switch (node.kind) {
      case 'TableScan':
        return run(tableScan, { ...this.env, operator: ctx }, node, listed?.get(node.id));
      case 'Values':
        if (node.workTable !== undefined) return run(workTable, this.workTables, node);
        return run(values, types(node), node.rows);
      case 'RecursiveUnion':
        return run(recursiveUnion, this, node, bindings, ctx);
      case 'Filter':
      case 'Project': {
        // A Project runs with the Filter under it as one operator, unless the Filter runs elsewhere (a HAVING on the threads).
        const filterHere = node.kind === 'Project' && node.source.kind === 'Filter' && physical.sources[0]?.kind === 'Operator';
        const { source, stage } = this.filterProjectStage(node, bindings, filterHere);
        if (callsLoopingRoutine(stage)) return run(filterAndProjectInThread, { ...this.env, operator: ctx }, input(source), stage);
        return run(filterAndProject, ctx, input(source), stage.inputTypes, stage.filter, stage.projections);
      }
      case 'Aggregate':
        return run(hashAggregation, ctx, input(node.source), this.aggregationSpec(node));
      case 'Join':
        if (node.nearest !== undefined)
          return run(
            nearestJoin,
            ctx,
            input(node.left),
            this.buildInput(node, input(node.right), ctx),
            nearestJoinSpec(node, this.joinSpec(node, bindings)),
          );
        return run(
          hashJoin,
          ctx,
          input(node.left),
          this.buildInput(node, input(node.right), ctx),
          this.joinSpec(node, bindings),
          this.probeKeyFilters(node),
        );
      case 'Sort':
        return run(sort, ctx, input(node.source), types(node.source), sortKeys(node.orderBy, node.source.outputs));
      case 'TopN':
        return run(topN, ctx, input(node.source), types(node.source), sortKeys(node.orderBy, node.source.outputs), node.count);
      case 'Limit':
        return run(limit, input(node.source), node.count, node.offset);
      case 'Window': {
        const spec = this.threadWindow(node);
        return run(window, ctx, input(node.source), spec.types, windowSpecOf(spec));
      }
      case 'SetOperation': {
        const inputs = node.sources.map((source, i) => {
          const order = node.sourceSymbols[i].map((s) => indexOf(source.outputs, s));
          const stream = input(source);
          const identity = order.every((c, j) => c === j) && order.length === source.outputs.length;
          // A reordering of the columns is part of the set operation's own work.
          return identity
            ? stream
            : filterAndProject(
                ctx,
                stream,
                types(source),
                undefined,
                order.map((c, j) => inputRef(c, node.outputs[j].type)),
              );
        });
        return run(setOperation, ctx, inputs, types(node), node.operation, node.distinct);
      }
      case 'EnforceSingleRow':
        return run(enforceSingleRow, input(node.source), types(node));
      case 'GroupId': {
        const layout = node.source.outputs;
        const sets = node.groupingSets.map((set) => set.map((s) => indexOf(layout, s)));
        const all = [...new Set(sets.flat())];
        return run(groupId, input(node.source), types(node.source), sets, all);
      }
      case 'AssignUniqueId':
        return run(assignUniqueId, input(node.source), this.env.uniqueIdBase ?? 0);
      case 'MarkDistinct':
        return run(markDistinct, ctx, input(node.source), {
          inputTypes: types(node.source),
          distinctChannels: node.distinctSymbols.map((s) => indexOf(node.source.outputs, s)),
        });
      case 'Unnest': {
        const layout = node.source.outputs;
        return run(unnest, input(node.source), {
          replicate: node.replicate.map((s) => indexOf(layout, s)),
          arrays: node.mappings.map((m) => indexOf(layout, m.input)),
          entries: node.mappings.map((m) => m.entry),
          ordinality: node.ordinality !== undefined,
          outer: node.outer,
        });
      }
      case 'Apply':
        if (node.applyType === 'lateral') return run(lateralApplyOperator, this, node, bindings, ctx);
        return run(applyOperator, this, node, bindings, ctx.stats);
      case 'RemoteSource': {
        if (node.orderBy !== undefined) return readAsInput(this.remoteMerge(node, node.orderBy, ctx), ctx.stats);
        const remote = this.env.remoteSources;
        if (remote === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Remote source ${node.id} outside a distributed task`);
        const stream = remote(node, ctx.stats);
        // The exchange is an object, not a function: named after its class (ExchangeClient).
        ctx.stats.named(stream.constructor.name);
        return readAsInput(stream, ctx.stats);
      }
      case 'Exchange':
        throw new EngineError('GENERIC_INTERNAL_ERROR', `Exchange ${node.id} was not cut by the fragmenter`);
      case 'TableWriter': {
        const { target } = node;
        const connector = this.env.catalogs.get(target.catalog);
        if (connector?.createPageSink === undefined)
          throw new EngineError('NOT_SUPPORTED', `Catalog '${target.catalog}' does not support writes`);
        const layout = node.source.outputs;
        const channels = node.columns.map((s) => indexOf(layout, s));
        const notNull = node.notNull.map((column) => ({ column, channel: channels[node.columnNames.indexOf(column)] }));
        const createSink = () => connector.createPageSink!(this.env.session, target.handle);
        return run(tableWriter, ctx, input(node.source), createSink, { channels, notNull });
      }
      case 'TableFinish': {
        const commit = this.env.commitWrite;
        if (commit === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `TableFinish ${node.id} outside a write statement`);
        return run(tableFinish, input(node.source), commit);
      }
      default:
        return assertNever(node);
    }
  }

  /**
   * A parallel scan: its threads decided on first read, once the table's splits are known — a table
   * of too few splits, or an aggregation known not to reduce, runs in the main thread instead.
   * `above`: a node the threads run over the pipeline too (a parallel sort's or window's).
   */
  private parallelScan(p: ParallelScan, bindings: Bindings, ctx: Site, above?: ThreadTop): PageStream {
    const { scan, aggregation, threads, minSplits } = p;
    const preparer = scanConnector(this.env, scan).workerSplitSource?.(scan.table);
    const built = buildScanPipeline(
      p.threadTop,
      aggregation?.final,
      aggregation?.finalStep === 'partitioned across threads',
      {
        filterProjectStage: (n) => this.filterProjectStage(n, bindings),
        aggregationSpec: (n) => this.aggregationSpec(n),
        joinSpec: (n) => this.joinSpec(n, bindings),
      },
      aggregation?.having,
    );
    if (preparer === undefined || built === undefined)
      throw new EngineError('GENERIC_INTERNAL_ERROR', `Parallel scan ${p.node.id} cannot run on worker threads`);
    const fragment = above === undefined ? built.fragment : { ...built.fragment, ...above.top };
    const key = fragment.aggregation && pipelineKey(scan.table, fragment);
    const env = { ...this.env, operator: ctx };
    const decide = (decision: string, choice: string) => ctx.stats.decide(decision, choice);
    const inThreads = (spec: Omit<ParallelSourceSpec, 'builds' | 'decide'>): PageStream => {
      ctx.stats.named(above?.operatorName ?? parallelSource.name);
      // The build sides' own operators, made only when the fragment runs on the threads.
      const builds = built.builds.map((b) => ({
        input: this.buildInput(b.join, this.operatorOf(this.physical.of(b.join.right), bindings, ctx.stats), ctx),
        spec: b.spec,
      }));
      return parallelSource(env, {
        ...spec,
        builds,
        decide,
        dynamicFilter: () => scanDynamicFilter(env, scan),
        awaitDynamicFilters: () => waitForRemoteFilters(env, scan),
        merge: above?.merge,
      });
    };
    // Not in the threads: the same subtree, planned for the main thread, in this operator's place.
    const inMainThread = (listed?: ListedSplits): PageStream =>
      this.unrecorded(above?.inMainThread ?? p.inMainThread, bindings, ctx, listed);
    const assigned = p.splits === 'assigned' ? this.env.assignedSplits?.(scan) : undefined;
    if (assigned !== undefined) {
      // A task's splits come a few at a time: the threads take them as they arrive, once there are
      // enough of them to pay for the threads (a small table is read here).
      const more = mapSplits(assigned, (split) => preparer.prepare(split, fragment.columns, this.env.session));
      return afterDecision(async () => {
        const enough = await ctx.stats.blockedOn(assigned.atLeast(minSplits));
        decide('threads', enough ? `${threads} threads (${minSplits} splits arrived)` : `main thread (fewer than ${minSplits} splits)`);
        return enough ? inThreads({ fragment, splits: [], more, workers: threads }) : inMainThread();
      });
    }
    // The whole aggregation in one step, for when its partial step does not reduce: on the threads
    // (each on a partition of the groups) when they finish it, else in the main thread.
    const single = aggregation?.final && this.aggregationSpec(mergePartialFinal(aggregation.final, aggregation.partial));
    const singleInThreads =
      single !== undefined && aggregation?.finalStep === 'partitioned across threads' ? singleStepInThreads(fragment, single) : undefined;
    return afterDecision(async () => {
      const splits = await ctx.stats.blockedOn(allSplits(scanSplits(scanConnector(this.env, scan), this.env.session, scan)));
      const poor = key !== undefined && knownPoorReduction(key);
      if (splits.length < minSplits || (poor && singleInThreads === undefined)) {
        decide('threads', `main thread (${splits.length} splits${poor ? '; partial aggregation found not to reduce' : ''})`);
        return inMainThread(new Map([[scan.id, splits]]));
      }
      const prepared = splits.map((split) => preparer.prepare(split, fragment.columns, this.env.session));
      const used = `${Math.min(threads, splits.length)} threads (${splits.length} splits`;
      if (poor && singleInThreads !== undefined) {
        decide('threads', `${used}; partial aggregation found not to reduce: the whole aggregation in one step, partitioned by key hash)`);
        return inThreads({ fragment: singleInThreads, splits: prepared, workers: threads });
      }
      decide('threads', `${used})`);
      const aggregates =
        single === undefined || aggregation?.final === undefined || key === undefined
          ? undefined
          : { final: this.aggregationSpec(aggregation.final), single, key, singleInThreads };
      return inThreads({ fragment, splits: prepared, workers: threads, aggregation: aggregates });
    });
  }

  /** A join's build input, making the join's dynamic filters of its keys as it passes (if it has some); `ctx`: the operator reading it. */
  private buildInput(join: JoinNode, build: PageStream, ctx: Site): PageStream {
    const filters = join.dynamicFilters;
    if (filters === undefined) return build;
    const keys = filters.map((f) => ({ id: f.id, channel: channelOf(join.right.outputs, f.build) }));
    const keyBitmaps = {
      local: booleanSessionProperty(this.env.session, DYNAMIC_FILTER_KEY_BITMAP_PROPERTY),
      remoteMaxBytes: remoteKeyBitmapMaxBytes(this.env.session),
    };
    return collectingDynamicFilters(build, keys, this.env.dynamicFilters!, ctx, keyBitmaps);
  }

  /** A semi or anti join's probe key filters, begun now, and what completes them once it read its probe side first (if it has some). */
  private probeKeyFilters(join: JoinNode): ((probe: readonly Page[]) => void) | undefined {
    const filters = join.probeKeyFilters;
    if (filters === undefined) return undefined;
    const keys = filters.map((f) => ({ id: f.id, channel: channelOf(join.left.outputs, f.probe) }));
    return probeKeyFilters(keys, this.env.dynamicFilters!, booleanSessionProperty(this.env.session, DYNAMIC_FILTER_KEY_BITMAP_PROPERTY));
  }

  /** A Filter, a Project, or a Project over a Filter (unless `withFilter` is false), as one filterAndProject over `source`. */
  private filterProjectStage(
    node: FilterNode | ProjectNode,
    bindings: Bindings,
    withFilter = true,
  ): { source: PlanNode; stage: FilterProjectStage } {
    const stage = (source: PlanNode, filter: RowExpression | undefined, projections: (layout: readonly Symbol[]) => RowExpression[]) => ({
      source,
      stage: {
        kind: 'filterProject' as const,
        inputTypes: source.outputs.map((s) => s.type),
        filter: filter && toChannels(filter, source.outputs, bindings),
        projections: projections(source.outputs),
      },
    });
    if (node.kind === 'Filter') return stage(node.source, node.predicate, (layout) => layout.map((s, i) => inputRef(i, s.type)));
    const assigned = (layout: readonly Symbol[]) => node.assignments.map((a) => toChannels(a.expression, layout, bindings));
    if (node.source.kind === 'Filter' && withFilter) return stage(node.source.source, node.source.predicate, assigned);
    return stage(node.source, undefined, assigned);
  }

  private joinSpec(node: JoinNode, bindings: Bindings): HashJoinSpec {
    const left = node.left.outputs;
    const right = node.right.outputs;
    return {
      type: node.type,
      probeTypes: left.map((s) => s.type),
      buildTypes: right.map((s) => s.type),
      probeKeys: node.criteria.map((c) => channelOf(left, c.left)),
      buildKeys: node.criteria.map((c) => channelOf(right, c.right)),
      filter: node.filter ? toChannels(node.filter, [...left, ...right], bindings) : undefined,
      probeOutput: left.map((_, i) => i),
      buildOutput: node.type === 'mark' ? [] : right.map((_, i) => i),
      markNullAware: node.mark?.nullAware ?? false,
      parallelBuild: this.parallelBuildOf(node),
    };
  }

  /** A window in channels over its source's layout, its functions by their handles (so that a thread can run it too). */
  private threadWindow(node: WindowNode): ThreadWindow {
    const layout = node.source.outputs;
    return {
      types: layout.map((s) => s.type),
      partitionChannels: node.partitionBy.map((s) => channelOf(layout, s)),
      orderKeys: sortKeys(node.orderBy, layout),
      functions: node.functions.map((f) => ({
        handle: f.function,
        argumentChannels: f.arguments.map((s) => channelOf(layout, s)),
        frame: mapFrame(f.frame, (s) => channelOf(layout, s)),
        ignoreNulls: f.ignoreNulls,
      })),
    };
  }

  /** The settings of a join's table filled on the threads, when its build side is a ParallelHashBuild. */
  private parallelBuildOf(join: JoinNode): ParallelBuildSettings | undefined {
    const build = this.physical.find(join.right);
    return build?.kind === 'ParallelHashBuild' ? { threads: build.threads, minRows: build.minRows } : undefined;
  }

  private aggregationSpec(node: AggregateNode): HashAggregationSpec {
    const layout = node.source.outputs;
    return {
      inputTypes: layout.map((s) => s.type),
      groupChannels: node.groupingKeys.map((s) => channelOf(layout, s)),
      aggregates: node.aggregations.map((a) => ({
        function: aggregateFunctionOf(a.function),
        argumentChannels: a.arguments.map((s) => channelOf(layout, s)),
        distinct: a.distinct,
        maskChannel: a.mask ? channelOf(layout, a.mask) : undefined,
      })),
      step: node.step,
    };
  }
}

/**
 * The physical node of a logical source of `physical`: one of its sources, or the source of one (a
 * Project over a Filter runs as one operator over the Filter's source).
 */
function sourceOf(physical: PhysicalOperator, source: PlanNode): PhysicalNode | undefined {
  for (const p of physical.sources) {
    if (p.node === source || (p.kind === 'SingleStepAggregation' && p.final === source)) return p;
    if (p.kind === 'Operator' && p.sources.length === 1 && sources(p.node)[0] === source) return p.sources[0];
  }
  return undefined;
}

/** A stream made when it is first read, once `decide` chose how. */
async function* afterDecision(decide: () => Promise<PageStream>): PageStream {
  yield* await decide();
}

/** A source's pages, counted as what it read (an exchange passes on what it receives). */
async function* readAsInput(stream: PageStream, stats: OperatorRecorder): PageStream {
  for await (const page of stream) {
    stats.input(page.rowCount, estimatedPageBytes(page));
    yield page;
  }
}

function sortKeys(orderBy: { symbol: Symbol; ascending: boolean; nullsFirst: boolean }[], layout: readonly Symbol[]): SortKey[] {
  return orderBy.map((o) => ({ channel: channelOf(layout, o.symbol), ascending: o.ascending, nullsFirst: o.nullsFirst }));
}

export function channelOf(layout: readonly Symbol[], symbol: Symbol): number {
  const i = layout.findIndex((s) => s.id === symbol.id);
  if (i < 0) throw new EngineError('GENERIC_INTERNAL_ERROR', `Symbol ${symbol.name}#${symbol.id} is not in the input layout`);
  return i;
}

/** Rewrites symbol references into input channels (bound outer symbols become constants). */
export function toChannels(e: RowExpression, layout: readonly Symbol[], bindings: Bindings): RowExpression {
  // One closure for the whole walk: it and mapChildren are the only frames each level of an expression takes.
  const rewrite = (x: RowExpression): RowExpression => {
    if (x.kind !== 'symbol') return mapChildren(x, rewrite);
    const bound = bindings.get(x.symbol.id);
    if (bound) return constant(bound.value, bound.type);
    return inputRef(channelOf(layout, x.symbol), x.type);
  };
  return rewrite(e);
}
