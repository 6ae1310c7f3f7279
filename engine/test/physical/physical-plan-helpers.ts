// Plans a query to its one-node physical plan, and finds nodes in it, for the physical planner's tests.

import { physicalPlanningContext } from '../../src/exec/threads/physical-context.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { type PhysicalNode, physicalSources } from '../../src/sql/planner/physical/physical-plan.js';
import { PhysicalPlanner } from '../../src/sql/planner/physical/physical-planner.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import type { EngineHarness } from '../support/engine-harness.js';

/** The physical plan of `sql` on one node of `threads` worker threads. */
export async function physicalPlanOf(h: EngineHarness, sql: string, threads: number): Promise<PhysicalNode> {
  const statement = parseStatement(sql);
  if (statement.kind !== 'QueryStatement') throw new Error(`not a query: ${sql}`);
  const analyzed = await h.analyze(statement.query);
  const { root } = planQuery(analyzed.root, analyzed.context, { distributed: false, validate: true });
  return new PhysicalPlanner(physicalPlanningContext({ catalogs: h.catalogs, session: h.session }, () => false, threads)).plan(root);
}

/** The first node of `kind` in the plan, depth first. */
export function findPhysical(node: PhysicalNode, kind: PhysicalNode['kind']): PhysicalNode | undefined {
  return node.kind === kind
    ? node
    : physicalSources(node).reduce<PhysicalNode | undefined>((found, s) => found ?? findPhysical(s, kind), undefined);
}
