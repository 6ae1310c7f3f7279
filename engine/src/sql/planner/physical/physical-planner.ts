// The physical planning step: decides, once per fragment (or for a single node's whole plan), what
// runs where — which scans run with their stages on the node's worker threads (ParallelScan),
// which aggregation step runs (a final/partial pair left in the main thread runs as one SINGLE
// step), and where a join's build and probe run. The rules are those the executor followed at run
// time before: a scan pipeline goes to the threads when its connector can read splits there and
// the threads save the main thread work (an aggregation, costly expressions, generated pages); what
// the run must find out first stays an adaptive decision of the node (physical-plan.ts).

import { EngineError } from '../../../errors/engine-error.js';
import { aggregateRef } from '../../../functions/aggregate/aggregate-ref.js';
import { mergePartialFinal, partialUnderFinal } from '../aggregation-steps.js';
import { fragmentScan, probeChainScan } from '../fragment-scan.js';
import { aggregateFunctionOf } from '../function-handles.js';
import type { AggregateNode, FilterNode, JoinNode, PlanNode, ProjectNode, TableScanNode } from '../plan.js';
import { sources } from '../plan.js';
import {
  PARTIAL_MAX_GROUPS_PER_ROW,
  PARTIAL_PROBE_ROWS,
  PARTITIONED_FINAL_MIN_THREADS,
  PROBE_FIRST_MAX_ROWS,
} from './adaptive-thresholds.js';
import { isCostly } from './expression-cost.js';
import type { CommonSubplans } from './common-subplans.js';
import { filterProjectScan, probeFirstShape } from './probe-first-shape.js';
import { shareableKeyType } from './parallel-hash-build.js';
import { havingInThreads, isHavingCandidate } from './having-in-threads.js';
import type {
  AdaptiveDecision,
  LocalExchange,
  ParallelAggregation,
  ParallelMarkJoin,
  ParallelScan,
  ParallelSort,
  ParallelWindow,
  PhysicalNode,
  Spool,
  ThreadStage,
} from './physical-plan.js';

/** What the physical planner needs to know of the node and session it plans for. */
export interface PhysicalPlanningContext {
  /** Threads a parallel scan runs on (task_concurrency, at most the node's worker threads). */
  threads: number;
  /** A scan with fewer splits stays in the main thread; 0: nothing runs on worker threads. */
  minSplits: number;
  /** Whether the scan's connector reads its splits on worker threads, and whether it generates its pages (work of its own). */
  threadScan(scan: TableScanNode): { generatesPages: boolean } | undefined;
  /** Whether a grouped final aggregation over threads' partial states runs partitioned across them (partitioned_aggregation). */
  partitionedFinal: boolean;
  /** Whether a mark join may stream its build side's scan past its hashed probe side on the threads (parallel_mark_join). */
  parallelMarkJoin: boolean;
  /** Whether a sort over a scan pipeline may sort on the threads, run by run, and merge the runs in the main thread (parallel_sort). */
  parallelSort: boolean;
  /** Whether a window with PARTITION BY over a scan pipeline may run on the threads, partitioned by key hash (parallel_window). */
  parallelWindow: boolean;
  /** The build rows from which on a hash join's lookup table is filled by the threads (parallel_hash_build); undefined: never. */
  parallelHashBuild: { minRows: number } | undefined;
  /** Whether the scan's splits are assigned to the task as they come (a distributed task's source) rather than listed here. */
  assignedSplits(scan: TableScanNode): boolean;
  /** Identical aggregations that run once, each copy a Spool of one of them (single node only: common-subplans.ts). */
  commonSubplans?: CommonSubplans;
  /**
   * When `commonSubplans` span a single node's fragments (fragment-common-subplans.ts): whether a
   * producer is in this fragment; a copy of one that is not waits for its rows from the producer's task.
   */
  producedHere?: (producer: PlanNode) => boolean;
}

export class PhysicalPlanner {
  private readonly planned = new WeakMap<PlanNode, PhysicalNode>();

