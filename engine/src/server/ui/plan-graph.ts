// A distributed plan as the web interface draws it: its fragments, each a list of plan nodes with
// the nodes they read (sources), and the fragments whose output a RemoteSource reads (the
// exchanges). Labels are EXPLAIN's. The figures of each node (rows, time) are its operators', which
// the browser adds up from the tasks' operator summaries by plan node id.

import { allFragments, type PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import { describe, name } from '../../sql/planner/plan-printer.js';
import { sources, type PlanNode } from '../../sql/planner/plan.js';
import type { PlanGraphFragment, PlanGraphNode } from './ui-api.js';

export function planGraph(root: PlanFragment): PlanGraphFragment[] {
  return allFragments(root).map((f) => ({
    id: f.id,
    partitioning: f.partitioning,
    outputType: f.output.type,
    outputKeys: f.output.partitionKeys.map(name),
    root: f.root.id,
    nodes: fragmentNodes(f.root),
  }));
}

function fragmentNodes(root: PlanNode): PlanGraphNode[] {
  const nodes: PlanGraphNode[] = [];
  const visit = (node: PlanNode) => {
    const children = sources(node);
    nodes.push({
      id: node.id,
      kind: node.kind,
      label: describe(node),
      sources: children.map((c) => c.id),
      ...(node.kind === 'RemoteSource' ? { remoteFragments: [...node.sourceFragmentIds], exchangeType: node.exchangeType } : {}),
    });
    children.forEach(visit);
  };
  visit(root);
  return nodes;
}
