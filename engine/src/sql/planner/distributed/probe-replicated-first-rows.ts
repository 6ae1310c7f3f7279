// A probe-replicated mark join whose tasks send only the probe rows they marked TRUE
// (probe-replicated-true-marks.ts: EXISTS, IN in a WHERE) has nothing left to combine but the copies
// of one row that several tasks marked: every row that reaches the combining stage is TRUE. That
// stage then keeps the first row of each number (a MarkDistinct on the number and a Filter of its
// first rows) rather than aggregating: no max() of the mark codes, no arbitrary() per probe column,
// no groups built and written back out, and the tasks send no mark code. The mark is TRUE on every
// row kept. EXPLAIN: `MarkDistinct[distinct = [probe_row_…]]` over the repartition on the number.

import { BOOLEAN } from '../../../types/types.js';
import type { AggregateNode, Assignment, ExchangeNode, MarkDistinctNode, PlanNode, ProjectNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';
import { constant, symbolRef, type RowExpression } from '../row-expression.js';
import { rewriteBottomUp } from '../optimizer/rewrite-plan.js';

export function keepFirstProbeReplicatedTrueRows(root: PlanNode, context: PlannerContext): PlanNode {
  return rewriteBottomUp(root, (node) => (node.kind === 'Project' ? (firstRowsOf(node, context) ?? node) : node));
}

/**
 * `decoded` (the Project decoding a combined mark, over the combining aggregation, the repartition
 * on the number and the task's Project coding its mark over a Filter of its TRUE marks) as the first
 * row of each number with the mark TRUE; undefined for any other shape.
 */
function firstRowsOf(decoded: ProjectNode, context: PlannerContext): PlanNode | undefined {
  const combined = decoded.source;
  if (combined.kind !== 'Aggregate' || combined.groupingKeys.length !== 1) return undefined;
  const exchange = combined.source;
  if (exchange.kind !== 'Exchange' || exchange.type !== 'REPARTITION' || exchange.source.kind !== 'Project') return undefined;
  const coded = exchange.source;
  const trueRows = coded.source;
  if (trueRows.kind !== 'Filter' || trueRows.source.kind !== 'Join') return undefined;
  const join = trueRows.source;
  const taskMark = join.mark?.symbol;
  if (join.distribution !== 'PROBE_REPLICATED' || taskMark === undefined) return undefined;
  const predicate = trueRows.predicate;
  if (predicate.kind !== 'symbol' || predicate.symbol.id !== taskMark.id) return undefined;
  const rowId = combined.groupingKeys[0];
  if (!exchange.partitionKeys.every((k) => k.id === rowId.id)) return undefined;
  const carried = carriedColumns(combined);
  if (carried === undefined) return undefined;
  const assignments = decodedAssignments(decoded, combined, carried);
  if (assignments === undefined) return undefined;

  // The task sends its probe columns and the number, not the code.
  const kept = coded.assignments.filter((a) => a.symbol.id !== carried.code);
  const sent = context.factory.project(trueRows, kept);
  const repartitioned: ExchangeNode = { ...exchange, source: sent, outputs: sent.outputs };
  const first = context.factory.newSymbol('first_row', BOOLEAN);
  const marked: MarkDistinctNode = {
    kind: 'MarkDistinct',
    id: context.factory.nodeId(),
    source: repartitioned,
    marker: first,
    distinctSymbols: [rowId],
    outputs: [...repartitioned.outputs, first],
  };
  return context.factory.project(context.factory.filter(marked, symbolRef(first)), assignments);
}

/** The combining aggregation's calls: the code's max (its argument) and each arbitrary() output's argument. */
function carriedColumns(
  combined: AggregateNode,
): { code: number; combinedCode: number; argumentOf: Map<number, RowExpression> } | undefined {
  let code: number | undefined;
  let combinedCode: number | undefined;
  const argumentOf = new Map<number, RowExpression>();
  for (const call of combined.aggregations) {
    if (call.distinct || call.mask !== undefined || call.arguments.length !== 1) return undefined;
    const name = call.function.name;
    if (name === 'max' && code === undefined) {
      code = call.arguments[0].id;
      combinedCode = call.symbol.id;
    } else if (name === 'arbitrary') argumentOf.set(call.symbol.id, symbolRef(call.arguments[0]));
    else return undefined;
  }
  return code === undefined || combinedCode === undefined ? undefined : { code, combinedCode, argumentOf };
}

/** The decoding Project's assignments over the first rows: each carried column its argument, the mark TRUE. */
function decodedAssignments(
  decoded: ProjectNode,
  combined: AggregateNode,
  carried: { combinedCode: number; argumentOf: Map<number, RowExpression> },
): Assignment[] | undefined {
  const rowId = combined.groupingKeys[0];
  const assignments: Assignment[] = [];
  for (const a of decoded.assignments) {
    const e = a.expression;
    if (e.kind === 'symbol' && carried.argumentOf.has(e.symbol.id)) {
      assignments.push({ symbol: a.symbol, expression: carried.argumentOf.get(e.symbol.id)! });
    } else if (e.kind === 'symbol' && e.symbol.id === rowId.id) {
      assignments.push(a);
    } else if (e.kind === 'special' && e.form === 'switch' && readsOnly(e, carried.combinedCode)) {
      // The mark decoded from the combined code: TRUE, the only mark a kept row has.
      assignments.push({ symbol: a.symbol, expression: constant(true, BOOLEAN) });
    } else return undefined;
  }
  return assignments;
}

/** Whether every symbol `e` reads is `id`. */
function readsOnly(e: RowExpression, id: number): boolean {
  if (e.kind === 'symbol') return e.symbol.id === id;
  if (e.kind === 'constant') return true;
  if (e.kind === 'special' || e.kind === 'call') return e.args.every((x) => readsOnly(x, id));
  return false;
}
