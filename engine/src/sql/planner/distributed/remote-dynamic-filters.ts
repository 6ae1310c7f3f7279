// The remote dynamic filters of a fragment (optimizer/dynamic-filters.ts): those its joins make for
// scans in other fragments, and those its scans take from joins in other fragments. The worker
// running the fragment publishes the first and waits for the second; the coordinator pairs them.

import { sources, type PlanNode } from '../plan.js';

export interface FragmentRemoteFilters {
  /** Ids of the filters the fragment's joins make for scans elsewhere. */
  joins: string[];
  /** Ids of the filters the fragment's scans take from joins elsewhere. */
  scans: string[];
}

export function remoteDynamicFilters(root: PlanNode): FragmentRemoteFilters {
  const out: FragmentRemoteFilters = { joins: [], scans: [] };
  const visit = (node: PlanNode) => {
    if (node.kind === 'Join') for (const f of node.dynamicFilters ?? []) if (f.remote) out.joins.push(f.id);
    if (node.kind === 'TableScan') for (const f of node.dynamicFilters ?? []) if (f.remote) out.scans.push(f.id);
    sources(node).forEach(visit);
  };
  visit(root);
  return out;
}
