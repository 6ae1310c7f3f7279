// Join ordering. A region of inner joins is flattened into its inputs and conditions, then rebuilt
// left-deep: from a small filtered input (a region picked by name; of several, the one farthest from
// the biggest input, see join-chain-start.ts) or else the first one written, then in the written order
// among inputs connected to what is joined so far (small filtered ones a key reaches first, and with
// each input the small filtered ones only it reaches), so that no cross join happens while a connected
// input remains and selective dimensions shrink the rows early; each join hashes its smaller side. Outer joins put the smaller side on
// the build side by flipping LEFT and RIGHT.

import type { PlannerContext } from '../planner-context.js';
import { splitEquiConjuncts } from '../join-predicates.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { referencedSymbols, symbolRef, type RowExpression, type Symbol } from '../row-expression.js';
import { BOOLEAN } from '../../../types/types.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import { estimateRows } from './estimate-rows.js';
import { fewerRowsNext, JOIN_CHAIN_FEWER_ROWS_NEXT_PROPERTY } from './join-chain-next.js';
import { biggestInput, farthestSelectiveInput, JOIN_CHAIN_FAR_START_PROPERTY, joinHops } from './join-chain-start.js';
import { mapSources } from './rewrite-plan.js';

export function reorderJoins(root: PlanNode, context: PlannerContext): PlanNode {
  const visit = (node: PlanNode): PlanNode => {
    if (isReorderable(node)) return rebuildRegion(node, context, visit);
    const rewritten = mapSources(node, visit);
    if (rewritten.kind === 'Join' && rewritten.nearest === undefined && (rewritten.type === 'left' || rewritten.type === 'right'))
      return flipOuterJoin(rewritten, context);
    return rewritten;
  };
  return visit(root);
}

/** An inner join whose sides may be reordered (a NEAREST join's sides have roles). */
function isReorderable(node: PlanNode): node is JoinNode {
  return node.kind === 'Join' && node.type === 'inner' && node.nearest === undefined;
}

