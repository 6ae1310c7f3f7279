// What physical nodes declare about their rows, as DataFusion's ExecutionPlan does: how the rows of
// a node are distributed over the threads that run it (output distribution), how a node needs its
// input distributed (required distribution), and the order its rows come in (output ordering). The
// physical plan validator (physical-plan-validator.ts) checks that every requirement is met.

import type { PlanNode } from '../plan.js';
import { sources } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import type { LocalExchange, ParallelScan, PhysicalNode } from './physical-plan.js';

/**
 * SINGLE: one stream (the main thread); SPLITS: over the threads, by the splits each read (no key
 * together); HASH: over the threads, all rows of equal `keys` on one thread.
 */
export type Distribution = { kind: 'SINGLE' } | { kind: 'SPLITS' } | { kind: 'HASH'; keys: Symbol[] };

export const SINGLE: Distribution = { kind: 'SINGLE' };
const SPLITS: Distribution = { kind: 'SPLITS' };

/** The rows come sorted on these symbols, in this order (each ascending or not, nulls first or not). */
export type Ordering = { symbol: Symbol; ascending: boolean; nullsFirst: boolean }[];

/** Every physical node of the main thread outputs one stream: a parallel scan gathers its threads' rows into it. */
export function outputDistribution(physical: PhysicalNode): Distribution {
  if (physical.kind === 'ParallelHashBuild') return outputDistribution(physical.source);
  return physical.kind === 'ParallelScan' ? threadDistribution(physical, physical.node) : SINGLE;
}

/** How the rows of `node`, a logical node a parallel scan's threads run, are distributed where it outputs them. */
export function threadDistribution(p: ParallelScan, node: PlanNode): Distribution {
  // Rows exchanged above the node (a ROUND_ROBIN exchange is of a scan's splits, below its rows).
  const exchange = p.exchanges.find((e) => e.below === node && e.type !== 'ROUND_ROBIN');
  if (exchange !== undefined) return exchanged(exchange);
  // The threads read the scan's splits, each its own.
  if (node === p.scan) return p.exchanges.some((e) => e.below === node) ? SPLITS : SINGLE;
  const source = node.kind === 'Join' ? node.left : sources(node)[0];
  return source === undefined ? SINGLE : threadDistribution(p, source);
}

function exchanged(e: LocalExchange): Distribution {
  switch (e.type) {
    case 'ROUND_ROBIN':
      return SPLITS;
    case 'HASH':
      return { kind: 'HASH', keys: e.keys };
    case 'GATHER':
      return SINGLE;
  }
}

/** Whether rows distributed as `actual` meet `required`: one stream meets all; rows hashed on fewer of the keys meet HASH on more. */
export function satisfies(actual: Distribution, required: Distribution): boolean {
  if (actual.kind === 'SINGLE') return true;
  if (required.kind === 'SPLITS') return true;
  if (required.kind === 'SINGLE' || actual.kind === 'SPLITS') return false;
  const keys = new Set(required.keys.map((k) => k.id));
  return actual.keys.length > 0 && actual.keys.every((k) => keys.has(k.id));
}

/** The order `node`'s rows come in, as its logical plan promises (a sort's, kept by the nodes above that keep row order). */
export function logicalOrdering(node: PlanNode): Ordering {
  return orderingOf(node, (source) => logicalOrdering(source));
}

/**
 * The order a physical node's rows come in: its threads interleave theirs, so a parallel scan
 * promises none; a parallel sort's merge of its threads' sorted runs keeps their order.
 */
export function outputOrdering(physical: PhysicalNode): Ordering {
  if (physical.kind === 'ParallelSort') return physical.node.orderBy;
  if (physical.kind === 'ParallelHashBuild') return outputOrdering(physical.source);
  if (physical.kind !== 'Operator') return [];
  return orderingOf(physical.node, () => (physical.sources.length === 1 ? outputOrdering(physical.sources[0]) : []));
}

/** `node`'s ordering, given that of its (only) source. */
function orderingOf(node: PlanNode, sourceOrdering: (source: PlanNode) => Ordering): Ordering {
  switch (node.kind) {
    case 'Sort':
    case 'TopN':
      return node.orderBy;
    case 'Limit':
    case 'Filter':
    case 'EnforceSingleRow':
    case 'AssignUniqueId':
      return sourceOrdering(node.source);
    case 'Project': {
      // The leading sort keys the projection passes on as they are (renamed by their assignment).
      const kept: Ordering = [];
      for (const key of sourceOrdering(node.source)) {
        const assignment = node.assignments.find((a) => a.expression.kind === 'symbol' && a.expression.symbol.id === key.symbol.id);
        if (assignment === undefined) break;
        kept.push({ ...key, symbol: assignment.symbol });
      }
      return kept;
    }
    default:
      return [];
  }
}

/** Whether rows in `actual` order come in `required` order (it is a prefix of theirs). */
export function ordered(actual: Ordering, required: Ordering): boolean {
  return required.every(
    (r, i) =>
      actual[i] !== undefined &&
      actual[i].symbol.id === r.symbol.id &&
      actual[i].ascending === r.ascending &&
      actual[i].nullsFirst === r.nullsFirst,
  );
}
