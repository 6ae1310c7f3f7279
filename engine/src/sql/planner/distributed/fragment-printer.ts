// EXPLAIN (TYPE DISTRIBUTED): the fragments of a plan as Trino prints them — per fragment its
// partitioning, output layout and output partitioning, then its tree down to its remote sources.

import { layout, name, printPlan, printTree, type NodeRuntimeStats } from '../plan-printer.js';
import { allFragments, type PlanFragment } from './fragmenter.js';

/** `treeOf`: the lines of a fragment's tree (by default its logical plan's; EXPLAIN prints the physical plan's). */
export function printFragments(
  root: PlanFragment,
  columnNames: string[],
  stats?: ReadonlyMap<number, NodeRuntimeStats>,
  treeOf: (f: PlanFragment) => string[] = (f) => printTree(f.root, stats),
): string {
  return allFragments(root)
    .map((f) => {
      const tree = f.id === root.id ? printPlan(f.root, columnNames, stats, treeOf(f)).split('\n') : treeOf(f);
      return [
        `Fragment ${f.id} [${f.partitioning}]`,
        `    Output layout: [${layout(f.root.outputs)}]`,
        `    Output partitioning: ${outputPartitioning(f)}${sharedBy(f)}`,
        ...tree.map((l) => `    ${l}`),
      ].join('\n');
    })
    .join('\n\n');
}

function outputPartitioning(f: PlanFragment): string {
  switch (f.output.type) {
    case 'GATHER':
      return 'SINGLE []';
    case 'REPLICATE':
      return 'BROADCAST []';
    case 'REPARTITION':
      return `HASH [${f.output.partitionKeys.map(name).join(', ')}]`;
  }
}

/** A stage shared by identical copies (shared-stages.ts): the fragments that read it. */
function sharedBy(f: PlanFragment): string {
  return f.readers === undefined ? '' : ` (one stage read by fragments ${f.readers.map((r) => r.fragmentId).join(', ')})`;
}
