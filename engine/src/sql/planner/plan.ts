// The logical plan: a tree of nodes, each producing an ordered list of symbols. The local
// execution planner maps symbols to page channels; the fragmenter (later) cuts the tree into stages.

import type { ColumnMetadata, TableConstraint, TableMetadata } from '../../spi/connector.js';
import type { PushedScan } from '../../spi/pushdown.js';
import type { Scalar } from '../../types/scalar.js';
import type { WriteHandle } from '../../spi/table-write.js';
import type { AggregateFunctionHandle, WindowFunctionHandle } from './function-handles.js';
import type { FrameSpec } from './window-frame.js';
import type { RowExpression, Symbol } from './row-expression.js';
import { assertNever } from './assert-never.js';

export type PlanNode =
  | TableScanNode
  | ValuesNode
  | FilterNode
  | ProjectNode
  | AggregateNode
  | JoinNode
  | SortNode
  | TopNNode
  | LimitNode
  | WindowNode
  | SetOperationNode
  | EnforceSingleRowNode
  | GroupIdNode
  | AssignUniqueIdNode
  | MarkDistinctNode
  | UnnestNode
  | ApplyNode
  | ExchangeNode
  | RemoteSourceNode
  | TableWriterNode
  | TableFinishNode
  | RecursiveUnionNode;

interface NodeBase {
  readonly id: number;
  readonly outputs: Symbol[];
}

export interface TableScanNode extends NodeBase {
  kind: 'TableScan';
  table: TableMetadata;
  /** One per output symbol: the connector column it reads. */
  columns: ColumnMetadata[];
  /** Simple predicates of the filter above the scan, for the connector to skip work with. */
  constraint?: TableConstraint;
  /** What the connector took over from the nodes that were above the scan (filters, limits, aggregations). */
  pushed?: PushedScan;
  /** TABLESAMPLE SYSTEM: each split is read with this probability (drawn once per split, where the splits are listed). */
  splitSampleRatio?: number;
  /** Dynamic filters of joins above (optimizer/dynamic-filters.ts): the rows it needs have these columns' values in the joins' build keys. */
  dynamicFilters?: ScanDynamicFilter[];
  /** Every task of its fragment reads all of its splits (a tiny build side, distributed/tiny-build-side.ts). */
  replicated?: boolean;
}

/** A dynamic filter on a scan's column. */
export interface ScanDynamicFilter {
  id: string;
  column: string;
  /** The join is in another fragment (beyond an exchange): its domain comes from the coordinator in a task update. */
  remote?: boolean;
}

/** A dynamic filter a join makes of a build key's values. */
export interface DynamicFilterAssignment {
  id: string;
  build: Symbol;
  /** The scan is in another fragment: the task reports the domain in its task info, for the coordinator to forward. */
  remote?: boolean;
}

/**
 * A dynamic filter a filtering semi join makes of a probe key's values, for a scan on its build
 * (subquery) side: complete once the join read its whole probe side first (optimizer/dynamic-filters.ts).
 */
export interface ProbeKeyFilterAssignment {
  id: string;
  probe: Symbol;
}

export interface ValuesNode extends NodeBase {
  kind: 'Values';
  rows: Scalar[][];
  /** Set on the work table of a RecursiveUnion (with that node's id): the rows are the previous level's, given at run time. */
  workTable?: number;
}

/**
 * WITH RECURSIVE run level by level (recursive-query-planner.ts): the anchor's rows, then the
 * step's over the previous level (its work table), up to `maxDepth` steps; a level beyond that with
 * rows fails the query. Anchor, step and outputs have the same columns in the same order.
 */
export interface RecursiveUnionNode extends NodeBase {
  kind: 'RecursiveUnion';
  anchor: PlanNode;
  step: PlanNode;
  maxDepth: number;
}

export interface FilterNode extends NodeBase {
  kind: 'Filter';
  source: PlanNode;
  predicate: RowExpression;
}

export interface Assignment {
  symbol: Symbol;
  expression: RowExpression;
}

export interface ProjectNode extends NodeBase {
  kind: 'Project';
  source: PlanNode;
  assignments: Assignment[];
}

export interface AggregationCall {
  symbol: Symbol;
  function: AggregateFunctionHandle;
  arguments: Symbol[];
  distinct: boolean;
  /** FILTER (WHERE ...): only rows where this boolean symbol is TRUE count. */
  mask?: Symbol;
}

export interface AggregateNode extends NodeBase {
  kind: 'Aggregate';
  source: PlanNode;
  groupingKeys: Symbol[];
  aggregations: AggregationCall[];
  step: 'single' | 'partial' | 'final';
}

export interface EquiJoinClause {
  left: Symbol;
  right: Symbol;
}

