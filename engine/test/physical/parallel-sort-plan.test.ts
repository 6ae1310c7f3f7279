// A Sort or TopN over a scan of several splits is planned as a ParallelSort: EXPLAIN prints the
// main thread's MergeSorted (with its adaptive threads decision) over the threads' ParallelSort or
// ParallelTopN over the pipeline they run; the plan passes the validator, fits the task request's
// schema and reads back from its JSON as the same plan; the validator rejects a parallel sort whose
// rows are gathered before the threads sort them; parallel_sort off, or every scan in the main
// thread, plans a plain Sort.

import { expect } from 'chai';
import type { ParallelSort, PhysicalNode } from '../../src/sql/planner/physical/physical-plan.js';
import { validatePhysicalPlan } from '../../src/sql/planner/physical/physical-plan-validator.js';
import { EngineHarness } from '../support/engine-harness.js';
import { expectValidRoundTrip, findPhysical, physicalPlanOf } from './physical-plan-helpers.js';
import { createBigTable, rowsWith } from '../parallel/parallel-helpers.js';

const SORT = 'SELECT id, s FROM big WHERE id % 7 = 0 ORDER BY s DESC NULLS FIRST, id';
const TOP_N = 'SELECT id, price FROM big ORDER BY price DESC, id LIMIT 10';

describe('physical plan: a sort on the threads merged in the main thread', () => {
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

  it('prints MergeSorted in the main thread over ParallelSort on the threads over their pipeline', async () => {
    const text = await explain(SORT);
    expect(text).to.match(
      /└─ MergeSorted\[orderBy = \[s_\d+ DESC NULLS FIRST, id_\d+ ASC NULLS LAST\]\]\n\s+Layout: [^\n]*\n\s+Runs: main thread, a k-way merge of the threads' sorted runs\n\s+Adaptive threads: the threads when the table has at least 2 splits, else the main thread\n\s+└─ ParallelSort\[threads = 2, splits = listed\]\n\s+Layout: [^\n]*\n\s+Runs: threads, each sorting its rows into one run\n\s+└─ Project\[[^\n]*\n[^\n]*\n\s+Runs: threads\n\s+└─ Filter\[[^\n]*\n[^\n]*\n\s+Runs: threads\n\s+└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan\[table = memory:default\.big/,
    );
    expect(text).not.to.contain('LocalExchange[GATHER]');
  });

  it('prints a TopN as MergeSorted with its count over ParallelTopN', async () => {
    const text = await explain(TOP_N);
    expect(text).to.match(
      /└─ MergeSorted\[count = 10, orderBy = [^\n]*\n[^]*└─ ParallelTopN\[count = 10, threads = 2, splits = listed\]\n\s+Layout: [^\n]*\n\s+Runs: threads, each keeping the best 10 of its rows/,
    );
  });

  it("passes the validator, fits the task request's schema and reads back from its JSON as the same plan", async () => {
    for (const sql of [SORT, TOP_N]) {
      const root = await physicalPlan(sql);
      expect(find(root, 'ParallelSort'), sql).not.to.equal(undefined);
      expectValidRoundTrip(root);
    }
  });

  it('the validator rejects a parallel sort whose rows are gathered before the threads sort them', async () => {
    const root = await physicalPlan(SORT);
    const sort = find(root, 'ParallelSort') as ParallelSort;
    const { pipeline } = sort;
    pipeline.exchanges.push({ kind: 'LocalExchange', type: 'GATHER', keys: [], below: pipeline.node });
    expect(() => validatePhysicalPlan(root, 'the test')).to.throw(/gathered in the main thread before the threads sort them/);
  });

  it('plans a plain Sort with parallel_sort off or every scan in the main thread', async () => {
    const settings: Record<string, string>[] = [{ parallel_sort: 'false' }, { parallel_min_splits: '0' }];
    for (const properties of settings) {
      for (const sql of [SORT, TOP_N]) {
        const text = await explain(sql, properties);
        expect(text, JSON.stringify(properties)).to.match(/└─ (Sort|TopN)\[/);
        expect(text, JSON.stringify(properties)).not.to.match(/MergeSorted|ParallelSort|ParallelTopN/);
      }
    }
  });
});
