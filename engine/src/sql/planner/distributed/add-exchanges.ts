// AddExchanges: makes a logical plan distributed. Walking up from the leaves it tracks how each
// node's rows are spread over tasks (its distribution) and puts a remote exchange wherever a node
// needs its input spread otherwise: aggregations run partial below a repartition on their keys and
// final above it; joins are partitioned (both sides repartitioned on the join keys) or broadcast
// (the build side replicated to every probe task); what must see every row at once (sorts, global
// windows, set operations, LIMIT's final step, the output) gathers to a single task; a sort runs in
// every task and a merging exchange merges their sorted rows (distributed-sort.ts). The fragmenter
// then cuts the plan at these exchanges into stages.
//
// Distributions, as Trino names the partitionings they become:
//   single     one task (SINGLE, or COORDINATOR_ONLY for data only the coordinator holds)
//   arbitrary  many tasks, rows spread by split (SOURCE)
//   hash       many tasks, rows spread by the hash of `keys` (FIXED_HASH)

import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, EquiJoinClause, ExchangeNode, ExchangeType, JoinNode, OrderingItem, PlanNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { hasPartialForm, split } from '../optimizer/split-aggregation.js';
import { automaticJoinDistribution } from './join-distribution.js';
import { hashCompatible } from './hash-compatible.js';
import { probeReplicatedMarkJoin, replicatesProbeSide } from './probe-replicated-mark-join.js';
import { aggregatesInScanTask } from './single-node-aggregation.js';
import { keepsBuildInProbeTask } from './single-node-mark-join.js';
import { tinyBuildSide } from './tiny-build-side.js';
import { globalAggregationInProbeStage } from './global-aggregation-in-probe-stage.js';
import { distributedSort } from './distributed-sort.js';
import { partitioningKeys, preferredKeysBelow } from './preferred-partitioning.js';
import { EngineError } from '../../../errors/engine-error.js';
import { assertNever } from '../assert-never.js';

export type Distribution = { kind: 'single' } | { kind: 'arbitrary' } | { kind: 'hash'; keys: Symbol[] };

const SINGLE: Distribution = { kind: 'single' };
const ARBITRARY: Distribution = { kind: 'arbitrary' };

interface Placed {
  node: PlanNode;
  distribution: Distribution;
}

/**
 * `nodes`: how many nodes take the tasks of partitioned stages (it weighs broadcast against partitioned
 * joins); `singleNode`: the plan runs on a single-node server, every stage one task (single-node-aggregation.ts).
 */
export function addExchanges(root: PlanNode, context: PlannerContext, nodes: number, singleNode = false): PlanNode {
  const rewriter = new ExchangeRewriter(context, nodes, singleNode);
  const placed = rewriter.visit(root);
  return rewriter.gather(placed);
}

class ExchangeRewriter {
  constructor(
    private readonly context: PlannerContext,
    private readonly nodes: number,
    private readonly singleNode: boolean,
  ) {}