export interface JoinNode extends NodeBase {
  kind: 'Join';
  type: 'inner' | 'left' | 'right' | 'full' | 'mark';
  /** The probe side. */
  left: PlanNode;
  /** The build side (held in a hash table). */
  right: PlanNode;
  criteria: EquiJoinClause[];
  /** Residual condition over left and right symbols. */
  filter?: RowExpression;
  /** For 'mark': the boolean output symbol and whether NULLs follow IN semantics. */
  mark?: { symbol: Symbol; nullAware: boolean };
  /**
   * The probe runs in the worker threads of the table scan under it (see parallel-probes), against
   * a build side made once and shared with them; set only where the scan may run on threads.
   */
  parallelProbe?: boolean;
  /** The dynamic filters it makes of its build side's keys, for scans on its probe side (optimizer/dynamic-filters.ts). */
  dynamicFilters?: DynamicFilterAssignment[];
  /** The dynamic filters it makes of its probe side's keys, for scans on its build side (a filtering semi join). */
  probeKeyFilters?: ProbeKeyFilterAssignment[];
  /** Set on a cluster's plan: how the join's rows are spread over its tasks (see distributed/join-distribution). */
  distribution?: JoinDistribution;
  /** An as-of join (NEAREST): each probe row keeps only its passing candidate with the nearest build key. */
  nearest?: NearestMatch;
}

/**
 * The candidate a NEAREST join keeps per probe row: of the build rows that match the criteria and
 * pass the filter (which holds the MATCH comparison `key operator value`), the one whose `key` (a
 * build-side symbol) is the largest (< or <=) or the smallest (> or >=). `value` is the probe-side
 * symbol compared with it (of the key's type).
 */
export interface NearestMatch {
  key: Symbol;
  operator: '<' | '<=' | '>' | '>=';
  value: Symbol;
}

/**
 * As Trino's EXPLAIN names them: the build side replicated to every probe task, or both sides
 * partitioned on the keys; and a mark join's probe side replicated to every build task, which marks
 * its rows (distributed/probe-replicated-mark-join.ts).
 */
export type JoinDistribution = 'REPLICATED' | 'PARTITIONED' | 'PROBE_REPLICATED';

export interface OrderingItem {
  symbol: Symbol;
  ascending: boolean;
  nullsFirst: boolean;
}

export interface SortNode extends NodeBase {
  kind: 'Sort';
  source: PlanNode;
  orderBy: OrderingItem[];
}

export interface TopNNode extends NodeBase {
  kind: 'TopN';
  source: PlanNode;
  orderBy: OrderingItem[];
  count: number;
}

export interface LimitNode extends NodeBase {
  kind: 'Limit';
  source: PlanNode;
  count: number; // Infinity for OFFSET without LIMIT
  offset: number;
}

export interface WindowCall {
  symbol: Symbol;
  function: WindowFunctionHandle;
  arguments: Symbol[];
  frame: FrameSpec;
  ignoreNulls: boolean;
}

export interface WindowNode extends NodeBase {
  kind: 'Window';
  source: PlanNode;
  partitionBy: Symbol[];
  orderBy: OrderingItem[];
  functions: WindowCall[];
}

export interface SetOperationNode extends NodeBase {
  kind: 'SetOperation';
  operation: 'union' | 'intersect' | 'except';
  distinct: boolean;
  sources: PlanNode[];
  /** Per source, its symbols in the order of `outputs`. */
  sourceSymbols: Symbol[][];
}

export interface EnforceSingleRowNode extends NodeBase {
  kind: 'EnforceSingleRow';
  source: PlanNode;
}

export interface GroupIdNode extends NodeBase {
  kind: 'GroupId';
  source: PlanNode;
  /** All symbols that appear in some grouping set; outputs are source outputs + groupIdSymbol. */
  groupingSets: Symbol[][];
  groupIdSymbol: Symbol;
}

export interface AssignUniqueIdNode extends NodeBase {
  kind: 'AssignUniqueId';
  source: PlanNode;
  idSymbol: Symbol;
}

/**
 * Passes every row on with a boolean `marker`: TRUE on the first row of each distinct combination
 * of `distinctSymbols`, FALSE on the others (NULLs compare equal). An aggregation takes a DISTINCT
 * call's rows through it as a FILTER mask, so that it needs no DISTINCT itself (distinct-aggregations.ts).
 */
export interface MarkDistinctNode extends NodeBase {
  kind: 'MarkDistinct';
  source: PlanNode;
  marker: Symbol;
  distinctSymbols: Symbol[];
}

/**
 * UNNEST of arrays per input row (a lateral join of the source with its arrays' elements). Each
 * source row gives as many rows as its longest array (NULL arrays count as empty); shorter arrays
 * are padded with NULLs. `outer` (LEFT JOIN UNNEST ... ON true) keeps a source row whose arrays are
 * all empty, with NULL elements. Outputs: replicated symbols, one element symbol per unnested
 * symbol, then the ordinality (1-based position) if asked.
 */
