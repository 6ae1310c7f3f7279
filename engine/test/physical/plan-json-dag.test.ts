// The physical plan is a DAG: a parallel mark join's probe side is also under its fallback in the
// main thread (and a parallel scan's build sides under its own). Its JSON writes each node once and
// refers to it again by id, and reading it back makes one object per node, as the coordinator had
// it: a chain of N mark joins writes a plan linear in N (written as a tree, it doubled with each
// join), TPC-H q8's builds nested six deep are each written once, and the worker's plan shares
// what the coordinator's shares.

import { expect } from 'chai';
import { PhysicalPlanMismatch, physicalFromJson, physicalToJson } from '../../src/sql/planner/physical/physical-plan-json.js';
import { type PhysicalNode, physicalSources } from '../../src/sql/planner/physical/physical-plan.js';
import { EngineHarness } from '../support/engine-harness.js';
import { createBigTable } from '../parallel/parallel-helpers.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { distinctNodes, expectValidRoundTrip, physicalPlanOf } from './physical-plan-helpers.js';

/** digits filtered by `joins` EXISTS over big, each a semi join above the one before. */
function existsChain(joins: number): string {
  const conditions = Array.from({ length: joins }, (_, i) => `EXISTS (SELECT 1 FROM big b WHERE b.n = d.x AND b.id % ${i + 7} = 0)`);
  return `SELECT count(*) FROM digits d WHERE ${conditions.join(' AND ')}`;
}

const decoded = (root: PhysicalNode): PhysicalNode => physicalFromJson(JSON.parse(JSON.stringify(physicalToJson(root))), root.node);

describe('physical plan JSON: each shared node written once', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    h.session.catalog = 'memory';
    h.session.schema = 'default';
    await createBigTable(h);
  });

  it("reads a mark join's probe side back as one object, under the join and under its fallback", async () => {
    const root = await physicalPlanOf(h, existsChain(2), 2);
    const joins = distinctNodes(root).filter((n) => n.kind === 'ParallelMarkJoin');
    expect(joins.length).to.equal(2);
    const back = distinctNodes(decoded(root));
    const backJoins = back.filter((n) => n.kind === 'ParallelMarkJoin');
    expect(backJoins.length).to.equal(2);
    for (const join of backJoins) {
      expect(join.inMainThread.kind).to.equal('Operator');
      expect(physicalSources(join.inMainThread)[0]).to.equal(join.probe);
    }
    // As many objects as the coordinator's plan, in the same places.
    expectValidRoundTrip(root);
  });

  it('writes a chain of mark joins in JSON linear in its length', async () => {
    const size = async (joins: number): Promise<number> => {
      const root = await physicalPlanOf(h, existsChain(joins), 2);
      expect(distinctNodes(root).filter((n) => n.kind === 'ParallelMarkJoin').length).to.equal(joins);
      expectValidRoundTrip(root);
      return JSON.stringify(physicalToJson(root)).length;
    };
    const six = await size(6);
    const twelve = await size(12);
    // Linear: about twice; written as a tree it was about 2^6 = 64 times.
    expect(twelve).to.be.lessThan(3 * six);
  });

  it("writes each of TPC-H q8's nested parallel scans once, however deep its build sides nest", async () => {
    const tpch = new EngineHarness();
    tpch.session.catalog = 'tpch';
    tpch.session.schema = 'sf1';
    const root = await physicalPlanOf(tpch, tpchQuery(8), 2);
    const scans = distinctNodes(root).filter((n) => n.kind === 'ParallelScan');
    // A build side that is a parallel scan probing another one: nested, written as a tree, it doubles per level.
    expect(scans.length).to.be.greaterThan(4);
    expect(JSON.stringify(physicalToJson(root)).match(/"kind":"ParallelScan"/g)?.length).to.equal(scans.length);
    expectValidRoundTrip(root);
  });

  it('refuses a reference to a node the plan does not write', async () => {
    const root = await physicalPlanOf(h, existsChain(1), 2);
    const json = physicalToJson(root);
    expect(JSON.stringify(json)).to.contain('"kind":"Ref"');
    // The Ref's id with 99 in front: an id no node is written with.
    const dangling = JSON.parse(JSON.stringify(json).replace('"kind":"Ref","shared":', '"kind":"Ref","shared":99'));
    expect(() => physicalFromJson(dangling, root.node)).to.throw(PhysicalPlanMismatch, /is not written in the plan/);
  });
});
