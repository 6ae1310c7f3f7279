// Checks that the user may read every table and view an analyzed query reads, and the columns it
// references of each (Trino's checkCanSelectFromColumns). The tables a view's query reads are checked
// for the view's owner when the view runs with its definer's rights (the default) and the owner is
// someone else; such an owner also needs GRANT_SELECT. Outer relations are checked first, so that a
// user refused a view learns about the view, not what is below it.

import { sources, type PlanNode } from '../../sql/planner/plan.js';
import { nodeReferences } from '../../sql/planner/plan-symbols.js';
import type { FileAccessControl } from './file-access-control.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type { RelationReads } from './relation-reads.js';

export function checkRelationReads(access: FileAccessControl, user: string, reads: RelationReads, root: PlanNode): void {
  const outerFirst = [...reads.all()].sort((a, b) => a.insideViews.length - b.insideViews.length);
  for (const read of outerFirst) {
    const reader = reads.readerOf(read.insideViews, user);
    const referenced = referencedOutside(root, read.node);
    const columns = read.columns.filter((c) => referenced.has(c.symbol.id)).map((c) => c.name);
    access.checkCanSelectFromColumns(reader.user, read.name, [...new Set(columns)], reader.asViewOwner);
  }
}

/** Symbols referenced by the plan's nodes other than `relation` and those below it, and by the plan's outputs. */
function referencedOutside(root: PlanNode, relation: PlanNode): Set<number> {
  const referenced = new Set(root.outputs.map((s) => s.id));
  const visit = (node: PlanNode) => {
    if (node === relation) return;
    for (const id of nodeReferences(node).keys()) referenced.add(id);
    sources(node).forEach(visit);
  };
  visit(root);
  return referenced;
}

/** The analyzer's hook at the end of a query's analysis: refuses the query when the rules forbid a read. */
export function checkQueryReads(metadata: StatementMetadata, root: PlanNode): void {
  const access = metadata.catalogs.accessControl;
  if (access !== undefined) checkRelationReads(access, metadata.session.user, metadata.reads, root);
}