  /** `preferred`: keys the node's consumer would have its rows hashed on (see preferred-partitioning.ts). */
  visit(node: PlanNode, preferred: readonly Symbol[] = []): Placed {
    switch (node.kind) {
      case 'TableScan': {
        const connector = this.context.catalogs.get(node.table.catalog);
        return { node, distribution: connector?.remotelyAccessible?.(node.table) === true ? ARBITRARY : SINGLE };
      }
      case 'Values':
      case 'RemoteSource':
        return { node, distribution: SINGLE };
      case 'Filter':
      case 'Unnest': {
        // Row by row: the replicated symbols keep the source's partitioning.
        const source = this.visit(node.source, node.kind === 'Filter' ? preferred : []);
        return { node: { ...node, source: source.node }, distribution: source.distribution };
      }
      case 'Project': {
        const source = this.visit(node.source, beforeProject(preferred, node.assignments));
        return { node: { ...node, source: source.node }, distribution: throughProject(source.distribution, node.assignments) };
      }
      case 'Aggregate':
        return this.aggregate(node, preferred);
      case 'Join':
        return this.join(node);
      case 'MarkDistinct': {
        // The rows of one combination meet in one task, wherever they came from.
        const source = this.visit(node.source, preferred);
        const partitioned = this.partitionedOn(source, partitioningKeys(node.distinctSymbols, preferred));
        return { node: { ...node, source: partitioned.node }, distribution: partitioned.distribution };
      }
      case 'Sort': {
        const source = this.visit(node.source);
        if (source.distribution.kind === 'single' || !distributedSort(this.context))
          return { node: { ...node, source: this.gather(source) }, distribution: SINGLE };
        // Sorted in each task, merged above: the merging exchange stands for the sort there.
        return { node: this.exchange('GATHER', { ...node, source: source.node }, [], node.orderBy), distribution: SINGLE };
      }
      case 'EnforceSingleRow':
      case 'AssignUniqueId': {
        // AssignUniqueId numbers rows per task; in one task its ids stay unique.
        const source = this.gather(this.visit(node.source));
        return { node: { ...node, source }, distribution: SINGLE };
      }
      case 'TopN':
      case 'Limit':
        return this.partialThenFinal(node);
      case 'Window': {
        const source = this.visit(node.source);
        if (node.partitionBy.length === 0) return { node: { ...node, source: this.gather(source) }, distribution: SINGLE };
        const partitioned = this.partitionedOn(source, node.partitionBy);
        return { node: { ...node, source: partitioned.node }, distribution: partitioned.distribution };
      }
      case 'SetOperation': {
        const sources = node.sources.map((s) => this.gather(this.visit(s)));
        return { node: { ...node, sources }, distribution: SINGLE };
      }
      case 'GroupId': {
        // Grouping sets null out keys: a hash distribution no longer holds for them.
        const source = this.visit(node.source);
        return { node: { ...node, source: source.node }, distribution: source.distribution.kind === 'single' ? SINGLE : ARBITRARY };
      }
      case 'RecursiveUnion':
        // The step runs again per level, in the task of the recursion: both stay local plans.
        return { node, distribution: SINGLE };
      case 'Apply': {
        // The subquery runs again per binding, in the task of the Apply: it stays a local plan.
        const input = this.gather(this.visit(node.input));
        return { node: { ...node, input }, distribution: SINGLE };
      }
      case 'Exchange':
        return { node, distribution: node.type === 'GATHER' ? SINGLE : ARBITRARY };
      case 'TableWriter':
      case 'TableFinish':
        // A write's nodes are placed after the exchanges of its query (see table-writer-placement.ts).
        throw new EngineError('GENERIC_INTERNAL_ERROR', `${node.kind} ${node.id} before its query's exchanges were placed`);
      default:
        return assertNever(node);
    }
  }

  /** The node with its rows in one task: as it is, or under a GATHER exchange. */
  gather(placed: Placed): PlanNode {
    return placed.distribution.kind === 'single' ? placed.node : this.exchange('GATHER', placed.node, []);
  }

  /** `orderBy`: a merging GATHER, its source's rows sorted so in each task. */
  private exchange(type: ExchangeType, source: PlanNode, partitionKeys: Symbol[], orderBy?: OrderingItem[]): ExchangeNode {
    const exchange: ExchangeNode = {
      kind: 'Exchange',
      id: this.context.factory.nodeId(),
      type,
      source,
      partitionKeys,
      outputs: source.outputs,
    };
    return orderBy === undefined ? exchange : { ...exchange, orderBy };
  }

  /** The node's rows hash-partitioned on (a subset of) `keys`: as they are, or repartitioned on `keys`. */
  private partitionedOn(placed: Placed, keys: Symbol[]): Placed {
    const d = placed.distribution;
    if (d.kind === 'single') return placed;
    if (d.kind === 'hash' && d.keys.every((k) => keys.some((g) => g.id === k.id))) return placed;
    return { node: this.exchange('REPARTITION', placed.node, keys), distribution: { kind: 'hash', keys } };
  }

  private aggregate(node: AggregateNode, preferred: readonly Symbol[]): Placed {
    const source = this.visit(node.source, preferredKeysBelow(node, this.context, this.nodes));
    const keys = node.groupingKeys;
    const d = source.distribution;
    // A partial step below a join (push-partial-aggregation.ts) runs where its rows are; its final step merges above.
    if (node.step === 'partial') return { node: { ...node, source: source.node }, distribution: d };
    const inPlace = d.kind === 'single' || (keys.length > 0 && d.kind === 'hash' && d.keys.every((k) => keys.some((g) => g.id === k.id)));
    if (inPlace) return { node: { ...node, source: source.node }, distribution: d };
    if (d.kind === 'arbitrary' && keys.length > 0 && aggregatesInScanTask(this.context, this.singleNode)) {
      const inTask = { ...node, source: source.node };
      return { node: hasPartialForm(inTask) ? split(inTask, this.context.factory) : inTask, distribution: d };
    }
    if (hasPartialForm(node)) {
      const final = split({ ...node, source: source.node }, this.context.factory);
      const partial = final.source;
      if (keys.length === 0) return { node: { ...final, source: this.exchange('GATHER', partial, []) }, distribution: SINGLE };
      const hashKeys = partitioningKeys(keys, preferred);
      return {
        node: { ...final, source: this.exchange('REPARTITION', partial, hashKeys) },
        distribution: { kind: 'hash', keys: hashKeys },
      };
    }
    if (keys.length === 0) return { node: { ...node, source: this.gather(source) }, distribution: SINGLE };
    const partitioned = this.partitionedOn(source, partitioningKeys(keys, preferred));
    return { node: { ...node, source: partitioned.node }, distribution: partitioned.distribution };
  }