  /** The plan of each common subplan's producer, apart from its own copy's Spool. */
  private readonly producers = new Map<PlanNode, PhysicalNode>();

  constructor(private readonly context: PhysicalPlanningContext) {}

  /** The physical plan of `node` and everything under it (the same object each time it is asked). */
  plan(node: PlanNode): PhysicalNode {
    let physical = this.planned.get(node);
    if (physical === undefined) {
      physical = this.spool(node) ?? this.unshared(node);
      this.planned.set(node, physical);
    }
    return physical;
  }

  /** `node` run where the physical planner puts it, not as a copy of a common subplan. */
  private unshared(node: PlanNode): PhysicalNode {
    return (
      this.parallelHaving(node) ??
      this.parallelScan(node) ??
      this.parallelMarkJoin(node) ??
      this.parallelSort(node) ??
      this.parallelWindow(node) ??
      this.inMainThread(node)
    );
  }

  /** A copy of a common subplan: the rows of the copy that runs for all of them (planned once, as any node is). */
  private spool(node: PlanNode): Spool | undefined {
    const producer = this.context.commonSubplans?.get(node);
    if (producer === undefined) return undefined;
    const consumers = [...(this.context.commonSubplans?.values() ?? [])].filter((p) => p === producer).length;
    const spool: Spool = { kind: 'Spool', node, commonSubplan: producer.id, consumers };
    const { producedHere } = this.context;
    if (producedHere === undefined) return { ...spool, source: this.sharedProducer(producer) };
    return producedHere(producer)
      ? { ...spool, source: this.sharedProducer(producer), acrossTasks: true }
      : { ...spool, acrossTasks: true };
  }

  /** The producer's own plan (not its Spool), made once for every copy's Spool. */
  private sharedProducer(producer: PlanNode): PhysicalNode {
    let physical = this.producers.get(producer);
    if (physical === undefined) {
      physical = this.unshared(producer);
      this.producers.set(producer, physical);
    }
    return physical;
  }

  /** `node` as a HAVING the threads apply to the groups they finish, when it is one (having-in-threads.ts). */
  private parallelHaving(node: PlanNode): ParallelScan | undefined {
    if (!isHavingCandidate(node)) return undefined;
    const below = this.plan(node.source);
    return below.kind === 'ParallelScan' ? havingInThreads(node, below) : undefined;
  }

  /** `node` run in the main thread, its sources planned on their own. */
  private inMainThread(node: PlanNode): PhysicalNode {
    const partial = partialUnderFinal(node);
    if (partial !== undefined && this.partialOverAssignedSplits(partial)) return { kind: 'Operator', node, sources: [this.plan(partial)] };
    if (partial !== undefined) {
      const final = node as AggregateNode;
      return { kind: 'SingleStepAggregation', node: mergePartialFinal(final, partial), final, partial, source: this.plan(partial.source) };
    }
    if (node.kind === 'Join') return { kind: 'Operator', node, sources: [this.plan(node.left), this.buildSide(node)] };
    return { kind: 'Operator', node, sources: sources(node).map((s) => this.plan(s)) };
  }

  /**
   * A partial aggregation over a scan whose splits are assigned to the task as they come: its
   * threads aggregate each split as it comes (a parallel scan cannot finish it there), and the
   * final step merges their states in the main thread, as it does above an exchange.
   */
  private partialOverAssignedSplits(partial: AggregateNode): boolean {
    const scan = fragmentScan(partial);
    return scan !== undefined && this.context.assignedSplits(scan) && this.parallelScan(partial) !== undefined;
  }

  /**
   * The build side of a hash join: its lookup table filled on the threads (ParallelHashBuild) when the
   * node has them and every key is a number threads can share, else hashed where the join runs.
   */
  private buildSide(join: JoinNode): PhysicalNode {
    const source = this.plan(join.right);
    const { threads, minSplits, parallelHashBuild } = this.context;
    const keysShareable = join.criteria.length > 0 && join.criteria.every((c) => shareableKeyType(c.right.type));
    if (parallelHashBuild === undefined || minSplits === 0 || threads < 2 || join.nearest !== undefined || !keysShareable) return source;
    const { minRows } = parallelHashBuild;
    return {
      kind: 'ParallelHashBuild',
      node: join.right,
      join,
      source,
      threads,
      minRows,
      decisions: [
        {
          name: 'parallel build',
          rule: `the threads fill the lookup table when the build side has at least ${minRows} rows, else the main thread`,
        },
      ],
    };
  }

