// Plans a query to its one-node physical plan, and finds nodes in it, for the physical planner's tests.

import { physicalPlanningContext } from '../../src/exec/threads/physical-context.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { type PhysicalNode, physicalSources } from '../../src/sql/planner/physical/physical-plan.js';
import { PhysicalPlanner } from '../../src/sql/planner/physical/physical-planner.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { expect } from 'chai';
import { TASK_REQUEST_SCHEMA } from '../../src/internode/task-update-request-schema.js';
import { shapeCheck } from '../../src/spi/json-shape.js';
import { physicalFromJson, physicalToJson } from '../../src/sql/planner/physical/physical-plan-json.js';
import { validatePhysicalPlan } from '../../src/sql/planner/physical/physical-plan-validator.js';
import { printPhysicalTree } from '../../src/sql/planner/physical/physical-printer.js';

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

/** The nodes right under `node`, a parallel node's fallback in the main thread included. */
function children(node: PhysicalNode): PhysicalNode[] {
  switch (node.kind) {
    case 'ParallelScan':
      return [...physicalSources(node), node.inMainThread];
    case 'ParallelMarkJoin':
      return [node.probe, node.build, node.inMainThread];
    case 'ParallelSort':
    case 'ParallelWindow':
      return [node.pipeline, node.inMainThread];
    default:
      return physicalSources(node);
  }
}

/** Each node object once, in the order first met depth first. */
export function distinctNodes(root: PhysicalNode): PhysicalNode[] {
  const seen = new Set<PhysicalNode>();
  const visit = (node: PhysicalNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    children(node).forEach(visit);
  };
  visit(root);
  return [...seen];
}

const checkPhysicalJson = shapeCheck({ $id: 'urn:engine:test-physical-json', $defs: TASK_REQUEST_SCHEMA.$defs, $ref: '#/$defs/physical' });

/** The plan passes the validator, fits the task request's schema, and reads back from its JSON as the same plan, sharing the same nodes. */
export function expectValidRoundTrip(root: PhysicalNode): void {
  validatePhysicalPlan(root, 'the test');
  const json = physicalToJson(root);
  expect(checkPhysicalJson(json)).to.equal(undefined);
  const back = physicalFromJson(JSON.parse(JSON.stringify(json)), root.node);
  expect(printPhysicalTree(back)).to.deep.equal(printPhysicalTree(root));
  const named = (nodes: PhysicalNode[]) => nodes.map((n) => `${n.kind} ${n.node.id}`);
  expect(named(distinctNodes(back))).to.deep.equal(named(distinctNodes(root)));
}
