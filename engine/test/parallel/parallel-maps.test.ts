// Maps in worker threads: map columns of a memory table are read from shared memory (Arrow Map data:
// offsets over an entries struct of keys and values) by the workers, filtered, projected through map
// functions and aggregated there with map_agg's and histogram's partial steps, and the pages come
// back to the main thread with their entries. Results equal the main thread's and counts computed
// in JavaScript.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, expectSameResults } from './parallel-helpers.js';

describe('parallel execution: maps in worker threads', function () {
  this.timeout(120_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    await h.run(
      `CREATE TABLE maps AS SELECT id, MAP(ARRAY['id', 'n'], ARRAY[id, n]) AS m, IF(id % 7 = 0, NULL, MAP(ARRAY[s], ARRAY[ARRAY[n, NULL]])) AS nested FROM big`,
    );
  });

  it('scans, filters and projects map columns', async () => {
    const rows = await expectSameResults(
      h,
      "SELECT id, m, nested, cardinality(nested), m['n'], map_keys(m) FROM maps WHERE abs(id) % 997 = 3 AND m['id'] = id",
    );
    expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 997));
  });

  it('evaluates map constants in worker threads (a posted fragment loses the MapValue class; it is revived)', async () => {
    const rows = await expectSameResults(
      h,
      "SELECT id, map_concat(m, MAP(ARRAY['c'], ARRAY[BIGINT '7'])) FROM maps WHERE m <> MAP(ARRAY['id', 'n'], ARRAY[BIGINT '0', BIGINT '0']) AND abs(id) % 991 = 1",
    );
    expect(rows.length).to.be.greaterThan(100);
  });

  it('aggregates with map_agg and histogram, and groups on maps across workers', async () => {
    const [[count]] = await expectSameResults(h, 'SELECT sum(cardinality(m)) FROM maps');
    expect(count).to.equal(BigInt(2 * BIG_ROWS));
    await expectSameResults(
      h,
      "SELECT m['n'], cardinality(map_agg(id, m['n'])), element_at(histogram(id % 3), 0) FROM maps GROUP BY m['n']",
    );
    await expectSameResults(h, "SELECT MAP(ARRAY['n'], ARRAY[m['n']]) AS k, count(*) FROM maps GROUP BY 1");
  });
});