  /** The subtree of a parallel scan's threads, run in the main thread: every node of the pipeline an operator here. */
  private pipelineInMainThread(node: PlanNode, threadTop: PlanNode): PhysicalNode {
    const chain = (n: PlanNode): PhysicalNode => {
      if (n.kind === 'Join') return { kind: 'Operator', node: n, sources: [chain(n.left), this.buildSide(n)] };
      if (n.kind === 'Filter' || n.kind === 'Project' || (n.kind === 'Aggregate' && n === threadTop))
        return { kind: 'Operator', node: n, sources: [chain(n.source)] };
      return { kind: 'Operator', node: n, sources: [] };
    };
    const partial = partialUnderFinal(node);
    if (partial === undefined) return chain(node);
    const final = node as AggregateNode;
    return { kind: 'SingleStepAggregation', node: mergePartialFinal(final, partial), final, partial, source: chain(partial.source) };
  }

  /** `node` as a parallel scan, when it is the top of one that pays. */
  private parallelScan(node: PlanNode): ParallelScan | undefined {
    const { threads, minSplits } = this.context;
    const partial = partialUnderFinal(node);
    const threadTop = partial ?? node;
    const scan = fragmentScan(threadTop);
    if (scan === undefined || minSplits === 0) return undefined;
    const threadScan = this.context.threadScan(scan);
    if (threadScan === undefined) return undefined;
    const splits = this.context.assignedSplits(scan) ? 'assigned' : 'listed';
    // Splits that come a few at a time cannot feed an aggregation that must see them all first.
    if (splits === 'assigned' && partial !== undefined) return undefined;
    const aggregation =
      threadTop.kind === 'Aggregate' ? this.aggregation(threadTop, partial === undefined ? undefined : (node as AggregateNode)) : undefined;
    if (threadTop.kind === 'Aggregate' && aggregation === undefined) return undefined;
    const stages = this.stages(threadTop.kind === 'Aggregate' ? threadTop.source : threadTop);
    // A join is probed in parallel only where that pays (optimizer/parallel-probes.ts).
    const pays = threadScan.generatesPages || aggregation !== undefined || stages.some((s) => s.kind === 'probe' || costly(s));
    if (!pays) return undefined;
    return {
      kind: 'ParallelScan',
      node,
      scan,
      threadTop,
      threads,
      minSplits,
      splits,
      stages,
      aggregation,
      exchanges: localExchanges(scan, threadTop, aggregation),
      decisions: decisions(splits, minSplits, threads, aggregation),
      inMainThread: this.pipelineInMainThread(node, threadTop),
    };
  }

  /**
   * `node` as a mark join that hashes its probe side and streams its build side, a Filter/Project
   * chain over a scan (its splits listed here, or assigned to the task as they come), past it on the
   * threads; undefined when it is not one.
   */
  private parallelMarkJoin(node: PlanNode): ParallelMarkJoin | undefined {
    const { minSplits } = this.context;
    if (!this.context.parallelMarkJoin || minSplits === 0 || node.kind !== 'Join' || !probeFirstShape(node)) return undefined;
    const scan = filterProjectScan(node.right);
    if (scan === undefined || this.context.threadScan(scan) === undefined) return undefined;
    const probe = this.plan(node.left);
    const build = this.threadPipeline(node.right, scan, localExchanges(scan, node.right, undefined));
    const decisions: AdaptiveDecision[] = [
      {
        name: 'probe first',
        rule: `the probe side hashed in the main thread and the build side streamed past it on the threads when the probe side has at most ${PROBE_FIRST_MAX_ROWS} rows, else the join in the main thread`,
      },
      {
        name: 'threads',
        rule:
          build.splits === 'listed'
            ? `the threads when the build side's table has at least ${minSplits} splits, else the main thread`
            : `the threads once ${minSplits} of the build side's splits were assigned, else the main thread`,
      },
    ];
    return {
      kind: 'ParallelMarkJoin',
      node,
      probe,
      build,
      decisions,
      inMainThread: { kind: 'Operator', node, sources: [probe, build.inMainThread] },
    };
  }