function rebuildRegion(region: JoinNode, context: PlannerContext, visit: (n: PlanNode) => PlanNode): PlanNode {
  const factory = context.factory;
  const inputs: PlanNode[] = [];
  const conditions: RowExpression[] = [];
  const flatten = (node: PlanNode) => {
    if (isReorderable(node)) {
      flatten(node.left);
      flatten(node.right);
      for (const c of node.criteria)
        conditions.push({ kind: 'call', name: 'equal', args: [symbolRef(c.left), symbolRef(c.right)], type: BOOLEAN });
      conditions.push(...extractConjuncts(node.filter));
    } else {
      inputs.push(visit(node));
    }
  };
  flatten(region);

  // Without column statistics a join's output size is unknown, so keep the written order (TPC-H
  // and most hand-written queries list tables in a sensible order) and only step over an input
  // that would make a cross join, as Trino's ELIMINATE_CROSS_JOINS does. Each join then hashes
  // the smaller side.
  const remaining = [...inputs];
  const selective = new Map(inputs.map((n) => [n, isSelectiveDimension(n, context)]));
  const classes = equivalenceClasses(conditions);
  let pending = [...conditions, ...impliedEqualities(classes, conditions)];
  // Each condition's symbols and each symbol's input, found once: a region of n inputs takes n steps
  // over the remaining inputs and conditions (select5 joins dozens of tables).
  const referenced = new Map<RowExpression, number[]>();
  const refsOf = (e: RowExpression): number[] => {
    let refs = referenced.get(e);
    if (refs === undefined) {
      refs = [...referencedSymbols(e).keys()];
      referenced.set(e, refs);
    }
    return refs;
  };
  const inputOf = new Map(inputs.flatMap((n) => n.outputs.map((s) => [s.id, n] as const)));
  const equalities = equalityConditions(pending);
  const farStart = booleanSessionProperty(context.session, JOIN_CHAIN_FAR_START_PROPERTY);
  const fewerRows = booleanSessionProperty(context.session, JOIN_CHAIN_FEWER_ROWS_NEXT_PROPERTY);
  const biggest = biggestInput(inputs, context);
  const start = farStart
    ? farthestSelectiveInput(inputs, selective, joinHops(inputs, equalities, refsOf, inputOf, context))
    : (remaining.find((n) => selective.get(n) === true) ?? remaining[0]);
  remaining.splice(remaining.indexOf(start), 1);
  let current = start;
  const joined = new Set([start]);
  const covered = (e: RowExpression, ids: Set<number>) => refsOf(e).every((id) => ids.has(id));
  /** `soFar` and `next` joined on the pending conditions they cover, the smaller side hashed. */
  const joinPair = (soFar: PlanNode, next: PlanNode): PlanNode => {
    const ids = new Set([...soFar.outputs, ...next.outputs].map((s) => s.id));
    const applicable = withoutRedundantEqualities(
      pending.filter((c) => covered(c, ids)),
      classes,
      new Set(next.outputs.map((s) => s.id)),
    );
    pending = pending.filter((c) => !covered(c, ids));
    const [probe, build] = estimateRows(next, context) > estimateRows(soFar, context) ? [next, soFar] : [soFar, next];
    const split = splitEquiConjuncts(applicable, probe.outputs, build.outputs, (n, t) => factory.newSymbol(n, t));
    const left = factory.projectExtending(probe, split.leftAssignments);
    const right = factory.projectExtending(build, split.rightAssignments);
    return factory.join('inner', left, right, split.criteria, combineConjuncts(split.residual));
  };

  while (remaining.length > 0) {
    const connected = connectedInputs(pending, refsOf, inputOf, joined);
    const connects = (candidate: PlanNode) => connected.has(candidate);
    // A small filtered input goes first only when a key joins it: reached through a filter alone (q07's
    // second nation, through the OR of the pair of nations) it would pull in its side of the query early.
    const keyed = farStart ? connectedInputs(equalityConditions(pending), refsOf, inputOf, joined) : connected;
    const connectedNext = () =>
      fewerRows
        ? fewerRowsNext(
            current,
            remaining.filter(connects),
            biggest,
            pending.map(symbolEquality).filter((p) => p !== undefined),
            context,
          )
        : remaining.find(connects);
    const next = remaining.find((c) => keyed.has(c) && selective.get(c) === true) ?? connectedNext() ?? remaining[0];
    remaining.splice(remaining.indexOf(next), 1);
    joined.add(next);
    let joining = next;
    // A small filtered input that only this input's keys reach joins it first (q07's supplier nation):
    // it comes to the chain narrowed, a smaller build side whose dynamic filter prunes the chain's scan.
    if (farStart) {
      const keyedToNext = connectedInputs(equalityConditions(pending), refsOf, inputOf, new Set([next]));
      for (const dimension of remaining.filter((c) => keyedToNext.has(c) && selective.get(c) === true)) {
        remaining.splice(remaining.indexOf(dimension), 1);
        joined.add(dimension);
        joining = joinPair(joining, dimension);
      }
    }
    current = joinPair(current, joining);
  }
  // Conditions over symbols produced outside the region (correlation) stay as a filter on top.
  const rest = combineConjuncts(pending);
  if (rest) current = factory.filter(current, rest);
  return factory.restrict(current, region.outputs);
}

/**
 * The inputs not joined yet that a pending condition connects to the joined ones: it reads a joined
 * input, and besides joined ones this input only (a symbol of no input, a correlation, connects nothing).
 */
function connectedInputs(
  pending: readonly RowExpression[],
  refsOf: (e: RowExpression) => number[],
  inputOf: ReadonlyMap<number, PlanNode>,
  joined: ReadonlySet<PlanNode>,
): Set<PlanNode> {
  const connected = new Set<PlanNode>();
  for (const condition of pending) {
    let other: PlanNode | undefined;
    let readsJoined = false;
    let connects = true;
    for (const id of refsOf(condition)) {
      const input = inputOf.get(id);
      if (input !== undefined && joined.has(input)) readsJoined = true;
      else if (input !== undefined && (other === undefined || other === input)) other = input;
      else {
        connects = false;
        break;
      }
    }
    if (connects && readsJoined && other !== undefined) connected.add(other);
  }
  return connected;
}

