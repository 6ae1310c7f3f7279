// TPC-H q07 and q09 at sf1 planned for two nodes: with their filters estimated near the rows they
// keep (q09's p_name LIKE '%green%' 5% rather than a fixed 0.7, q07's pair of nations by the
// union of its disjuncts), the build sides they replicate are joins of a few hundred thousand
// rows, never the whole of orders (1.5M rows) or partsupp (800k), which a probe side estimated at
// millions made "smaller" before. Only plans: no query runs.

import { expect } from 'chai';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import type { PlanNode } from '../../src/sql/planner/plan.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import { mapSources } from '../../src/sql/planner/optimizer/rewrite-plan.js';
import { EngineHarness } from '../support/engine-harness.js';

/** The tables whose scans an exchange replicates as they are (through filters and projections only). */
function replicatedTables(node: PlanNode, found: string[] = []): string[] {
  if (node.kind === 'Exchange' && node.type === 'REPLICATE') {
    let below = node.source;
    while (below.kind === 'Filter' || below.kind === 'Project' || below.kind === 'Exchange') below = below.source;
    if (below.kind === 'TableScan') found.push(below.table.name);
  }
  mapSources(node, (source) => {
    replicatedTables(source, found);
    return source;
  });
  return found;
}

describe('q07 and q09 replicate no big table on a cluster (filter estimates)', () => {
  for (const q of [7, 9]) {
    it(`q0${q} at sf1 on two nodes`, async () => {
      const h = new EngineHarness();
      const statement = parseStatement(tpchQuery(q));
      if (statement.kind !== 'QueryStatement') throw new Error('not a query');
      const { root, context } = await h.analyze(statement.query, { ...h.session, catalog: 'tpch', schema: 'sf1' });
      const replicated = replicatedTables(planQuery(root, context, { distributed: true, nodes: 2 }).root);
      expect(
        replicated.filter((table) => table === 'orders' || table === 'partsupp'),
        `replicated scans: ${replicated.join(', ')}`,
      ).to.deep.equal([]);
    });
  }
});
