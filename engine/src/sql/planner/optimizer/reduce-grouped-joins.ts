// Semi-join reduction of a grouped aggregation that is joined by its grouping key (what a
// correlated scalar subquery decorrelates into, TPC-H Q17 and Q20):
//
//   outer LEFT JOIN (SELECT k, agg(...) FROM inner GROUP BY k) ON outer.x = k
//
// Only groups whose key occurs in outer.x are ever looked up. When x comes from an input of the
// outer side reached through inner joins and filters (a filtered `part` scan in Q17), the
// aggregation needs only inner rows whose key is among that input's values: the input is read
// once more as the build side of a semi join below the aggregation, so that it aggregates a few
// thousand rows instead of the whole table.

import { BOOLEAN } from '../../../types/types.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, JoinNode, PlanNode } from '../plan.js';
import { symbolRef, type Symbol } from '../row-expression.js';
import { estimateRows } from './estimate-rows.js';
import { mapSources } from './rewrite-plan.js';
import { assertNever } from '../assert-never.js';

/** Below this many estimated key rows the extra read of the key's input pays off. */
const MAX_KEY_SOURCE_ROWS = 100_000;

export function reduceGroupedJoins(root: PlanNode, context: PlannerContext): PlanNode {
  const visit = (node: PlanNode): PlanNode => {
    const rewritten = mapSources(node, visit);
    return rewritten.kind === 'Join' ? reduce(rewritten, context) : rewritten;
  };
  return visit(root);
}

function reduce(join: JoinNode, context: PlannerContext): PlanNode {
  // A residual filter only drops more rows: the groups no outer key matches are still never used.
  if ((join.type !== 'left' && join.type !== 'inner') || join.criteria.length !== 1 || join.nearest) return join;
  const aggregate = join.right;
  if (aggregate.kind !== 'Aggregate' || aggregate.step !== 'single' || aggregate.groupingKeys.length !== 1) return join;
  const { left: outerKey, right: groupKey } = join.criteria[0];
  if (groupKey.id !== aggregate.groupingKeys[0].id) return join;
  const keySource = inputProducing(join.left, outerKey);
  if (!keySource || keySource.kind === 'TableScan' || estimateRows(keySource, context) > MAX_KEY_SOURCE_ROWS) return join;
  if (estimateRows(keySource, context) * 10 > estimateRows(aggregate.source, context)) return join;
  const factory = context.factory;
  const mark = factory.newSymbol('keyseen', BOOLEAN);
  const keyed = factory.restrict(keySource, [outerKey]);
  const semi = factory.join('mark', aggregate.source, keyed, [{ left: groupKey, right: outerKey }], undefined, {
    symbol: mark,
    nullAware: false,
  });
  const reducedSource = factory.restrict(factory.filter(semi, symbolRef(mark)), aggregate.source.outputs);
  const reduced: AggregateNode = { ...aggregate, source: reducedSource };
  return { ...join, right: reduced };
}

/**
 * The input of `node` that produces `symbol`, reached only through inner joins, filters and
 * projections that pass it through: every value of the symbol above comes from that input.
 */
function inputProducing(node: PlanNode, symbol: Symbol): PlanNode | undefined {
  const has = (n: PlanNode) => n.outputs.some((s) => s.id === symbol.id);
  switch (node.kind) {
    case 'Join':
      if (node.type !== 'inner') return undefined;
      return has(node.left) ? inputProducing(node.left, symbol) : has(node.right) ? inputProducing(node.right, symbol) : undefined;
    case 'Project': {
      const assignment = node.assignments.find((a) => a.symbol.id === symbol.id);
      const identity = assignment?.expression.kind === 'symbol' && assignment.expression.symbol.id === symbol.id;
      if (!identity) return has(node) ? node : undefined;
      return has(node.source) && node.source.kind === 'Join' ? inputProducing(node.source, symbol) : node;
    }
    case 'TableScan':
    case 'Values':
    case 'RecursiveUnion':
    case 'Filter':
    case 'Aggregate':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'SetOperation':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Apply':
    case 'Exchange':
    case 'RemoteSource':
    case 'TableWriter':
    case 'TableFinish':
      return has(node) ? node : undefined;
    default:
      return assertNever(node);
  }
}
