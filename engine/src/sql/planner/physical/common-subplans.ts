// Identical aggregations computed once on a single node. A WITH query referenced more than once is
// planned anew at each reference (inlined, as Trino does), so TPC-H q15's revenue0 scans and
// aggregates lineitem twice. After the optimizer, copies that are still the same plan up to their
// symbols and node ids (the same tables, predicates, expressions, in the same column order) run
// once: one copy (the producer) is buffered by a Spool and replayed to each copy's consumer, as
// DuckDB materializes a CTE it references more than once. The rows are those of the inlined plan.
//
// A copy is left alone when it is volatile (a nondeterministic function, TABLESAMPLE, a recursion's
// work table, unique ids, writes), reads a remote source or splits assigned as they come (each
// copy's scan has its own, on a cluster), refers to a symbol from outside (a correlated binding), or, for
// the producer, reads a dynamic filter: a filter made by a join above one copy must not thin the
// rows of another (a consumer whose copy read one simply does without it; the join still filters).

import { isDeterministicFunction } from '../../../functions/scalar/registry.js';
import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import { stringifyDeep } from '../deep-json.js';
import { type PlanNode, sources, type TableScanNode } from '../plan.js';

/** Named after PostgreSQL's and DuckDB's CTE MATERIALIZED (Presto's is the cte_materialization_strategy property). */
export const MATERIALIZE_COMMON_TABLE_EXPRESSIONS_PROPERTY: PropertyMetadata = {
  name: 'materialize_common_table_expressions',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether identical deterministic aggregations in a query on a single node (a WITH query referenced more than once) run once, their rows buffered and replayed to each reference, rather than once per reference',
};

export function materializeCommonTableExpressions(session: Session): boolean {
  return booleanSessionProperty(session, MATERIALIZE_COMMON_TABLE_EXPRESSIONS_PROPERTY);
}

/** Each copy's root, mapped to the root of the copy that runs for all of them (itself included). */
export type CommonSubplans = ReadonlyMap<PlanNode, PlanNode>;

/**
 * The aggregations under `roots` (a plan, or the fragments of one) that have identical copies, topmost
 * first (one inside another shared one is not looked at).
 */
export function findCommonSubplans(roots: readonly PlanNode[], shareableScan: (scan: TableScanNode) => boolean): CommonSubplans {
  const byShape = new Map<string, Shaped[]>();
  const candidates = (node: PlanNode): void => {
    if (node.kind === 'Aggregate' && node.step !== 'partial') {
      const shaped = shapeOf(node, shareableScan);
      if (shaped !== undefined) byShape.set(shaped.shape, [...(byShape.get(shaped.shape) ?? []), shaped]);
    }
    sources(node).forEach(candidates);
  };
  roots.forEach(candidates);
  const shared = new Map<PlanNode, PlanNode>();
  const within = new Set<PlanNode>();
  const markWithin = (node: PlanNode): void => {
    within.add(node);
    sources(node).forEach(markWithin);
  };
  // Topmost first: candidates were met in preorder, so an outer copy's group comes before inner ones.
  for (const copies of byShape.values()) {
    const outside = copies.filter((c) => !within.has(c.node));
    const producer = outside.find((c) => !c.readsDynamicFilter);
    if (outside.length < 2 || producer === undefined) continue;
    for (const copy of outside) {
      shared.set(copy.node, producer.node);
      markWithin(copy.node);
    }
  }
  return shared;
}

export interface Shaped {
  node: PlanNode;
  /** The subtree as JSON with node ids left out and symbols numbered in order of appearance. */
  shape: string;
  readsDynamicFilter: boolean;
}

/** Symbols are plain {id, name, type} objects, plan nodes have kind, id and outputs. */
function isSymbol(v: Record<string, unknown>): boolean {
  return typeof v.id === 'number' && typeof v.name === 'string' && typeof v.type === 'object' && Object.keys(v).length === 3;
}

function isPlanNode(v: Record<string, unknown>): boolean {
  return typeof v.kind === 'string' && typeof v.id === 'number' && Array.isArray(v.outputs);
}

const VOLATILE_NODES = new Set(['AssignUniqueId', 'TableWriter', 'TableFinish', 'RemoteSource', 'Exchange']);

/** The subtree's shape, or undefined when it may not be shared (volatile, or correlated). */
export function shapeOf(root: PlanNode, shareableScan: (scan: TableScanNode) => boolean): Shaped | undefined {
  const numbers = new Map<number, number>();
  const defined = new Set<number>();
  let volatile = false;
  let readsDynamicFilter = false;
  const shape = stringifyDeep(root, (_key, value) => {
    // Every string is tagged by its first character, so that no value reads as another or as a symbol.
    if (typeof value === 'string') return `'${value}`;
    if (typeof value === 'bigint') return `n${value}`;
    // NaN, ±Infinity and -0 would print as null or 0.
    if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return `f${Object.is(value, -0) ? '-0' : value}`;
    if (value instanceof Uint8Array) return `b${Buffer.from(value).toString('base64')}`;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const object = value as Record<string, unknown>;
    if (isSymbol(object)) {
      const id = object.id as number;
      if (!numbers.has(id)) numbers.set(id, numbers.size);
      return `$${numbers.get(id)}:${JSON.stringify(object.type)}`;
    }
    if (isPlanNode(object)) {
      const node = object as unknown as PlanNode;
      for (const s of node.outputs) defined.add(s.id);
      if (VOLATILE_NODES.has(node.kind)) volatile = true;
      if (node.kind === 'Values' && node.workTable !== undefined) volatile = true;
      if (node.kind === 'TableScan' && (node.splitSampleRatio !== undefined || !shareableScan(node))) volatile = true;
      const { id: _id, ...rest } = object;
      if (node.kind === 'TableScan' && node.dynamicFilters !== undefined && node.dynamicFilters.length > 0) {
        readsDynamicFilter = true;
        delete rest.dynamicFilters;
      }
      return rest;
    }
    if (object.kind === 'call' && typeof object.name === 'string' && !isDeterministicFunction(object.name)) volatile = true;
    return value;
  });
  const correlated = [...numbers.keys()].some((id) => !defined.has(id));
  return volatile || correlated ? undefined : { node: root, shape, readsDynamicFilter };
}
