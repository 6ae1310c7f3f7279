// Turns a logical plan into a tree of operators over page streams. Each node's output layout is
// its `outputs`: channel i holds symbol outputs[i]; expressions are rewritten from symbols to
// channels here, so operators never see symbols.

import type { CatalogManager } from '../connectors/catalog-manager.js';
import type { Session } from '../coordinator/session.js';
import type { QueryProgress } from '../coordinator/statement-result.js';
import { EngineError } from '../errors/engine-error.js';
import type { PlanNode } from '../sql/planner/plan.js';
import type { NodeRuntimeStats } from '../sql/planner/plan-printer.js';
import { constant, inputRef, mapChildren, type RowExpression, type Symbol } from '../sql/planner/row-expression.js';
import type { SqlType } from '../types/types.js';
import { applyOperator } from './apply.js';
import { enforceSingleRow } from './operators/enforce-single-row.js';
import { filterAndProject } from './operators/filter-and-project.js';
import { groupId } from './operators/group-id.js';
import { hashAggregation } from './operators/hash-aggregation.js';
import { hashJoin } from './operators/hash-join.js';
import { limit } from './operators/limit.js';
import type { OperatorContext, PageStream, SortKey } from './operators/operator.js';
import { setOperation } from './operators/set-operation.js';
import { sort } from './operators/sort.js';
import { tableScan } from './table-scan.js';
import { topN } from './operators/top-n.js';
import { values } from './operators/values.js';
import { window } from './operators/window.js';
import { assignUniqueId } from './operators/assign-unique-id.js';
import type { Scalar } from './page.js';

export interface ExecutionEnvironment {
  operator: OperatorContext;
  catalogs: CatalogManager;
  session: Session;
  progress: QueryProgress;
  /** When set (EXPLAIN ANALYZE), every node's output rows and wall time are counted here. */
  nodeStats?: Map<number, NodeRuntimeStats>;
}

/** Values of outer symbols while a correlated subquery runs for one binding. */
export type Bindings = ReadonlyMap<number, { value: Scalar; type: SqlType }>;

export class LocalExecutionPlanner {
  constructor(private readonly env: ExecutionEnvironment) {}

  plan(node: PlanNode, bindings: Bindings = new Map()): PageStream {
    const stream = this.planNode(node, bindings);
    return this.env.nodeStats ? measured(stream, node.id, this.env.nodeStats) : stream;
  }

