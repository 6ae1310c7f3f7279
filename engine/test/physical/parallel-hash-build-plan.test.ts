// A hash join's build side on keys the threads can share is planned as a ParallelHashBuild, both
// under a join in the main thread and under a join probed in a parallel scan's threads: the plan
// passes the validator, fits the task request's schema and reads back from its JSON as the same
// plan; the validator rejects one that is not its join's build side or whose key the threads cannot
// share; parallel_hash_build off (its default), every scan in the main thread, or a varchar key plans none.

import { expect } from 'chai';
import type { ParallelHashBuild, PhysicalNode } from '../../src/sql/planner/physical/physical-plan.js';
import { validatePhysicalPlan } from '../../src/sql/planner/physical/physical-plan-validator.js';
import { EngineHarness } from '../support/engine-harness.js';
import { createBigTable, IN_WORKERS, rowsWith } from '../parallel/parallel-helpers.js';
import { expectValidRoundTrip, findPhysical, physicalPlanOf } from './physical-plan-helpers.js';

const IN_MAIN_THREAD_JOIN = 'SELECT count(*), count(b.s) FROM big a FULL JOIN big b ON a.id = b.id AND a.n = b.n';
const PROBED_IN_THREADS = 'SELECT sum(a.price), count(b.day) FROM big a JOIN big b ON a.id = b.id WHERE a.flag';
const VARCHAR_KEY = 'SELECT count(*) FROM big a JOIN big b ON a.s = b.s AND a.id = b.id';

describe('physical plan: a join table filled on the threads', () => {
  let h: EngineHarness;
  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;

  before(async () => {
    h = new EngineHarness();
    h.session.catalog = 'memory';
    h.session.schema = 'default';
    for (const [name, value] of Object.entries({ ...IN_WORKERS, parallel_hash_build: 'true' })) h.session.properties.set(name, value);
    await createBigTable(h);
  });

  it('prints ParallelHashBuild over the build side, and the probe in the threads over a table they fill', async () => {
    expect(await explain(IN_MAIN_THREAD_JOIN)).to.match(
      /FullJoin\[[^\n]*\n[^]*└─ ParallelHashBuild\[threads = 2\]\n\s+Runs: rows gathered in the main thread; lookup table filled on the threads, each its regions of the key hashes\n\s+Adaptive parallel build: the threads fill the lookup table when the build side has at least 65536 rows, else the main thread\n\s+└─ /,
    );
    expect(await explain(PROBED_IN_THREADS)).to.match(
      /InnerJoin\[[^\n]*\n[^\n]*\n\s+Runs: probe in the threads; build rows gathered in the main thread, its table filled on the threads and shared with them\n[^]*└─ ParallelHashBuild\[threads = 2\]/,
    );
  });

  it("passes the validator, fits the task request's schema and reads back from its JSON as the same plan", async () => {
    for (const sql of [IN_MAIN_THREAD_JOIN, PROBED_IN_THREADS]) {
      const root = await physicalPlanOf(h, sql, 2);
      expect(findPhysical(root, 'ParallelHashBuild'), sql).not.to.equal(undefined);
      expectValidRoundTrip(root);
    }
  });

  it("the validator rejects one that is not its join's build side, or over a key the threads cannot share", async () => {
    const build = async (): Promise<{ root: PhysicalNode; build: ParallelHashBuild }> => {
      const root = await physicalPlanOf(h, IN_MAIN_THREAD_JOIN, 2);
      return { root, build: findPhysical(root, 'ParallelHashBuild') as ParallelHashBuild };
    };
    const wrongSide = await build();
    wrongSide.build.node = wrongSide.build.join.left;
    expect(() => validatePhysicalPlan(wrongSide.root, 'the test')).to.throw(/is not the build side of join/);
    const varcharKey = await build();
    const [first] = varcharKey.build.join.criteria;
    const s = varcharKey.build.join.right.outputs.find((o) => o.name.startsWith('s'))!;
    varcharKey.build.join.criteria = [{ ...first, right: s }];
    expect(() => validatePhysicalPlan(varcharKey.root, 'the test')).to.throw(/key s\w* of type varchar, which the threads cannot share/);
  });

  it('plans none with parallel_hash_build off, every scan in the main thread, or a varchar key', async () => {
    const settings: Record<string, string>[] = [{ parallel_hash_build: 'false' }, { parallel_min_splits: '0' }, { task_concurrency: '1' }];
    for (const properties of settings)
      expect(await explain(IN_MAIN_THREAD_JOIN, properties), JSON.stringify(properties)).not.to.contain('ParallelHashBuild');
    expect(await explain(VARCHAR_KEY)).not.to.contain('ParallelHashBuild');
  });
});
