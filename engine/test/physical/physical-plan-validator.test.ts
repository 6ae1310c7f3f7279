// Physical nodes declare how their rows are distributed over threads and ordered, and the physical
// plan validator (run after the physical planner under ENGINE_VALIDATE_PLANS=1) refuses a plan that
// breaks a requirement: a final aggregation step partitioned across threads whose input is hashed
// on other keys, or not at all; threads whose rows are not gathered into the main thread; a scan
// whose splits are not spread over the threads; a sort's order lost under a node that runs on threads.
// The plans the planner makes pass, with a final step partitioned across four threads.

import { expect } from 'chai';
import { type ParallelScan, type PhysicalNode, physicalSources } from '../../src/sql/planner/physical/physical-plan.js';
import { validatePhysicalPlan } from '../../src/sql/planner/physical/physical-plan-validator.js';
import { printPhysicalTree } from '../../src/sql/planner/physical/physical-printer.js';
import { EngineHarness } from '../support/engine-harness.js';
import { physicalPlanOf } from './physical-plan-helpers.js';

describe('physical plan validator: declared distribution and ordering', () => {
  const h = new EngineHarness();
  h.session.properties.set('task_concurrency', '4');

  const physicalPlan = (sql: string): Promise<PhysicalNode> => physicalPlanOf(h, sql, 4);

  function parallelScanIn(node: PhysicalNode): ParallelScan {
    if (node.kind === 'ParallelScan') return node;
    const sources = physicalSources(node);
    for (const source of sources) {
      try {
        return parallelScanIn(source);
      } catch {}
    }
    throw new Error(`no ParallelScan under ${node.node.kind} ${node.node.id}`);
  }

  const refused = (root: PhysicalNode, message: RegExp) => {
    expect(() => validatePhysicalPlan(root, 'the test')).to.throw(/^Invalid physical plan of the test: /);
    expect(() => validatePhysicalPlan(root, 'the test')).to.throw(message);
  };

  const GROUPED = "SELECT l_returnflag, l_linestatus, count(*) FROM tpch.tiny.lineitem WHERE l_comment LIKE '%fur%' GROUP BY 1, 2";

  it('passes the plan the planner makes: a final step partitioned across the threads by a HASH exchange on its keys', async () => {
    const root = await physicalPlan(GROUPED);
    validatePhysicalPlan(root, 'the test');
    const p = parallelScanIn(root);
    expect(p.aggregation?.finalStep).to.equal('partitioned across threads');
    expect(p.exchanges.map((e) => e.type)).to.deep.equal(['ROUND_ROBIN', 'HASH', 'GATHER']);
    const text = printPhysicalTree(root).join('\n');
    expect(text).to.match(/└─ LocalExchange\[GATHER\] \(the threads to the main thread\)\n\s+└─ Aggregate\(FINAL\)/);
    expect(text).to.match(
      /└─ LocalExchange\[HASH, keys = \[l_returnflag_\d+, l_linestatus_\d+\]\] \(between the threads\)\n\s+└─ Aggregate\(PARTIAL\)/,
    );
    expect(text).to.match(/└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan/);
  });

  it('passes a scan and projection on the threads (generated pages): their rows gathered, the splits round-robin', async () => {
    const root = await physicalPlan('SELECT l_orderkey, l_comment FROM tpch.tiny.lineitem');
    validatePhysicalPlan(root, 'the test');
    expect(parallelScanIn(root).exchanges.map((e) => e.type)).to.deep.equal(['ROUND_ROBIN', 'GATHER']);
    const text = printPhysicalTree(root).join('\n');
    expect(text, text).to.match(
      /└─ LocalExchange\[GATHER\] \(the threads to the main thread\)\n\s+└─ Project[^\n]*\n(\s+[A-Z][^\n]*\n)+\s+└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan/,
    );
  });

  it('refuses a final step whose input is hashed on other keys, or spread by split', async () => {
    const root = await physicalPlan(GROUPED);
    const p = parallelScanIn(root);
    const hash = p.exchanges.find((e) => e.type === 'HASH')!;
    const wrongKeys = { ...hash, keys: [p.scan.outputs.find((s) => s.name.startsWith('l_comment'))!] };
    p.exchanges = p.exchanges.map((e) => (e === hash ? wrongKeys : e));
    refused(
      root,
      /its final aggregation \d+ gets its input hashed over the threads on \[l_comment\], not all rows of a group on one thread/,
    );
    p.exchanges = p.exchanges.filter((e) => e !== wrongKeys);
    refused(root, /its final aggregation \d+ gets its input spread over the threads by split/);
  });

  it('refuses threads whose rows are not gathered into the main thread, and a scan whose splits are not spread over them', async () => {
    const root = await physicalPlan(GROUPED);
    const p = parallelScanIn(root);
    const all = p.exchanges;
    p.exchanges = all.filter((e) => e.type !== 'GATHER');
    refused(
      root,
      /ParallelScan of Aggregate node \d+: its top outputs hashed over the threads on \[l_returnflag, l_linestatus\], not one stream/,
    );
    p.exchanges = all.filter((e) => e.type !== 'ROUND_ROBIN');
    refused(root, /its threads do not read the splits of TableScan node \d+ round-robin/);
  });

  it('refuses a sorted node run on threads: the order its logical plan promises is lost', async () => {
    // A sort the threads run themselves is a ParallelSort (parallel-sort-plan.test.ts): here, the Sort over the scan's threads.
    h.session.properties.set('parallel_sort', 'false');
    const root = await physicalPlan("SELECT l_orderkey FROM tpch.tiny.lineitem WHERE l_comment LIKE '%fur%' ORDER BY l_orderkey");
    h.session.properties.delete('parallel_sort');
    validatePhysicalPlan(root, 'the test');
    // The plan's top is the Sort (over the scan's ParallelScan): as if the threads ran the Sort, their rows interleaving.
    expect(root.node.kind).to.equal('Sort');
    const broken: PhysicalNode = { ...parallelScanIn(root), node: root.node };
    refused(broken, /ParallelScan of Sort node \d+ does not keep the order its logical plan promises \(l_orderkey\)/);
  });
});
