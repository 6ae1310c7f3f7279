// Arrays in worker threads: array columns of a memory table are read from shared memory (Arrow List
// data with its child buffers) by the workers, filtered, projected through array functions and
// aggregated there with array_agg's partial step, and the pages come back to the main
// thread with their elements. Results equal the main thread's and a count computed in JavaScript.
// (UNNEST itself runs in the task's main thread, above the workers' scans.)

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, expectSameResults } from './parallel-helpers.js';

describe('parallel execution: arrays in worker threads', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    await h.run(`CREATE TABLE arrays AS SELECT id, ARRAY[id, n] AS a, IF(id % 7 = 0, NULL, ARRAY[s, NULL]) AS b, ARRAY[ARRAY[n], ARRAY[]] AS nested FROM big`);
  });

  it('scans, filters and projects array columns', async () => {
    const rows = await expectSameResults(h, 'SELECT id, a, b, nested, cardinality(b), a[2], flatten(nested) FROM arrays WHERE abs(id) % 997 = 3 AND contains(a, id)');
    expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 997));
  });

  it('aggregates with array_agg and groups on array elements across workers', async () => {
    const [[count]] = await expectSameResults(h, 'SELECT sum(cardinality(a) + cardinality(nested)) FROM arrays');
    expect(count).to.equal(BigInt(4 * BIG_ROWS));
    await expectSameResults(h, 'SELECT n, cardinality(array_agg(id)), array_max(array_agg(id)), array_sort(array_agg(s))[1] FROM big GROUP BY n');
    await expectSameResults(h, 'SELECT a[2], count(*) FROM arrays GROUP BY a[2]');
  });
});
