// timestamp with time zone in worker threads: a memory table's zoned column (one zone per row) is read
// by the workers, projected through zoned functions and grouped there; the pages come back to the
// main thread with instants and zones intact. Results equal the main thread's, and the counts of
// distinct instants equal those computed in JavaScript (equal instants in different zones are one).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, expectSameResults } from './parallel-helpers.js';

describe('parallel execution: zoned timestamps in worker threads', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    await h.run(`CREATE TABLE zoned AS SELECT id,
        at_timezone(from_unixtime((id % 1000) * 3600.5, 'UTC'), CASE id % 3 WHEN 0 THEN 'UTC' WHEN 1 THEN 'America/Los_Angeles' ELSE '+05:45' END) AS t
      FROM big`);
  });

  it('scans, filters and projects zoned values with their zones', async () => {
    const rows = await expectSameResults(
      h,
      "SELECT id, t, CAST(t AS varchar), hour(t), date_trunc('day', t), timezone(t) FROM zoned WHERE id % 499 = 3 ORDER BY id",
    );
    expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 499));
    const zones = new Set(rows.map((r) => r[5]));
    expect([...zones].sort()).to.deep.equal(['+05:45', 'America/Los_Angeles', 'UTC']);
  });

  it('groups equal instants of different zones as one key across workers', async () => {
    const groups = await expectSameResults(h, 'SELECT to_unixtime(t), count(*) FROM zoned GROUP BY t');
    expect(groups.length).to.equal(1000);
    expect(groups.reduce((sum, r) => sum + Number(r[1]), 0)).to.equal(BIG_ROWS);
  });
});