  /**
   * `node` as a Sort or TopN whose source is a scan pipeline (Filters, Projects and joins probed in
   * parallel over a scan the threads read): each thread sorts the rows of its splits into one run,
   * which the main thread merges; undefined when it is not one. Sorting is the threads' work, so
   * unlike a parallel scan it needs no costly stage to pay.
   */
  private parallelSort(node: PlanNode): ParallelSort | undefined {
    const { threads, minSplits } = this.context;
    if (!this.context.parallelSort || minSplits === 0 || (node.kind !== 'Sort' && node.kind !== 'TopN')) return undefined;
    const scan = probeChainScan(node.source);
    if (scan === undefined || this.context.threadScan(scan) === undefined) return undefined;
    // Only the splits go to the threads: each thread's rows stay there, to be sorted.
    const pipeline = this.threadPipeline(node.source, scan, [{ kind: 'LocalExchange', type: 'ROUND_ROBIN', keys: [], below: scan }]);
    return {
      kind: 'ParallelSort',
      node,
      pipeline,
      decisions: decisions(pipeline.splits, minSplits, threads, undefined),
      inMainThread: { kind: 'Operator', node, sources: [pipeline.inMainThread] },
    };
  }

  /**
   * `node` as a Window with PARTITION BY whose source is a scan pipeline: the threads send each row
   * to the thread of its partition keys' hash, each sorts and windows the partitions it owns, and
   * the main thread gathers their rows; undefined when it is not one. A window without PARTITION BY
   * (one partition) stays in the main thread, as do windows above it (their source is no scan pipeline).
   */
  private parallelWindow(node: PlanNode): ParallelWindow | undefined {
    const { threads, minSplits } = this.context;
    if (!this.context.parallelWindow || minSplits === 0 || node.kind !== 'Window' || node.partitionBy.length === 0) return undefined;
    // A lambda argument (reduce_agg's) is not known to cross to a thread intact.
    if (node.functions.some((f) => f.function.lambdas !== undefined)) return undefined;
    const scan = probeChainScan(node.source);
    if (scan === undefined || this.context.threadScan(scan) === undefined) return undefined;
    const pipeline = this.threadPipeline(node.source, scan, [
      { kind: 'LocalExchange', type: 'ROUND_ROBIN', keys: [], below: scan },
      { kind: 'LocalExchange', type: 'HASH', keys: node.partitionBy, below: node.source },
      { kind: 'LocalExchange', type: 'GATHER', keys: [], below: node },
    ]);
    return {
      kind: 'ParallelWindow',
      node,
      pipeline,
      decisions: decisions(pipeline.splits, minSplits, threads, undefined),
      inMainThread: { kind: 'Operator', node, sources: [pipeline.inMainThread] },
    };
  }

  /**
   * The scan pipeline up to `top` that a node above (a mark join, a sort) runs on the threads, without
   * an aggregation or decisions of its own; `inMainThread` is `top` planned as usual.
   */
  private threadPipeline(top: PlanNode, scan: TableScanNode, exchanges: LocalExchange[]): ParallelScan {
    const { threads, minSplits } = this.context;
    return {
      kind: 'ParallelScan',
      node: top,
      scan,
      threadTop: top,
      threads,
      minSplits,
      splits: this.context.assignedSplits(scan) ? 'assigned' : 'listed',
      stages: this.stages(top),
      exchanges,
      decisions: [],
      inMainThread: this.plan(top),
    };
  }