/** Symbols that `a = b` conditions make equal, as class ids by symbol id (union-find). */
function equivalenceClasses(conditions: RowExpression[]): Map<number, number> {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    const p = parent.get(id) ?? id;
    if (p === id) return id;
    const root = find(p);
    parent.set(id, root);
    return root;
  };
  for (const c of conditions) {
    const pair = symbolEquality(c);
    if (!pair) continue;
    for (const s of pair) if (!parent.has(s.id)) parent.set(s.id, s.id);
    parent.set(find(pair[0].id), find(pair[1].id));
  }
  const classes = new Map<number, number>();
  for (const id of parent.keys()) classes.set(id, find(id));
  return classes;
}

function equalityConditions(conditions: readonly RowExpression[]): RowExpression[] {
  return conditions.filter((c) => symbolEquality(c) !== undefined);
}

function symbolEquality(c: RowExpression): [Symbol, Symbol] | undefined {
  if (c.kind !== 'call' || c.name !== 'equal') return undefined;
  const [a, b] = c.args;
  return a.kind === 'symbol' && b.kind === 'symbol' ? [a.symbol, b.symbol] : undefined;
}

/**
 * Equalities that follow from the written ones (a = b and b = c give a = c), so that inputs equal
 * through a third one count as connected: in Q5 customer joins nation directly instead of
 * through supplier, which would multiply customers by suppliers.
 */
function impliedEqualities(classes: Map<number, number>, conditions: RowExpression[]): RowExpression[] {
  const members = new Map<number, Symbol[]>();
  for (const c of conditions) {
    for (const s of symbolEquality(c) ?? []) {
      const list = members.get(classes.get(s.id)!) ?? [];
      if (!list.some((m) => m.id === s.id)) list.push(s);
      members.set(classes.get(s.id)!, list);
    }
  }
  const written = new Set(
    conditions
      .map((c) => symbolEquality(c))
      .filter((p) => p !== undefined)
      .map(([a, b]) => pairKey(a, b)),
  );
  const implied: RowExpression[] = [];
  for (const list of members.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (written.has(pairKey(list[i], list[j]))) continue;
        implied.push({ kind: 'call', name: 'equal', args: [symbolRef(list[i]), symbolRef(list[j])], type: BOOLEAN });
      }
    }
  }
  return implied;
}

function pairKey(a: Symbol, b: Symbol): string {
  return a.id < b.id ? `${a.id}=${b.id}` : `${b.id}=${a.id}`;
}

/** Of equalities within one class, one per symbol of the joining input is enough. */
function withoutRedundantEqualities(conditions: RowExpression[], classes: Map<number, number>, nextIds: Set<number>): RowExpression[] {
  const equated = new Set<number>();
  return conditions.filter((c) => {
    const pair = symbolEquality(c);
    if (!pair) return true;
    const side = pair.find((s) => nextIds.has(s.id));
    const other = pair.find((s) => !nextIds.has(s.id));
    if (!side || !other || classes.get(side.id) !== classes.get(other.id)) return true;
    if (equated.has(side.id)) return false;
    equated.add(side.id);
    return true;
  });
}

/** Rows below which a filtered input joins early: it can only shrink what it joins with by its key. */
const SMALL_FILTERED_ROWS = 1000;

/** A small input narrowed by a filter (a nation or region picked by name): joining it first keeps intermediate results small. */
function isSelectiveDimension(node: PlanNode, context: PlannerContext): boolean {
  let cursor = node;
  while (cursor.kind === 'Project') cursor = cursor.source;
  return cursor.kind === 'Filter' && estimateRows(node, context) <= SMALL_FILTERED_ROWS;
}

function flipOuterJoin(join: JoinNode, context: PlannerContext): PlanNode {
  const probe = estimateRows(join.left, context);
  const build = estimateRows(join.right, context);
  if (build <= probe * 2) return join;
  const factory = context.factory;
  const flipped = factory.join(
    join.type === 'left' ? 'right' : 'left',
    join.right,
    join.left,
    join.criteria.map((c) => ({ left: c.right, right: c.left })),
    join.filter,
  );
  return factory.restrict(flipped, join.outputs);
}