  private planNode(node: PlanNode, bindings: Bindings): PageStream {
    const ctx = this.env.operator;
    const types = (n: PlanNode) => n.outputs.map((s) => s.type);
    const channels = (e: RowExpression, layout: readonly Symbol[]) => toChannels(e, layout, bindings);
    const indexOf = (layout: readonly Symbol[], s: Symbol) => channelOf(layout, s);

    switch (node.kind) {
      case 'TableScan':
        return tableScan(this.env, node);
      case 'Values':
        return values(types(node), node.rows);
      case 'Filter':
        return filterAndProject(ctx, this.plan(node.source, bindings), types(node.source), channels(node.predicate, node.source.outputs), node.source.outputs.map((s, i) => inputRef(i, s.type)));
      case 'Project': {
        if (node.source.kind === 'Filter') {
          const filter = node.source;
          const layout = filter.source.outputs;
          return filterAndProject(
            ctx,
            this.plan(filter.source, bindings),
            types(filter.source),
            channels(filter.predicate, layout),
            node.assignments.map((a) => channels(a.expression, layout)),
          );
        }
        const layout = node.source.outputs;
        return filterAndProject(ctx, this.plan(node.source, bindings), types(node.source), undefined, node.assignments.map((a) => channels(a.expression, layout)));
      }
      case 'Aggregate': {
        const layout = node.source.outputs;
        return hashAggregation(ctx, this.plan(node.source, bindings), {
          inputTypes: types(node.source),
          groupChannels: node.groupingKeys.map((s) => indexOf(layout, s)),
          aggregates: node.aggregations.map((a) => ({
            function: a.function,
            argumentChannels: a.arguments.map((s) => indexOf(layout, s)),
            distinct: a.distinct,
            maskChannel: a.mask ? indexOf(layout, a.mask) : undefined,
          })),
          step: node.step,
        });
      }
      case 'Join': {
        const left = node.left.outputs;
        const right = node.right.outputs;
        const combined = [...left, ...right];
        return hashJoin(ctx, this.plan(node.left, bindings), this.plan(node.right, bindings), {
          type: node.type,
          probeTypes: types(node.left),
          buildTypes: types(node.right),
          probeKeys: node.criteria.map((c) => indexOf(left, c.left)),
          buildKeys: node.criteria.map((c) => indexOf(right, c.right)),
          filter: node.filter ? channels(node.filter, combined) : undefined,
          probeOutput: left.map((_, i) => i),
          buildOutput: node.type === 'mark' ? [] : right.map((_, i) => i),
          markNullAware: node.mark?.nullAware ?? false,
        });
      }
      case 'Sort':
        return sort(ctx, this.plan(node.source, bindings), types(node.source), sortKeys(node.orderBy, node.source.outputs));
      case 'TopN':
        return topN(ctx, this.plan(node.source, bindings), types(node.source), sortKeys(node.orderBy, node.source.outputs), node.count);
      case 'Limit':
        return limit(this.plan(node.source, bindings), node.count, node.offset);
      case 'Window': {
        const layout = node.source.outputs;
        return window(ctx, this.plan(node.source, bindings), types(node.source), {
          partitionChannels: node.partitionBy.map((s) => indexOf(layout, s)),
          orderKeys: sortKeys(node.orderBy, layout),
          functions: node.functions.map((f) => ({
            function: f.function,
            argumentChannels: f.arguments.map((s) => indexOf(layout, s)),
            frame: f.frame,
            ignoreNulls: f.ignoreNulls,
          })),
        });
      }
      case 'SetOperation': {
        const inputs = node.sources.map((source, i) => {
          const order = node.sourceSymbols[i].map((s) => indexOf(source.outputs, s));
          const stream = this.plan(source, bindings);
          const identity = order.every((c, j) => c === j) && order.length === source.outputs.length;
          return identity ? stream : filterAndProject(ctx, stream, types(source), undefined, order.map((c, j) => inputRef(c, node.outputs[j].type)));
        });
        return setOperation(ctx, inputs, types(node), node.operation, node.distinct);
      }
      case 'EnforceSingleRow':
        return enforceSingleRow(this.plan(node.source, bindings), types(node));
      case 'GroupId': {
        const layout = node.source.outputs;
        const sets = node.groupingSets.map((set) => set.map((s) => indexOf(layout, s)));
        const all = [...new Set(sets.flat())];
        return groupId(this.plan(node.source, bindings), types(node.source), sets, all);
      }
      case 'AssignUniqueId':
        return assignUniqueId(this.plan(node.source, bindings));
      case 'Apply':
        return applyOperator(this, node, bindings);
    }
  }
}

async function* measured(stream: PageStream, nodeId: number, stats: Map<number, NodeRuntimeStats>): PageStream {
  const entry = stats.get(nodeId) ?? { outputRows: 0, wallMillis: 0 };
  stats.set(nodeId, entry);
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const started = performance.now();
      const next = await iterator.next();
      entry.wallMillis += performance.now() - started;
      if (next.done) return;
      entry.outputRows += next.value.rowCount;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
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
  if (e.kind === 'symbol') {
    const bound = bindings.get(e.symbol.id);
    if (bound) return constant(bound.value, bound.type);
    return inputRef(channelOf(layout, e.symbol), e.type);
  }
  return mapChildren(e, (c) => toChannels(c, layout, bindings));
}
