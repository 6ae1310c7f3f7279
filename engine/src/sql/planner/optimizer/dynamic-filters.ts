// Dynamic filtering (Trino's, see its admin/dynamic-filtering page): a join whose probe rows
// without a matching build key are dropped — inner and right joins, and semi joins whose mark
// is required TRUE — makes a filter of each build key's values, and the scan on its probe side
// that produces the probe key gets it: once the build is complete, the scan skips the row groups
// and pages, and drops the rows, whose key no build row has (exec/dynamic-filters). The key is
// followed down through Filters, identity Projects, the non-null-supplying sides of joins and
// grouping keys of aggregations (a group whose key has no match goes as a whole), and through
// repartitioning and gathering exchanges (every row of the scan reaches one of the join's tasks):
// such a filter is remote, its join and scan in different fragments, and the coordinator unions
// its domain over the join's tasks and sends it to the scan's (coordinator/scheduler/remote-dynamic-filters.ts).
// A mark join that reads its probe side first (a small one, exec/operators/mark-join-probe-first) also
// filters the other way (ENABLE_SEMI_JOIN_PROBE_KEY_FILTERING): a build row whose key no probe row has
// marks nothing, so the probe keys' values filter a scan on its build side in the same fragment (TPC-H
// q4: one quarter's orders filter lineitem, whose dates are then decoded only for the rows that can
// match). That holds for EXISTS-style marks however they are used (NOT EXISTS too, q21: a mark is TRUE
// when an equal-keyed build row passes the join's filter, else FALSE), and for IN's null-aware marks
// when only TRUE ones are kept (their NULL depends on every build row). NULL keys match nothing either
// way. On a cluster such a join may be probe-replicated (distributed/probe-replicated-mark-join): every
// probe row reaches each task of the build side's stage, so there too the probe keys filter the task's
// part of the build side.
// Keys of different types (a coercion between them) or of types whose values do not compare as
// stored get no filter (key-domain.ts).

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import { SHORT_DECIMAL_PRECISION, typesEqual, type SqlType } from '../../../types/types.js';
import { extractConjuncts } from '../plan-factory.js';
import type { PlannerContext } from '../planner-context.js';
import type { DynamicFilterAssignment, JoinNode, PlanNode, ProbeKeyFilterAssignment, ScanDynamicFilter } from '../plan.js';
import { probeFirstShape } from '../physical/probe-first-shape.js';
import { probeReplicatedJoinsKeptTrue } from '../distributed/probe-replicated-mark-join.js';
import { mapSources, rewriteBottomUp } from './rewrite-plan.js';

export const ENABLE_DYNAMIC_FILTERING_PROPERTY: PropertyMetadata = {
  name: 'enable_dynamic_filtering',
  type: { kind: 'boolean' },
  defaultValue: true,
  description: 'Whether a join filters the table scan of its probe side by the key values of its completed build side (dynamic filtering)',
};

export const ENABLE_SEMI_JOIN_PROBE_KEY_FILTERING_PROPERTY: PropertyMetadata = {
  name: 'enable_semi_join_probe_key_filtering',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether a semi join (EXISTS, IN) that reads its small probe side first filters the table scan of its subquery side by the probe key values (a dynamic filter the other way)',
};

