// A semi or anti join (EXISTS, NOT EXISTS, IN, NOT IN: a mark join) across a cluster whose probe
// side is small and whose build side is big and spread over tasks: rather than repartitioning both
// sides on the keys (every build key crossing the network) or replicating the big build side, the
// probe rows are numbered (AssignUniqueId, in the tasks they are in) and replicated to every task of
// the build side's stage.
// There each task marks them against its part of the build rows (as ParallelMarkJoin does inside
// one node: hash the small side, stream the big one past it), every probe row comes out with its
// mark, and the rows are repartitioned on their number, where one aggregation combines the marks
// of each row. A mark is the three-valued OR over the build rows (TRUE when one matches, else NULL
// when one might, else FALSE); the OR over the tasks' parts is the OR over all of them, so the
// combined mark is TRUE if a task said TRUE, else NULL if one said NULL, else FALSE. The number
// keeps two equal probe rows apart: each comes out once. EXPLAIN: `distribution = PROBE_REPLICATED`.
//
// The marks are combined as the max of a code (2 TRUE, 1 NULL, 0 FALSE), decoded after. The
// combining aggregation groups by the number alone (an integer key: the group-by table's fast path)
// and carries the probe row's columns as arbitrary(), as every row of one number holds the same
// values: grouping by them too (strings among them) took q4's combine twice the CPU.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import { BIGINT, BOOLEAN, INTEGER } from '../../../types/types.js';
import { isComparable } from '../../../functions/scalar/map-comparison.js';
import { resolveAggregateHandle } from '../function-handles.js';
import { extractConjuncts, identityAssignments } from '../plan-factory.js';
import type { PlannerContext } from '../planner-context.js';
import type { AssignUniqueIdNode, ExchangeNode, FilterNode, JoinNode, PlanNode } from '../plan.js';
import { constant, special, symbolRef, type RowExpression, type Symbol } from '../row-expression.js';
import { estimateRows } from '../optimizer/estimate-rows.js';
import { PROBE_FIRST_MAX_ROWS } from '../physical/adaptive-thresholds.js';

export const DISTRIBUTED_MARK_JOIN_PROPERTY: PropertyMetadata = {
  name: 'distributed_mark_join',
  type: { kind: 'boolean' },
  defaultValue: true,
  description: `Whether a semi or anti join (EXISTS, IN) on a cluster whose probe side is estimated small (at most ${PROBE_FIRST_MAX_ROWS} rows, and fewer than its build side's over the nodes) under join_distribution_type AUTOMATIC replicates its probe rows to the build side's tasks, which mark them, rather than moving the build side`,
};

/** Whether `node` (its sides placed: the build side spread over tasks or not) joins as a probe-replicated mark join. */
export function replicatesProbeSide(node: JoinNode, buildSpread: boolean, context: PlannerContext, nodes: number): boolean {
  if (node.type !== 'mark' || node.mark === undefined || node.criteria.length === 0 || node.nearest !== undefined || !buildSpread)
    return false;
  // On one node a replicated build side stays in the task, where its threads mark the probe side (ParallelMarkJoin).
  if (nodes <= 1 || !booleanSessionProperty(context.session, DISTRIBUTED_MARK_JOIN_PROPERTY)) return false;
  // A join distribution asked for (BROADCAST, PARTITIONED) is kept.
  if ((context.session.properties.get('join_distribution_type')?.toUpperCase() ?? 'AUTOMATIC') !== 'AUTOMATIC') return false;
  // The probe side's columns cross two exchanges and the combining aggregation: types known to do both.
  if (!node.outputs.every((s) => isComparable(s.type))) return false;
  const probeRows = estimateRows(node.left, context);
  const buildRows = estimateRows(node.right, context);
  // The probe rows cross the network once per node and once more to be combined; partitioning moves both sides once.
  return probeRows <= PROBE_FIRST_MAX_ROWS && probeRows * (nodes + 1) < buildRows;
}

/**
 * The join as a probe-replicated mark join: `probe` (in the tasks it is in, each numbering its rows
 * apart from the others': exec/operators/assign-unique-id.ts) numbered and replicated to the
 * tasks of `build`, then the marks combined per probe row; the same outputs as `node`.
 */
