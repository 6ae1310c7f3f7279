// Arrays in worker threads: array columns of a memory table are read from shared memory (Arrow List
// data with its child buffers) by the workers, filtered, projected through array functions and
// aggregated there with array_agg's partial step, and the pages come back to the main
// thread with their elements. Results equal the main thread's and a count computed in JavaScript.
// (UNNEST itself runs in the task's main thread, above the workers' scans.)

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_WORKERS, createBigTable, errorOf, expectSameResults } from './parallel-helpers.js';

describe('parallel execution: arrays in worker threads', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    await h.run(
      `CREATE TABLE arrays AS SELECT id, ARRAY[id, n] AS a, IF(id % 7 = 0, NULL, ARRAY[s, NULL]) AS b, ARRAY[ARRAY[n], ARRAY[]] AS nested FROM big`,
    );
  });

  it('scans, filters and projects array columns', async () => {
    const rows = await expectSameResults(
      h,
      'SELECT id, a, b, nested, cardinality(b), a[2], flatten(nested) FROM arrays WHERE abs(id) % 997 = 3 AND contains(a, id)',
    );
    expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 997));
  });

  it('aggregates with array_agg and groups on array elements across workers', async () => {
    const [[count]] = await expectSameResults(h, 'SELECT sum(cardinality(a) + cardinality(nested)) FROM arrays');
    expect(count).to.equal(BigInt(4 * BIG_ROWS));
    await expectSameResults(
      h,
      'SELECT n, cardinality(array_agg(id)), array_max(array_agg(id)), array_sort(array_agg(s))[1] FROM big GROUP BY n',
    );
    await expectSameResults(h, 'SELECT a[2], count(*) FROM arrays GROUP BY a[2]');
  });

  it("runs lambdas that capture the row's columns in worker threads, and fails with the error one raises there", async () => {
    const [[total]] = await expectSameResults(
      h,
      'SELECT sum(reduce(transform(a, x -> coalesce(x, 0) * 2), 0, (s, x) -> s + x, s -> s)) FROM arrays WHERE any_match(a, x -> x = id AND x % 3 = 0)',
    );
    // a is [id, n]; n is NULL where id ends in 3, else id's ten-thousands digit (createBigTable).
    let expected = 0;
    for (let id = 0; id < BIG_ROWS; id += 3) expected += 2 * (id + (id % 10 === 3 ? 0 : Math.floor(id / 10000) % 10));
    expect(total).to.equal(BigInt(expected));
    expect((await errorOf(h, 'SELECT transform(a, x -> x / (id - 5)) FROM arrays', IN_WORKERS)).errorName).to.equal('DIVISION_BY_ZERO');
  });
});
