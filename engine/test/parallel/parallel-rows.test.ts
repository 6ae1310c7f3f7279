// Rows in worker threads: row columns of a memory table are read from shared memory (Arrow Struct
// data with a child per field) by the workers, filtered on a field, projected and aggregated there,
// and the pages come back to the main thread with their fields. Results equal the main thread's
// and a count computed in JavaScript.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, expectSameResults } from './parallel-helpers.js';

describe('parallel execution: rows in worker threads', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    await h.run(
      `CREATE TABLE row_table AS SELECT id, CAST(ROW(id, s, day) AS ROW(id bigint, s varchar, day date)) AS r, IF(id % 7 = 0, NULL, ROW(ARRAY[n], ROW(price))) AS nested FROM big`,
    );
  });

  it('scans, filters on a field and projects row columns', async () => {
    const rows = await expectSameResults(h, 'SELECT id, r, nested, r.s, nested[2] FROM row_table WHERE r.id % 997 = 3');
    expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 997));
  });

  it('groups on rows and aggregates their fields across workers', async () => {
    const [[count]] = await expectSameResults(h, 'SELECT count(nested) FROM row_table');
    expect(count).to.equal(BigInt(BIG_ROWS - Math.ceil(BIG_ROWS / 7)));
    await expectSameResults(h, 'SELECT nested[1], count(*), max(r) FROM row_table GROUP BY nested[1]');
  });
});
