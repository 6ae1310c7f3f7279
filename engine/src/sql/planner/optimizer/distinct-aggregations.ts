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
//
// The session property distinct_aggregations_strategy (Trino's) chooses: AUTOMATIC and
// MARK_DISTINCT as above; SINGLE_STEP leaves the DISTINCT calls to one aggregation step that sees
// every row of its groups (unlike Trino, which pre-groups a single set of inputs whatever it says).

import type { PropertyMetadata } from '../../../spi/properties.js';
import { BOOLEAN } from '../../../types/types.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, AggregationCall, Assignment, MarkDistinctNode, PlanNode } from '../plan.js';
import type { PlanFactory } from '../plan-factory.js';
import { special, symbolRef, type Symbol } from '../row-expression.js';
import { rewriteBottomUp } from './rewrite-plan.js';

const STRATEGIES = ['AUTOMATIC', 'MARK_DISTINCT', 'SINGLE_STEP'];

export const DISTINCT_AGGREGATIONS_STRATEGY_PROPERTY: PropertyMetadata = {
  name: 'distinct_aggregations_strategy',
  type: { kind: 'varchar' },
  defaultValue: 'AUTOMATIC',
  description:
    'How DISTINCT aggregate calls run: AUTOMATIC (over rows grouped by the keys and the distinct arguments when every call is DISTINCT on the same ones, else as MARK_DISTINCT), MARK_DISTINCT (each call masked by a MarkDistinct on the keys and its arguments, so that the aggregation splits into partial and final steps) or SINGLE_STEP (one aggregation step that sees every row of its groups)',
  validate: (v) => {
    if (!STRATEGIES.includes(String(v).toUpperCase())) throw new Error(`must be one of ${STRATEGIES.join(', ')}`);
  },
};

export function planDistinctAggregations(root: PlanNode, context: PlannerContext): PlanNode {
  const strategy = context.session.properties.get(DISTINCT_AGGREGATIONS_STRATEGY_PROPERTY.name)?.toUpperCase() ?? 'AUTOMATIC';
  if (strategy === 'SINGLE_STEP') return root;
  const factory = context.factory;
  return rewriteBottomUp(root, (node) =>
    node.kind === 'Aggregate' && node.step === 'single' && node.aggregations.some((a) => a.distinct)
      ? withoutDistinct(node, factory, strategy)
      : node,
  );
}

function withoutDistinct(node: AggregateNode, factory: PlanFactory, strategy: string): PlanNode {
  const inputSets = new Map(node.aggregations.filter((a) => a.distinct).map((a) => [inputsKey(a), inputsOf(a)]));
  if (strategy === 'AUTOMATIC' && inputSets.size === 1 && node.aggregations.every((a) => a.distinct))
    return overDistinctRows(node, [...inputSets.values()][0], factory);
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
    const marked: MarkDistinctNode = {
      kind: 'MarkDistinct',
      id: factory.nodeId(),
      source,
      marker,
      distinctSymbols: unique([...node.groupingKeys, ...inputs]),
      outputs: [...source.outputs, marker],
    };
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