export function probeReplicatedMarkJoin(node: JoinNode, probe: PlanNode, build: PlanNode, context: PlannerContext): PlanNode {
  const factory = context.factory;
  const mark = node.mark!;
  const exchange = (type: ExchangeNode['type'], source: PlanNode, keys: Symbol[]): ExchangeNode => ({
    kind: 'Exchange',
    id: factory.nodeId(),
    type,
    source,
    partitionKeys: keys,
    outputs: source.outputs,
  });
  const rowId = factory.newSymbol('probe_row', BIGINT);
  const numbered: AssignUniqueIdNode = {
    kind: 'AssignUniqueId',
    id: factory.nodeId(),
    source: probe,
    idSymbol: rowId,
    outputs: [...probe.outputs, rowId],
  };
  const taskMark = factory.newSymbol(mark.symbol.name, BOOLEAN);
  const probeOutputs = node.outputs.filter((s) => s.id !== mark.symbol.id);
  const marked: JoinNode = {
    ...node,
    id: factory.nodeId(),
    left: exchange('REPLICATE', numbered, []),
    right: build,
    outputs: [...probeOutputs, rowId, taskMark],
    mark: { ...mark, symbol: taskMark },
    distribution: 'PROBE_REPLICATED',
    dynamicFilters: undefined,
  };
  const code = factory.newSymbol('mark_code', INTEGER);
  const isMark = special('is_null', BOOLEAN, symbolRef(taskMark));
  const coded = factory.project(marked, [
    ...identityAssignments([...probeOutputs, rowId]),
    { symbol: code, expression: special('switch', INTEGER, symbolRef(taskMark), markCode(2), isMark, markCode(1), markCode(0)) },
  ]);
  const combinedCode = factory.newSymbol('mark_code', INTEGER);
  const carried = new Map(probeOutputs.map((s) => [s.id, factory.newSymbol(s.name, s.type)]));
  const combined = factory.aggregate(
    exchange('REPARTITION', coded, [rowId]),
    [rowId],
    [
      { symbol: combinedCode, function: resolveAggregateHandle('max', [INTEGER]), arguments: [code], distinct: false },
      ...probeOutputs.map((s) => ({
        symbol: carried.get(s.id)!,
        function: resolveAggregateHandle('arbitrary', [s.type]),
        arguments: [s],
        distinct: false,
      })),
    ],
  );
  const codeIs = (value: number): RowExpression => special('in', BOOLEAN, symbolRef(combinedCode), markCode(value));
  const combinedMark = special(
    'switch',
    BOOLEAN,
    codeIs(2),
    constant(true, BOOLEAN),
    codeIs(1),
    constant(null, BOOLEAN),
    constant(false, BOOLEAN),
  );
  return factory.project(
    combined,
    node.outputs.map((s) => ({ symbol: s, expression: s.id === mark.symbol.id ? combinedMark : symbolRef(carried.get(s.id)!) })),
  );
}

/**
 * The task-side joins of the probe-replicated mark joins under `filter` whose combined marks it keeps
 * only the TRUE rows of (EXISTS, IN in a WHERE). A probe row whose combined mark is TRUE has a TRUE
 * mark from some task: only build rows whose key some probe row has can make one (optimizer/dynamic-filters),
 * and only the rows a task marked TRUE are needed from it (probe-replicated-true-marks).
 */
export function probeReplicatedJoinsKeptTrue(filter: FilterNode): JoinNode[] {
  return extractConjuncts(filter.predicate).flatMap((p) => {
    const join = p.kind === 'symbol' ? probeReplicatedJoinOfMark(filter.source, p.symbol.id) : undefined;
    return join === undefined ? [] : [join];
  });
}

/** The task-side mark join of the probe-replicated mark join whose combined mark `node` (the decoding Project it ends with) assigns as `markId`. */
function probeReplicatedJoinOfMark(node: PlanNode, markId: number): JoinNode | undefined {
  const decoded = node.kind === 'Project' ? node.assignments.find((a) => a.symbol.id === markId) : undefined;
  if (node.kind !== 'Project' || decoded?.expression.kind !== 'special' || decoded.expression.form !== 'switch') return undefined;
  const combined = node.source;
  if (combined.kind !== 'Aggregate') return undefined;
  const exchange = combined.source;
  if (exchange.kind !== 'Exchange' || exchange.type !== 'REPARTITION' || exchange.source.kind !== 'Project') return undefined;
  // The task's rows may be filtered to its TRUE marks already.
  const below = exchange.source.source;
  const join = below.kind === 'Filter' ? below.source : below;
  return join.kind === 'Join' && join.type === 'mark' && join.distribution === 'PROBE_REPLICATED' ? join : undefined;
}

function markCode(value: number): RowExpression {
  return constant(value, INTEGER);
}