  /** TopN and Limit: the same step in every task, then again over their gathered rows. */
  private partialThenFinal(node: PlanNode & { kind: 'TopN' | 'Limit' }): Placed {
    const source = this.visit(node.source);
    if (source.distribution.kind === 'single') return { node: { ...node, source: source.node }, distribution: SINGLE };
    if (node.kind === 'Limit' && !Number.isFinite(node.count))
      return { node: { ...node, source: this.gather(source) }, distribution: SINGLE };
    const id = this.context.factory.nodeId();
    const partial: PlanNode =
      node.kind === 'Limit'
        ? { ...node, id, source: source.node, count: node.count + node.offset, offset: 0 }
        : { ...node, id, source: source.node };
    return { node: { ...node, source: this.exchange('GATHER', partial, []) }, distribution: SINGLE };
  }

  private join(node: JoinNode): Placed {
    const left = this.visit(node.left);
    const right = this.visit(node.right);
    if (replicatesProbeSide(node, right.distribution.kind !== 'single', this.context, this.nodes)) {
      // Its rows come out of a repartition on each probe row's number, which is no output. The probe
      // rows are numbered where they are: each task's numbers apart from the others' (taskIdBase).
      return { node: probeReplicatedMarkJoin(node, left.node, right.node, this.context), distribution: ARBITRARY };
    }
    if (left.distribution.kind === 'single') {
      // The probe side is in one task already: bring the build side there.
      return { node: { ...node, left: left.node, right: this.gather(right) }, distribution: SINGLE };
    }
    const keepsLeft = hashedOnJoinKeys(left.distribution, node.criteria, 'left');
    const strategy = this.joinStrategy(node, !keepsLeft);
    const bothBySplit = left.distribution.kind === 'arbitrary' && right.distribution.kind === 'arbitrary';
    if (strategy === 'broadcast' && this.singleNode && bothBySplit && keepsBuildInProbeTask(node, left.node, right.node, this.context)) {
      // One task holds every row of both sides: no exchange (single-node-mark-join.ts).
      return { node: { ...node, left: left.node, right: right.node, distribution: 'REPLICATED' }, distribution: left.distribution };
    }
    const tiny =
      strategy === 'broadcast' && !this.singleNode && right.distribution.kind === 'arbitrary'
        ? tinyBuildSide(right.node, this.context)
        : undefined;
    if (tiny !== undefined) {
      // Every task of the probe's stage reads the tiny tables whole: no stage of their own (tiny-build-side.ts).
      return { node: { ...node, left: left.node, right: tiny, distribution: 'REPLICATED' }, distribution: left.distribution };
    }
    const scalar =
      strategy === 'broadcast' && right.distribution.kind === 'single'
        ? globalAggregationInProbeStage(right.node, this.context)
        : undefined;
    if (scalar !== undefined) {
      // Every task of the probe's stage finishes the aggregation over its replicated partial rows (global-aggregation-in-probe-stage.ts).
      return { node: { ...node, left: left.node, right: scalar, distribution: 'REPLICATED' }, distribution: left.distribution };
    }
    if (strategy === 'broadcast') {
      return {
        node: { ...node, left: left.node, right: this.exchange('REPLICATE', right.node, []), distribution: 'REPLICATED' },
        distribution: left.distribution,
      };
    }
    if (strategy === 'single') return { node: { ...node, left: this.gather(left), right: this.gather(right) }, distribution: SINGLE };
    // A side hashed on its join keys already (rows grouped or joined on them in the tasks of this
    // stage) stays where it is: every stage of hashed rows has one task per node, and a REPARTITION
    // sends partition i to task i, so the other side's rows, hashed alike, meet their matches there.
    const leftKeys = node.criteria.map((c) => c.left);
    const rightKeys = node.criteria.map((c) => c.right);
    const probe = keepsLeft ? left.node : this.exchange('REPARTITION', left.node, leftKeys);
    const build = hashedOnJoinKeys(right.distribution, node.criteria, 'right')
      ? right.node
      : this.exchange('REPARTITION', right.node, rightKeys);
    return {
      node: { ...node, left: probe, right: build, distribution: 'PARTITIONED' },
      distribution: partitionedJoinOutput(node.type, leftKeys, rightKeys),
    };
  }