  /** The aggregation of a parallel scan, or undefined when one of its functions cannot run on a thread. */
  private aggregation(partial: AggregateNode, final: AggregateNode | undefined): ParallelAggregation | undefined {
    if (partial.aggregations.some((a) => aggregateRef(aggregateFunctionOf(a.function)) === undefined)) return undefined;
    if (final === undefined) return { partial };
    const finalStep =
      final.groupingKeys.length > 0 && this.context.partitionedFinal && this.context.threads >= PARTITIONED_FINAL_MIN_THREADS
        ? 'partitioned across threads'
        : 'main thread';
    return { partial, final, finalStep };
  }

  /** The stages from the scan up to `top` (Filters, Projects, probes of joins probed in parallel). */
  private stages(top: PlanNode): ThreadStage[] {
    const stages: ThreadStage[] = [];
    for (let node = top; node.kind !== 'TableScan'; ) {
      if (node.kind === 'Join') {
        stages.unshift({ kind: 'probe', join: node, build: this.buildSide(node) });
        node = node.left;
      } else if (node.kind === 'Filter' || node.kind === 'Project') {
        stages.unshift({ kind: 'filterProject', node });
        node = node.source;
      } else {
        throw new EngineError('GENERIC_INTERNAL_ERROR', `Unexpected ${node.kind} in the scan pipeline of ${top.id}`);
      }
    }
    return stages;
  }
}

/** Whether a stage's expressions cost enough per row that computing them on threads pays for moving their rows back. */
function costly(stage: ThreadStage): boolean {
  if (stage.kind !== 'filterProject') return false;
  const node: FilterNode | ProjectNode = stage.node;
  if (node.kind === 'Filter') return isCostly(node.predicate);
  return node.assignments.some((a) => isCostly(a.expression));
}

/**
 * The scan's splits go round-robin to the threads; a final step partitioned across them gets its
 * groups by the hash of its keys; the rows of the top the threads run are gathered in the main thread.
 */
function localExchanges(scan: TableScanNode, threadTop: PlanNode, aggregation: ParallelAggregation | undefined): LocalExchange[] {
  const exchange = (type: LocalExchange['type'], below: PlanNode, keys: LocalExchange['keys'] = []): LocalExchange => ({
    kind: 'LocalExchange',
    type,
    keys,
    below,
  });
  const final = aggregation?.final;
  if (final !== undefined && aggregation?.finalStep === 'partitioned across threads')
    return [exchange('ROUND_ROBIN', scan), exchange('HASH', threadTop, final.groupingKeys), exchange('GATHER', final)];
  return [exchange('ROUND_ROBIN', scan), exchange('GATHER', threadTop)];
}

function decisions(
  splits: ParallelScan['splits'],
  minSplits: number,
  threads: number,
  aggregation: ParallelAggregation | undefined,
): AdaptiveDecision[] {
  const partitioned = aggregation?.finalStep === 'partitioned across threads';
  const notKept = partitioned
    ? 'the whole aggregation in one step on the threads, each on a partition of the groups by key hash'
    : 'the whole aggregation in one step in the main thread';
  const made: AdaptiveDecision[] = [
    {
      name: 'threads',
      rule:
        splits === 'listed'
          ? `the threads when the table has at least ${minSplits} splits${aggregation?.final === undefined || partitioned ? '' : ' and its partial aggregation was not found to keep too many groups in the last 5 minutes'}, else the main thread`
          : `the threads once ${minSplits} splits were assigned, else the main thread`,
    },
  ];
  if (aggregation?.final !== undefined) {
    made.push({
      name: 'partial aggregation',
      rule: `kept when the groups of its first ${PARTIAL_PROBE_ROWS} rows are at most ${PARTIAL_MAX_GROUPS_PER_ROW * 100}% of them (and not found to keep more in the last 5 minutes), else ${notKept}`,
    });
    if (aggregation.finalStep === 'partitioned across threads') {
      made.push({
        name: 'final step',
        rule: `partitioned across the threads when at least ${PARTITIONED_FINAL_MIN_THREADS} run (partitioned_aggregation), else the main thread`,
      });
    }
  }
  return made;
}
