// The fragmenter cuts a plan with exchanges (see add-exchanges.ts) into fragments, each to run as
// a stage of tasks: an exchange becomes a RemoteSource in the fragment above it, and the plan below
// it the fragment of its own that produces that exchange's rows. Fragment 0, the root, runs on the
// coordinator and feeds the client. Fragments are numbered in the order they are met, top down.

import type { ExchangeType, PlanNode, RemoteSourceNode, TableScanNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { mapSources } from '../optimizer/rewrite-plan.js';
import { sources } from '../plan.js';

/**
 * Where a fragment's tasks run: SOURCE over the splits of its scan (one task per worker), FIXED_HASH
 * over hash partitions (one task per worker), SINGLE in one task, COORDINATOR_ONLY in one task on the
 * coordinator (it reads data only the coordinator holds, or runs correlated subqueries).
 */
export type FragmentPartitioning = 'SOURCE' | 'FIXED_HASH' | 'SINGLE' | 'COORDINATOR_ONLY';

export interface PlanFragment {
  id: number;
  root: PlanNode;
  partitioning: FragmentPartitioning;
  /** How the fragment's rows go to its consumer (the root's: GATHER to the client). */
  output: { type: ExchangeType; partitionKeys: Symbol[] };
  /** The scans whose splits the scheduler spreads over the fragment's tasks (SOURCE fragments). */
  partitionedScans: TableScanNode[];
  /** The fragments whose output this one reads, by the id of its RemoteSource node. */
  children: PlanFragment[];
  /**
   * When several RemoteSource nodes read this fragment's output (identical copies run once,
   * shared-stages.ts): they and their fragments, its parent's first. Each reads its own range of the output buffers.
   */
  readers?: { fragmentId: number; remoteSourceId: number }[];
}

/** Whether any node may read a scan's splits (its connector is remotely accessible). */
export type RemoteScanTest = (scan: TableScanNode) => boolean;

export function fragmentPlan(root: PlanNode, isRemoteScan: RemoteScanTest): PlanFragment {
  let nextId = 0;
  const build = (top: PlanNode, output: PlanFragment['output']): PlanFragment => {
    const id = nextId++;
    const children: PlanFragment[] = [];
    const cut = (node: PlanNode): PlanNode => {
      if (node.kind === 'Exchange') {
        const child = build(node.source, { type: node.type, partitionKeys: node.partitionKeys });
        children.push(child);
        const remote: RemoteSourceNode = {
          kind: 'RemoteSource',
          id: node.id,
          sourceFragmentIds: [child.id],
          exchangeType: node.type,
          outputs: node.outputs,
        };
        return node.orderBy === undefined ? remote : { ...remote, orderBy: node.orderBy };
      }
      // A correlated subquery is planned again per binding, in its Apply's task: it has no exchanges.
      if (node.kind === 'Apply') return { ...node, input: cut(node.input) };
      if (node.kind === 'RecursiveUnion') return node;
      return mapSources(node, cut);
    };
    const cutRoot = cut(top);
    const contents = nodesOf(cutRoot);
    const scans = contents.filter((n): n is TableScanNode => n.kind === 'TableScan');
    const coordinatorOnly = contents.some((n) => n.kind === 'Apply' || n.kind === 'RecursiveUnion') || scans.some((s) => !isRemoteScan(s));
    // A replicated scan's splits are listed in each task, all of them: the scheduler spreads the others.
    const partitionedScans = coordinatorOnly ? [] : scans.filter((s) => s.replicated !== true);
    const repartitioned = contents.some((n) => n.kind === 'RemoteSource' && n.exchangeType === 'REPARTITION');
    const partitioning: FragmentPartitioning = coordinatorOnly
      ? 'COORDINATOR_ONLY'
      : partitionedScans.length > 0
        ? 'SOURCE'
        : repartitioned
          ? 'FIXED_HASH'
          : 'SINGLE';
    return { id, root: cutRoot, partitioning, output, partitionedScans, children };
  };
  return build(root, { type: 'GATHER', partitionKeys: [] });
}

/** Every fragment of the tree, by id. */
export function allFragments(root: PlanFragment): PlanFragment[] {
  const out: PlanFragment[] = [];
  const visit = (f: PlanFragment) => {
    out.push(f);
    f.children.forEach(visit);
  };
  visit(root);
  return out.sort((a, b) => a.id - b.id);
}

/** Whether the fragment runs in many tasks (one per worker). */
export function isPartitioned(fragment: PlanFragment): boolean {
  return fragment.partitioning === 'SOURCE' || fragment.partitioning === 'FIXED_HASH';
}

/** The nodes of a fragment (not inside an Apply's subquery, which runs where the Apply does). */
function nodesOf(root: PlanNode): PlanNode[] {
  const out: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    out.push(node);
    if (node.kind === 'Apply') visit(node.input);
    else if (node.kind !== 'RecursiveUnion') sources(node).forEach(visit);
  };
  visit(root);
  return out;
}