  /**
   * Broadcast replicates the build side, so it only suits joins that never emit an unmatched build
   * row (inner, left, semi); a null-aware semi join must see every build row in each task (one NULL
   * there changes every non-match to NULL), so it is always broadcast. Partitioning needs equi-join
   * keys whose two sides hash alike. `probeMoves`: whether partitioning repartitions the probe side.
   */
  private joinStrategy(node: JoinNode, probeMoves: boolean): 'broadcast' | 'partitioned' | 'single' {
    const canBroadcast = node.type === 'inner' || node.type === 'left' || node.type === 'mark';
    const canPartition =
      node.criteria.length > 0 &&
      node.criteria.every((c) => hashCompatible(c.left.type, c.right.type)) &&
      !(node.type === 'mark' && node.mark?.nullAware);
    if (!canPartition) return canBroadcast ? 'broadcast' : 'single';
    if (!canBroadcast) return 'partitioned';
    const requested = this.context.session.properties.get('join_distribution_type')?.toUpperCase() ?? 'AUTOMATIC';
    if (requested === 'BROADCAST') return 'broadcast';
    if (requested === 'PARTITIONED') return 'partitioned';
    return automaticJoinDistribution(node, this.context, this.nodes, probeMoves);
  }
}

/**
 * How a partitioned join's output rows lie: every row sits in the task its probe keys hash to, which
 * is the task its build keys hash to, except a row whose side matched nothing: its other side's
 * keys are NULL there. So an inner or left join's rows stay hashed on the probe keys, a right join's
 * on the build keys (an aggregation grouped on them, as TPC-H q13's count per customer, then needs no
 * exchange), a full join's on neither.
 */
function partitionedJoinOutput(type: JoinNode['type'], probeKeys: Symbol[], buildKeys: Symbol[]): Distribution {
  switch (type) {
    case 'inner':
    case 'left':
    case 'mark':
      return { kind: 'hash', keys: probeKeys };
    case 'right':
      return { kind: 'hash', keys: buildKeys };
    case 'full':
      return ARBITRARY;
    default:
      return assertNever(type, 'join type');
  }
}

/**
 * Whether one side's rows are hashed on exactly its join keys, in the criteria's order (as the plan
 * validator wants a join's partitioned sides: matching rows then meet in one task).
 */
function hashedOnJoinKeys(d: Distribution, criteria: readonly EquiJoinClause[], side: 'left' | 'right'): boolean {
  return (
    d.kind === 'hash' &&
    sameKeys(
      d.keys,
      criteria.map((c) => c[side]),
    )
  );
}

function sameKeys(a: readonly Symbol[], b: readonly Symbol[]): boolean {
  return a.length === b.length && a.every((s, i) => s.id === b[i].id);
}

/** The preferred keys in the symbols under a projection: none unless every one passes through it (possibly renamed). */
function beforeProject(
  preferred: readonly Symbol[],
  assignments: readonly { symbol: Symbol; expression: { kind: string; symbol?: Symbol } }[],
): Symbol[] {
  const keys: Symbol[] = [];
  for (const key of preferred) {
    const source = assignments.find((a) => a.symbol.id === key.id && a.expression.kind === 'symbol')?.expression.symbol;
    if (source === undefined) return [];
    keys.push(source);
  }
  return keys;
}

/** A hash distribution survives a projection when every key passes through (possibly renamed). */
function throughProject(
  d: Distribution,
  assignments: readonly { symbol: Symbol; expression: { kind: string; symbol?: Symbol } }[],
): Distribution {
  if (d.kind !== 'hash') return d;
  const keys: Symbol[] = [];
  for (const key of d.keys) {
    const out = assignments.find((a) => a.expression.kind === 'symbol' && a.expression.symbol?.id === key.id);
    if (out === undefined) return ARBITRARY;
    keys.push(out.symbol);
  }
  return { kind: 'hash', keys };
}