export interface UnnestNode extends NodeBase {
  kind: 'Unnest';
  source: PlanNode;
  replicate: Symbol[];
  /** An array input gives its elements; a map input two mappings, its keys (`entry: 'key'`) and its values. */
  mappings: { input: Symbol; output: Symbol; entry?: 'key' | 'value' }[];
  ordinality?: Symbol;
  outer: boolean;
}

/**
 * A correlated subquery evaluated per distinct binding of its outer symbols (the fallback when
 * decorrelation into a join does not apply). Outputs: input outputs + `result`.
 * - scalar: result = the subquery's single value (NULL when empty; error when several rows)
 * - exists: result = whether the subquery has a row
 * - in: result = `value IN (subquery)` with SQL NULL semantics
 */
export type ApplyNode = ValueApplyNode | LateralApplyNode;

interface ApplyBase extends NodeBase {
  kind: 'Apply';
  input: PlanNode;
  subquery: PlanNode;
  correlation: Symbol[];
}

export interface ValueApplyNode extends ApplyBase {
  applyType: 'scalar' | 'exists' | 'in';
  value?: Symbol;
  result: Symbol;
}

/**
 * A correlated LATERAL (subquery) in FROM: every input row joined with the rows its subquery gives
 * (the join's ON condition is a filter inside the subquery). `outer` (LEFT JOIN LATERAL) keeps an
 * input row the subquery gives no row for, with NULLs. Outputs: input outputs + subquery outputs.
 */
export interface LateralApplyNode extends ApplyBase {
  applyType: 'lateral';
  outer: boolean;
}

/**
 * How rows move between stages (AddExchanges puts these in; the fragmenter cuts the plan at them):
 * GATHER to one task, REPARTITION by the hash of `partitionKeys` over the consumer's tasks,
 * REPLICATE every row to every consumer task (the build side of a broadcast join).
 */
export type ExchangeType = 'GATHER' | 'REPARTITION' | 'REPLICATE';

export interface ExchangeNode extends NodeBase {
  kind: 'Exchange';
  type: ExchangeType;
  source: PlanNode;
  partitionKeys: Symbol[];
  /**
   * A merging GATHER (Trino's RemoteMerge): each source task's rows come sorted on these keys, and
   * the consumer merges the tasks' streams into one in this order (distributed/distributed-sort.ts).
   */
  orderBy?: OrderingItem[];
}

/** Where a fragment reads the output of the fragments below it (an exchange, after fragmenting). */
export interface RemoteSourceNode extends NodeBase {
  kind: 'RemoteSource';
  sourceFragmentIds: number[];
  exchangeType: ExchangeType;
  /** A merging exchange's order: one stream per source task, each sorted so, merged into one (see ExchangeNode). */
  orderBy?: OrderingItem[];
}

/**
 * Where a write's rows go. `handle`: the connector's (see spi/table-write.ts), made when the write
 * began; null in a plan only shown (EXPLAIN begins no write).
 */
export interface WriteTarget {
  catalog: string;
  schema: string;
  table: string;
  /** CREATE TABLE AS or INSERT: which of the connector's commits ends the write. */
  kind: 'create' | 'insert';
  handle: WriteHandle | null;
}

/**
 * Writes its source's rows with a page sink of the target's connector, in each task of its fragment.
 * Outputs: the rows it wrote (bigint) and what it wrote, its fragments as a JSON array (varchar).
 */
export interface TableWriterNode extends NodeBase {
  kind: 'TableWriter';
  source: PlanNode;
  target: WriteTarget;
  /** The table's columns, in table order, and per column the source symbol written to it. */
  columnNames: string[];
  columns: Symbol[];
  /** The columns that take no NULL (NOT NULL), by name. */
  notNull: string[];
}

/** Commits a write (once, on the coordinator) with the fragments of all its writers. Output: the rows written. */
export interface TableFinishNode extends NodeBase {
  kind: 'TableFinish';
  source: PlanNode;
  target: WriteTarget;
}

export function sources(node: PlanNode): PlanNode[] {
  switch (node.kind) {
    case 'TableScan':
    case 'Values':
    case 'RemoteSource':
      return [];
    case 'Join':
      return [node.left, node.right];
    case 'SetOperation':
      return node.sources;
    case 'Apply':
      return [node.input, node.subquery];
    case 'RecursiveUnion':
      return [node.anchor, node.step];
    case 'Filter':
    case 'Project':
    case 'Aggregate':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Exchange':
    case 'TableWriter':
    case 'TableFinish':
      return [node.source];
    default:
      return assertNever(node);
  }
}
