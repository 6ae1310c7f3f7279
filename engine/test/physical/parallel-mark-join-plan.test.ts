// A semi join whose build side is a scan of several splits is planned as a ParallelMarkJoin: EXPLAIN
// prints the join with where it runs and its adaptive decisions, over its probe side and its build
// side's ParallelScan; the plan fits the task request's schema and reads back from its JSON as the
// same plan (a worker runs what the coordinator planned); parallel_mark_join off, or every scan in
// the main thread, plans a plain join.

import { expect } from 'chai';
import type { PhysicalNode } from '../../src/sql/planner/physical/physical-plan.js';
import { EngineHarness } from '../support/engine-harness.js';
import { expectValidRoundTrip, findPhysical, physicalPlanOf } from './physical-plan-helpers.js';
import { createBigTable, rowsWith } from '../parallel/parallel-helpers.js';

const SEMI = 'SELECT count(*) FROM digits d WHERE EXISTS (SELECT 1 FROM big b WHERE b.n = d.x AND b.id % 7 = 0)';

describe('physical plan: a semi join streaming its build side on the threads', () => {
  let h: EngineHarness;
  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;

  const physicalPlan = (sql: string): Promise<PhysicalNode> => physicalPlanOf(h, sql, 2);

  const find = findPhysical;

  before(async () => {
    h = new EngineHarness();
    h.session.catalog = 'memory';
    h.session.schema = 'default';
    await createBigTable(h);
  });

  it('prints the join, where it runs and its decisions, over its probe side and its build side on the threads', async () => {
    const text = await explain(SEMI);
    expect(text).to.match(
      /SemiJoin\[[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: probe side hashed in the main thread; build side streamed past it on the threads, marking the probe rows\n\s+Adaptive probe first: the probe side hashed in the main thread and the build side streamed past it on the threads when the probe side has at most 524288 rows, else the join in the main thread\n\s+Adaptive threads: the threads when the build side's table has at least 2 splits, else the main thread/,
    );
    expect(text).to.match(/TableScan\[table = memory:default\.digits/);
    expect(text).to.match(
      /└─ ParallelScan\[threads = \d+, splits = listed\][^]*└─ LocalExchange\[GATHER\][^]*Filter\[[^\n]*\n[^\n]*\n\s+Runs: threads[^]*└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan\[table = memory:default\.big/,
    );
  });

  it("fits the task request's schema and reads back from its JSON as the same plan", async () => {
    const root = await physicalPlan(SEMI);
    expect(find(root, 'ParallelMarkJoin')).not.to.equal(undefined);
    expectValidRoundTrip(root);
  });

  it('plans a plain join with parallel_mark_join off or every scan in the main thread', async () => {
    const settings: Record<string, string>[] = [{ parallel_mark_join: 'false' }, { parallel_min_splits: '0' }];
    for (const properties of settings) {
      const text = await explain(SEMI, properties);
      expect(text).to.match(/SemiJoin\[/);
      expect(text, JSON.stringify(properties)).not.to.contain('build side streamed past it on the threads');
    }
  });
});
