// Common subplans (physical/common-subplans.ts) whose copies the fragmenter put in different
// fragments: TPC-H q15's revenue0 over tpch or lake scans is a broadcast build side in one fragment
// and the input of max() in another, each fragment scanning lineitem. On a single node every
// fragment below the root runs as one task in this process, each SOURCE task given every split of its
// scans, so the copies can still run once: the producer's task buffers its rows in the query's spools
// on the node and the other copies' tasks replay them. The other copies' scans are no longer
// partitioned: the scheduler gives them no splits (their fragments' tasks read none).
//
// Left out: the root fragment (it runs in the query, not as a task) and coordinator-only fragments
// (their copies, with splits listed, are shared within the fragment as before; an Apply there runs a
// subquery again per binding).

import { type CommonSubplans, findCommonSubplans } from '../physical/common-subplans.js';
import { type PlanNode, sources, type TableScanNode } from '../plan.js';
import { allFragments, type PlanFragment } from './fragmenter.js';

export interface FragmentsWithCommonSubplans {
  /** The fragments, the copies' scans (but the producer's) no longer among their partitioned scans. */
  root: PlanFragment;
  /** Each copy's root, mapped to its producer's, over the fragments that share them. */
  commonSubplans: CommonSubplans;
}

/** Whether the tasks of `fragment` take part in sharing copies across fragments. */
export function sharesAcrossFragments(root: PlanFragment, fragment: PlanFragment): boolean {
  return fragment.id !== root.id && fragment.partitioning !== 'COORDINATOR_ONLY';
}

/** The common subplans of a single node's fragments, and the fragments with the copies' scans left unassigned. */
export function commonSubplansAcrossFragments(root: PlanFragment): FragmentsWithCommonSubplans {
  const fragments = allFragments(root).filter((f) => sharesAcrossFragments(root, f));
  const commonSubplans = findCommonSubplans(
    fragments.map((f) => f.root),
    () => true,
  );
  const replaced = new Set<TableScanNode>();
  for (const [copy, producer] of commonSubplans) if (copy !== producer) scansOf(copy).forEach((s) => replaced.add(s));
  if (replaced.size === 0) return { root, commonSubplans };
  const withoutReplaced = (fragment: PlanFragment): PlanFragment => ({
    ...fragment,
    partitionedScans: fragment.partitionedScans.filter((s) => !replaced.has(s)),
    children: fragment.children.map(withoutReplaced),
  });
  return { root: withoutReplaced(root), commonSubplans };
}

function scansOf(node: PlanNode): TableScanNode[] {
  return node.kind === 'TableScan' ? [node] : sources(node).flatMap(scansOf);
}