export function assignDynamicFilters(root: PlanNode, context: PlannerContext): PlanNode {
  if (!booleanSessionProperty(context.session, ENABLE_DYNAMIC_FILTERING_PROPERTY)) return root;
  const probeKeyFiltering = booleanSessionProperty(context.session, ENABLE_SEMI_JOIN_PROBE_KEY_FILTERING_PROPERTY);
  const joins = new Map<number, DynamicFilterAssignment[]>();
  const probeKeyJoins = new Map<number, ProbeKeyFilterAssignment[]>();
  const scans = new Map<number, ScanDynamicFilter[]>();
  let next = 0;
  /** Mark joins under a Filter keeping only their TRUE marks, found before the joins (the walk goes down). */
  const filtering = new Set<number>();
  const visit = (node: PlanNode): PlanNode => {
    const semiJoin = filteringSemiJoin(node);
    if (semiJoin !== undefined) filtering.add(semiJoin.id);
    const join = semiJoin ?? (node.kind === 'Join' && (node.type === 'inner' || node.type === 'right') ? node : undefined);
    // A probe-replicated join's task sees a part of the build rows: a probe key unmatched there may match in another task.
    const forward = join?.distribution === 'PROBE_REPLICATED' ? [] : (join?.criteria ?? []);
    for (const c of forward) {
      if (!typesEqual(c.left.type, c.right.type) || !filterableKeyType(c.left.type)) continue;
      const target = scanColumn(join!.left, c.left.id);
      if (target === undefined) continue;
      const id = `df_${++next}`;
      const remote = target.remote ? { remote: true } : {};
      addTo(joins, join!.id, { id, build: c.right, ...remote });
      addTo(scans, target.scan, { id, column: target.column, ...remote });
    }
    const markJoin = node.kind === 'Join' && (node.mark?.nullAware === false || filtering.has(node.id)) ? node : undefined;
    if (markJoin !== undefined && probeKeyFiltering && probeFirstShape(markJoin)) {
      for (const c of markJoin.criteria) {
        if (!typesEqual(c.left.type, c.right.type) || !filterableKeyType(c.left.type)) continue;
        // Only a scan in the join's task: its probe side is read there before the scan opens its splits.
        const target = scanColumn(markJoin.right, c.right.id);
        if (target === undefined || target.remote) continue;
        const id = `df_${++next}`;
        addTo(probeKeyJoins, markJoin.id, { id, probe: c.left });
        addTo(scans, target.scan, { id, column: target.column });
      }
    }
    return mapSources(node, visit);
  };
  visit(root);
  if (joins.size === 0 && probeKeyJoins.size === 0) return root;
  return rewriteBottomUp(root, (node) => {
    if (node.kind === 'Join' && (joins.has(node.id) || probeKeyJoins.has(node.id))) {
      const forward = joins.has(node.id) ? { dynamicFilters: joins.get(node.id) } : {};
      const reverse = probeKeyJoins.has(node.id) ? { probeKeyFilters: probeKeyJoins.get(node.id) } : {};
      return { ...node, ...forward, ...reverse };
    }
    if (node.kind === 'TableScan' && scans.has(node.id)) return { ...node, dynamicFilters: scans.get(node.id) };
    return node;
  });
}

/**
 * The mark join under a Filter that keeps only the rows whose mark is TRUE (a semi join that filters),
 * or a probe-replicated one's task-side join under a Filter keeping only its combined mark's TRUE rows.
 */
function filteringSemiJoin(node: PlanNode): JoinNode | undefined {
  if (node.kind !== 'Filter') return undefined;
  const source = node.source;
  if (source.kind !== 'Join') return probeReplicatedJoinsKeptTrue(node)[0];
  const markId = source.type === 'mark' ? source.mark!.symbol.id : undefined;
  return extractConjuncts(node.predicate).some((p) => p.kind === 'symbol' && p.symbol.id === markId) ? source : undefined;
}

/** Where a join key comes from: the scan (by node id), its column, and whether an exchange lies between. */
interface KeySource {
  scan: number;
  column: string;
  remote: boolean;
}

/** The scan and column that `symbol` comes from, unchanged and unfiltered by any null-supplying join. */
function scanColumn(node: PlanNode, symbol: number): KeySource | undefined {
  const has = (n: PlanNode) => n.outputs.some((s) => s.id === symbol);
  switch (node.kind) {
    case 'TableScan': {
      const i = node.outputs.findIndex((s) => s.id === symbol);
      // A scan that took over more than a filter may not read the table's columns by name.
      return i < 0 || node.pushed !== undefined ? undefined : { scan: node.id, column: node.columns[i].name, remote: false };
    }
    case 'Filter':
      return scanColumn(node.source, symbol);
    case 'Project': {
      const a = node.assignments.find((x) => x.symbol.id === symbol);
      return a?.expression.kind === 'symbol' ? scanColumn(node.source, a.expression.symbol.id) : undefined;
    }
    case 'Aggregate':
      return node.groupingKeys.some((k) => k.id === symbol) ? scanColumn(node.source, symbol) : undefined;
    case 'Join': {
      const leftKept = node.type === 'inner' || node.type === 'left' || node.type === 'mark';
      const rightKept = node.type === 'inner' || node.type === 'right';
      if (leftKept && has(node.left)) return scanColumn(node.left, symbol);
      if (rightKept && has(node.right)) return scanColumn(node.right, symbol);
      return undefined;
    }
    case 'Exchange': {
      // A replicated source is a build side (each of its rows goes to every task): not followed.
      if (node.type === 'REPLICATE') return undefined;
      const source = scanColumn(node.source, symbol);
      return source === undefined ? undefined : { ...source, remote: true };
    }
    default:
      return undefined;
  }
}

function addTo<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Whether keys of the type can filter a scan: types whose page values (as the build's key domain,
 * exec/dynamic-filters/key-domain.ts, keeps them) are numbers, bigints or strings that compare (and
 * equal) as SQL compares them. Not double or real (NaN, -0), char (padding), timestamps and other
 * types whose storage is not one plain value.
 */
export function filterableKeyType(type: SqlType): boolean {
  switch (type.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'date':
    case 'varchar':
      return true;
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION;
    default:
      return false;
  }
}
