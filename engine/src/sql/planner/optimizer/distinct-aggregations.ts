// DISTINCT aggregate calls without a DISTINCT operator, so that the aggregation splits into partial
// and final steps like any other (Trino's SingleDistinctAggregationToGroupBy and
// MultipleDistinctAggregationToMarkDistinct do the same):
//
// - every call DISTINCT over the same inputs (arguments and FILTER mask): the distinct rows come
//   from an aggregation grouped by the keys and those inputs, and the calls run plainly over them:
//   count(DISTINCT x) GROUP BY k  =>  count(x) GROUP BY k over (GROUP BY k, x);
// - otherwise each set of inputs gets a MarkDistinct over the keys and the inputs, whose marker
//   (ANDed with the call's FILTER) becomes the call's mask. On a cluster the rows of a combination
//   meet in one task through a repartition on it, and the aggregation above splits as usual.
//
// A FILTER mask is one of the inputs: the first row of a (keys, arguments) combination with the
// mask TRUE is the one that counts, whatever rows with the mask FALSE or NULL came before it.

import { BOOLEAN } from '../../../types/types.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, AggregationCall, Assignment, MarkDistinctNode, PlanNode } from '../plan.js';
import type { PlanFactory } from '../plan-factory.js';
import { special, symbolRef, type Symbol } from '../row-expression.js';
import { rewriteBottomUp } from './rewrite-plan.js';

export function planDistinctAggregations(root: PlanNode, context: PlannerContext): PlanNode {
  return rewriteBottomUp(root, (node) => (node.kind === 'Aggregate' && node.step === 'single' && node.aggregations.some((a) => a.distinct) ? withoutDistinct(node, context.factory) : node));
}

function withoutDistinct(node: AggregateNode, factory: PlanFactory): PlanNode {
  const inputSets = new Map(node.aggregations.filter((a) => a.distinct).map((a) => [inputsKey(a), inputsOf(a)]));
  if (inputSets.size === 1 && node.aggregations.every((a) => a.distinct)) return overDistinctRows(node, [...inputSets.values()][0], factory);
  return overMarkedRows(node, inputSets, factory);
}

/** What a DISTINCT call's rows are distinct on besides the grouping keys: its arguments, then its mask. */
function inputsOf(call: AggregationCall): Symbol[] {
  return unique(call.mask === undefined ? call.arguments : [...call.arguments, call.mask]);
}

function inputsKey(call: AggregationCall): string {
  return inputsOf(call)
    .map((s) => s.id)
    .sort((a, b) => a - b)
    .join(',');
}

function unique(symbols: readonly Symbol[]): Symbol[] {
  return symbols.filter((s, i) => symbols.findIndex((t) => t.id === s.id) === i);
}

/** The calls, no longer DISTINCT, over the source's rows made distinct on the keys and `inputs`. */
function overDistinctRows(node: AggregateNode, inputs: Symbol[], factory: PlanFactory): AggregateNode {
  const distinctRows = factory.aggregate(node.source, unique([...node.groupingKeys, ...inputs]), []);
  return { ...node, source: distinctRows, aggregations: node.aggregations.map((a) => ({ ...a, distinct: false })) };
}

/** The calls, no longer DISTINCT, masked by a MarkDistinct per set of inputs. */
function overMarkedRows(node: AggregateNode, inputSets: Map<string, Symbol[]>, factory: PlanFactory): AggregateNode {
  let source = node.source;
  const markers = new Map<string, Symbol>();
  for (const [key, inputs] of inputSets) {
    const marker = factory.newSymbol('is_distinct', BOOLEAN);
    const marked: MarkDistinctNode = { kind: 'MarkDistinct', id: factory.nodeId(), source, marker, distinctSymbols: unique([...node.groupingKeys, ...inputs]), outputs: [...source.outputs, marker] };
    source = marked;
    markers.set(key, marker);
  }
  const masks: Assignment[] = [];
  const aggregations = node.aggregations.map((a): AggregationCall => {
    if (!a.distinct) return a;
    const marker = markers.get(inputsKey(a)) as Symbol;
    if (a.mask === undefined) return { ...a, distinct: false, mask: marker };
    const mask = factory.newSymbol('mask', BOOLEAN);
    masks.push({ symbol: mask, expression: special('and', BOOLEAN, symbolRef(marker), symbolRef(a.mask)) });
    return { ...a, distinct: false, mask };
  });
  return { ...node, source: factory.projectExtending(source, masks), aggregations };
}
