// The physical plan: what runs, and where, for a fragment's logical plan (or a single node's whole
// plan). It is made once after the optimizer and the fragmenter (physical-planner.ts); the local
// execution planner maps each physical node to its operators, and EXPLAIN prints it
// (physical-printer.ts). The choices that depend on what the run finds (how many splits a table
// has, whether a partial aggregation reduces its input) are the named adaptive decisions of the
// node that makes them, declared here and recorded as chosen when the query runs.

import type { AggregateNode, FilterNode, JoinNode, PlanNode, ProjectNode, SortNode, TableScanNode, TopNNode, WindowNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';

export type PhysicalNode =
  | PhysicalOperator
  | SingleStepAggregation
  | ParallelScan
  | ParallelMarkJoin
  | ParallelSort
  | ParallelWindow
  | ParallelHashBuild
  | Spool;

/** One logical node run by its operator in the task's main thread, over the physical nodes of its sources. */
export interface PhysicalOperator {
  kind: 'Operator';
  node: PlanNode;
  sources: PhysicalNode[];
}

/**
 * A final aggregation over its partial, run as one (SINGLE) aggregation step in the main thread:
 * the optimizer split it for worker threads its source does not run on.
 */
export interface SingleStepAggregation {
  kind: 'SingleStepAggregation';
  /** The single aggregation the pair stands for (with the final's id and output symbols). */
  node: AggregateNode;
  final: AggregateNode;
  partial: AggregateNode;
  source: PhysicalNode;
}

/** A stage a parallel scan runs in each of its threads, over the pages of the splits the thread reads. */
export type ThreadStage =
  | { kind: 'filterProject'; node: FilterNode | ProjectNode }
  /** The probe of a join against its build side, made once in the main thread and shared with the threads. */
  | { kind: 'probe'; join: JoinNode; build: PhysicalNode };

/** Where the final step of a parallel scan's aggregation runs. */
export type FinalStepPlacement =
  /** Merged in the main thread from every thread's partial states. */
  | 'main thread'
  /** Each thread finishes a partition of the groups (by key hash), exchanged directly between threads. */
  | 'partitioned across threads';

/**
 * Rows (or splits) moving between a node's threads, or from them to the main thread, within a
 * parallel scan: what the threads' distribution is above it.
 */
export interface LocalExchange {
  kind: 'LocalExchange';
  /**
   * ROUND_ROBIN: the table's splits to the threads (split i to thread i mod n; a thread that runs out
   * takes another's last ones); HASH: each row to the thread of its keys' hash; GATHER: every thread's
   * rows to the main thread.
   */
  type: 'ROUND_ROBIN' | 'HASH' | 'GATHER';
  /** HASH: the symbols hashed (none for the others). */
  keys: Symbol[];
  /** The logical node whose output (for ROUND_ROBIN: whose splits) crosses it. */
  below: PlanNode;
}

export interface ParallelAggregation {
  partial: AggregateNode;
  /** The final step above the partial, in this task; absent when it runs in another fragment. */
  final?: AggregateNode;
  /** Where the final step runs when all the threads run (see the `threads` decision). */
  finalStep?: FinalStepPlacement;
  /**
   * A Filter directly above a final step partitioned across the threads (a HAVING): each thread
   * applies it to the groups it finished, so only the groups kept are gathered in the main thread.
   */
  having?: FilterNode;
}

/**
 * A table scan read split by split on the node's worker threads, each thread running the stages
 * over the splits it reads and, optionally, a partial aggregation (and the final step, partitioned).
 */
export interface ParallelScan {
  kind: 'ParallelScan';
  /** The topmost logical node the pipeline covers: its output is the pipeline's. */
  node: PlanNode;
  scan: TableScanNode;
  /** The topmost node the threads run (the partial aggregation, or the top of the stages). */
  threadTop: PlanNode;
  /** Threads it runs on when its splits pay for them. */
  threads: number;
  /** Splits from which on the threads pay (a worker round trip costs more than a small table saves). */
  minSplits: number;
  /** How the scan gets its splits: all listed up front, or assigned to a task as they come (a distributed task). */
  splits: 'listed' | 'assigned';
  /** In order from the scan up. */
  stages: ThreadStage[];
  aggregation?: ParallelAggregation;
  /** From the scan up: its splits to the threads, a final step's partitions between them, and their rows to the main thread. */
  exchanges: LocalExchange[];
  decisions: AdaptiveDecision[];
  /** The same logical subtree run in the main thread: what runs when a decision says the threads do not pay. */
  inMainThread: PhysicalNode;
}

/**
 * A mark join (semi/anti join, EXISTS, IN) whose probe side is hashed in the main thread and whose
 * build side, a scan pipeline, streams past it on the node's threads: each thread marks the probe
 * rows its build rows match (one shared array of marks), and only counts come back. When the probe
 * side turns out big, or the table small, the join runs in the main thread (`inMainThread`).
 */
export interface ParallelMarkJoin {
  kind: 'ParallelMarkJoin';
  node: JoinNode;
  /** The probe side, in the main thread. */
  probe: PhysicalNode;
  /** The build side's pipeline on the threads (its top is the join's right side), ending in the marking. */
  build: ParallelScan;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNode;
}

/**
 * A sort (or TopN) over a scan pipeline, run on the node's threads: each thread runs the pipeline
 * over the splits it reads and sorts its rows into one run (TopN: keeps its best `count`), and the
 * main thread merges the threads' sorted runs (a k-way merge, MergeSorted). With too few splits the
 * sort runs in the main thread (`inMainThread`).
 */
export interface ParallelSort {
  kind: 'ParallelSort';
  node: SortNode | TopNNode;
  /** The pipeline under the sort, on the threads; its rows stay in their thread (no GATHER) until sorted there. */
  pipeline: ParallelScan;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNode;
}

/**
 * A window with PARTITION BY over a scan pipeline, run on the node's threads: each thread runs the
 * pipeline over the splits it reads and sends each row to the thread of its partition keys' hash (a
 * HASH local exchange), then sorts and windows the partitions it owns; the main thread gathers the
 * rows. With too few splits the window runs in the main thread (`inMainThread`).
 */
export interface ParallelWindow {
  kind: 'ParallelWindow';
  node: WindowNode;
  /** The pipeline under the window, on the threads; its rows are exchanged by the hash of the partition keys. */
  pipeline: ParallelScan;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNode;
}

/**
 * The build side of a hash join whose lookup table the node's threads fill, each thread the rows of
 * its regions of the key hashes (exec/threads/parallel-join-build), once the main thread has gathered
 * the rows from `source`; the join probes the table as before (in the main thread, or shared with
 * the threads of the scan it is probed in). A build side of few rows is hashed in the main thread.
 */
export interface ParallelHashBuild {
  kind: 'ParallelHashBuild';
  /** The build side's top node (the join's right side): its rows are `source`'s. */
  node: PlanNode;
  join: JoinNode;
  source: PhysicalNode;
  threads: number;
  /** Build rows from which on the threads fill the table. */
  minRows: number;
  decisions: AdaptiveDecision[];
}

export type AdaptiveDecisionName = 'threads' | 'partial aggregation' | 'final step' | 'probe first' | 'parallel build';

/** A choice a physical node makes when it runs, and the rule it follows. */
export interface AdaptiveDecision {
  name: AdaptiveDecisionName;
  rule: string;
}

/** The physical nodes under `node` (in the main thread's view: a parallel scan's build sides, a parallel mark join's probe side). */
export function physicalSources(node: PhysicalNode): PhysicalNode[] {
  switch (node.kind) {
    case 'Operator':
      return node.sources;
    case 'SingleStepAggregation':
      return [node.source];
    case 'ParallelScan':
      return node.stages.flatMap((s) => (s.kind === 'probe' ? [s.build] : []));
    case 'ParallelMarkJoin':
      return [node.probe];
    case 'ParallelSort':
    case 'ParallelWindow':
      return physicalSources(node.pipeline);
    case 'ParallelHashBuild':
      return [node.source];
    case 'Spool':
      return node.source === undefined ? [] : [node.source];
  }
}

/**
 * One copy of an aggregation the plan has identical copies of (common-subplans.ts): the rows of
 * `source`, the copy that runs once for all of them, buffered and replayed to this copy's consumer.
 * Every copy's Spool has the same `source` object; its columns are in this copy's order.
 */
export interface Spool {
  kind: 'Spool';
  node: PlanNode;
  /** The plan node id of the copy that runs for all (its producer). */
  commonSubplan: number;
  /** The producer's plan; absent at a copy in another fragment than it, which waits for its rows (acrossTasks). */
  source?: PhysicalNode;
  /** How many copies read the rows (the buffer is freed when the last has read them). */
  consumers: number;
  /**
   * Whether the copies are in several fragments of a single node's query: their tasks share the rows
   * in the query's spools on the node (only the producer's fragment scans), not in one task.
   */
  acrossTasks?: boolean;
}
