// SHOW STATS FOR table and FOR (query) over the connectors that know row counts (tpch, memory), in
// Trino's shape: a row per column, then a summary row with a NULL column_name and the row count;
// unknown figures are NULL. Lake tables' column figures are checked against DuckDB in
// test/connectors/lake/lake-statistics.test.ts.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('SHOW STATS', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE TABLE memory.default.t (a integer, b varchar)',
      "INSERT INTO memory.default.t VALUES (1, 'x'), (2, NULL), (3, 'z')",
    );
  });

  it('prints Trino columns: a row per column and the row count in a last row with a NULL column_name', async () => {
    const result = await h.query('SHOW STATS FOR tpch.tiny.nation');
    expect(result.columns.map((c) => `${c.name} ${c.type.kind}`)).to.deep.equal([
      'column_name varchar',
      'data_size double',
      'distinct_values_count double',
      'nulls_fraction double',
      'row_count double',
      'low_value varchar',
      'high_value varchar',
    ]);
    // The tpch connector's distinct counts are checked against DuckDB's in test/tpch/column-statistics.test.ts.
    const counted = (ndv: number) => [null, ndv, 0, null, null, null];
    expect(await h.rows('SHOW STATS FOR tpch.tiny.nation')).to.deep.equal([
      ['n_nationkey', ...counted(25)],
      ['n_name', ...counted(25)],
      ['n_regionkey', ...counted(5)],
      ['n_comment', ...counted(25)],
      [null, null, null, null, 25, null, null],
    ]);
    expect((await h.rows('SHOW STATS FOR memory.default.t')).at(-1)).to.deep.equal([null, null, null, null, 3, null, null]);
  });

  it('of a query: its output columns, the row count where the plan keeps it known, else NULL', async () => {
    expect(await h.rows('SHOW STATS FOR (SELECT n_name AS name FROM tpch.tiny.nation ORDER BY n_name)')).to.deep.equal([
      ['name', null, 25, 0, null, null, null],
      [null, null, null, null, 25, null, null],
    ]);
    expect((await h.rows('SHOW STATS FOR (SELECT * FROM tpch.tiny.nation LIMIT 10)')).at(-1)![4]).to.equal(10);
    expect((await h.rows('SHOW STATS FOR (SELECT count(*) FROM tpch.tiny.lineitem)')).at(-1)![4]).to.equal(1);
    expect((await h.rows('SHOW STATS FOR (VALUES 1, 2, 3)')).at(-1)![4]).to.equal(3);
    // A filter's selectivity is not known without estimating it: NULL, not a guess.
    expect((await h.rows('SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE n_regionkey = 1)')).at(-1)![4]).to.equal(null);
  });

  it('fails as a query naming the table would, at the name', async () => {
    const e = await h.failure('SHOW STATS FOR tpch.tiny.nosuch');
    expect([e.errorName, e.message]).to.deep.equal(['TABLE_NOT_FOUND', "line 1:16: Table 'tpch.tiny.nosuch' does not exist"]);
  });
});
