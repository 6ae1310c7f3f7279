// A window with PARTITION BY over a scan of several splits is planned as a ParallelWindow: EXPLAIN
// prints the GATHER of the threads' rows (with its adaptive threads decision) over ParallelWindow
// over the HASH exchange of its partition keys between the threads; the plan passes the validator,
// fits the task request's schema and reads back from its JSON as the same plan; the validator
// rejects a parallel window whose rows are not exchanged by its partition keys; a window without
// PARTITION BY, one over another window's rows, parallel_window off, or every scan in the main
// thread plans a plain Window.

import { expect } from 'chai';
import type { ParallelWindow } from '../../src/sql/planner/physical/physical-plan.js';
import { validatePhysicalPlan } from '../../src/sql/planner/physical/physical-plan-validator.js';
import { EngineHarness } from '../support/engine-harness.js';
import { expectValidRoundTrip, findPhysical, physicalPlanOf } from './physical-plan-helpers.js';
import { createBigTable, rowsWith } from '../parallel/parallel-helpers.js';

const WINDOW = 'SELECT id, s, rank() OVER (PARTITION BY s ORDER BY price DESC) FROM big WHERE id % 7 = 0';
const TWO_WINDOWS = 'SELECT id, row_number() OVER (PARTITION BY n ORDER BY id), sum(price) OVER (PARTITION BY s) FROM big';

describe('physical plan: a window partitioned across the threads', () => {
  let h: EngineHarness;
  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;

  before(async () => {
    h = new EngineHarness();
    h.session.catalog = 'memory';
    h.session.schema = 'default';
    await createBigTable(h);
  });

  it('prints the GATHER over ParallelWindow over the HASH exchange of its partition keys', async () => {
    expect(await explain(WINDOW)).to.match(
      /└─ LocalExchange\[GATHER\] \(the threads to the main thread\)\n\s+Layout: [^\n]*\n\s+Adaptive threads: the threads when the table has at least 2 splits, else the main thread\n\s+└─ ParallelWindow\[threads = 2, splits = listed, partitionBy = \[s_\d+\], orderBy = \[price_\d+ DESC NULLS LAST\]\] rank_\d+ := rank\(\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: threads, each sorting and windowing the partitions of its key hash\n\s+└─ LocalExchange\[HASH, keys = \[s_\d+\]\] \(between the threads\)\n\s+└─ Filter\[[^\n]*\n[^\n]*\n\s+Runs: threads\n\s+└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan\[table = memory:default\.big/,
    );
  });

  it("passes the validator, fits the task request's schema and reads back from its JSON as the same plan", async () => {
    for (const sql of [WINDOW, TWO_WINDOWS]) {
      const root = await physicalPlanOf(h, sql, 2);
      expect(findPhysical(root, 'ParallelWindow'), sql).not.to.equal(undefined);
      expectValidRoundTrip(root);
    }
  });

  it('the validator rejects a parallel window whose rows are not exchanged by its partition keys', async () => {
    const root = await physicalPlanOf(h, WINDOW, 2);
    const { pipeline } = findPhysical(root, 'ParallelWindow') as ParallelWindow;
    pipeline.exchanges = pipeline.exchanges.filter((e) => e.type !== 'HASH');
    expect(() => validatePhysicalPlan(root, 'the test')).to.throw(/not all rows of a partition on one thread/);
    pipeline.exchanges.push({ kind: 'LocalExchange', type: 'HASH', keys: pipeline.scan.outputs.slice(0, 1), below: pipeline.node });
    expect(() => validatePhysicalPlan(root, 'the test')).to.throw(/not all rows of a partition on one thread/);
  });

  it('one window of two partitionings on the threads, the other over its gathered rows in the main thread', async () => {
    const text = await explain(TWO_WINDOWS);
    expect(text.match(/ParallelWindow\[/g)?.length).to.equal(1);
    expect(text).to.match(/└─ Window\[partitionBy = [^\n]*\n[^]*└─ LocalExchange\[GATHER\][^]*└─ ParallelWindow\[/);
  });

  it('plans a plain Window without PARTITION BY, with parallel_window off or every scan in the main thread', async () => {
    expect(await explain('SELECT id, row_number() OVER (ORDER BY id) FROM big')).not.to.contain('ParallelWindow');
    const settings: Record<string, string>[] = [{ parallel_window: 'false' }, { parallel_min_splits: '0' }];
    for (const properties of settings) {
      const text = await explain(WINDOW, properties);
      expect(text, JSON.stringify(properties)).to.match(/└─ Window\[partitionBy/);
      expect(text, JSON.stringify(properties)).not.to.contain('ParallelWindow');
    }
  });
});
