// map_union(map(K, V)): Trino's TestMapUnionAggregation cases (a key in several maps keeps one of
// their values, NULL maps are skipped, NULL values kept, container values) and functions/aggregate.md's
// description; grouped and over a window.

import { expect } from 'chai';
import { formatValueAsText } from '../../src/types/values.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('map_union', () => {
  const engine = new EngineHarness();
  const text = async (sql: string) => {
    const result = await engine.query(sql);
    return result.rows.map((row) => row.map((v, i) => formatValueAsText(v, result.columns[i].type)).join(' | '));
  };

  it("gives Trino's TestMapUnionAggregation unions (the first map's value for a shared key, as its state keeps the first)", async () => {
    expect(
      await text(`SELECT map_union(m) FROM (VALUES MAP(ARRAY[23.0E0, 33.0E0, 53.0E0], ARRAY['aaa', 'bbb', 'ddd']),
        MAP(ARRAY[43.0E0, 53.0E0, 13.0E0], ARRAY['ccc', 'ddd', 'eee'])) t(m)`),
    ).to.deep.equal(['{23.0=aaa, 33.0=bbb, 53.0=ddd, 43.0=ccc, 13.0=eee}']);
    expect(
      await text('SELECT map_union(m) FROM (VALUES MAP(ARRAY[false], ARRAY[12]), MAP(ARRAY[true, false], ARRAY[13, 33])) t(m)'),
    ).to.deep.equal(['{false=12, true=13}']);
    expect(
      await text(`SELECT map_union(m) FROM (VALUES MAP(ARRAY[23.0E0, 33.0E0, 53.0E0], ARRAY['aaa', NULL, 'ddd']), NULL,
        MAP(ARRAY[43.0E0, 53.0E0], ARRAY['ccc', 'ddd'])) t(m)`),
    ).to.deep.equal(['{23.0=aaa, 33.0=NULL, 53.0=ddd, 43.0=ccc}']);
    expect(
      await text(`SELECT map_union(m) FROM (VALUES MAP(ARRAY[1.0E0, 2.0E0], ARRAY[ARRAY['a', 'b'], ARRAY['c', 'd']]),
        MAP(ARRAY[1.0E0, 4.0E0], ARRAY[ARRAY['x', 'y'], ARRAY['r', 's']])) t(m)`),
    ).to.deep.equal(['{1.0=[a, b], 2.0=[c, d], 4.0=[r, s]}']);
  });

  it('is NULL for no rows, only NULL maps or only empty maps (an empty state), per group and over a window', async () => {
    expect(await text('SELECT map_union(m) FROM (VALUES MAP(ARRAY[1], ARRAY[2])) t(m) WHERE false')).to.deep.equal(['NULL']);
    expect(await text('SELECT map_union(m) FROM (VALUES CAST(NULL AS map(integer, integer)), MAP()) t(m)')).to.deep.equal(['NULL']);
    expect(
      await text(`SELECT g, map_union(m) FROM (VALUES (1, MAP(ARRAY['a'], ARRAY[1])), (1, MAP(ARRAY['b'], ARRAY[2])), (2, NULL)) t(g, m)
        GROUP BY g ORDER BY g`),
    ).to.deep.equal(['1 | {a=1, b=2}', '2 | NULL']);
    expect(
      await text(`SELECT map_union(m) OVER (ORDER BY k) FROM (VALUES (1, MAP(ARRAY['a'], ARRAY[1])), (2, MAP(ARRAY['a', 'b'], ARRAY[5, 2]))) t(k, m)
        ORDER BY k`),
    ).to.deep.equal(['{a=1}', '{a=1, b=2}']);
  });

  it('unions the histograms of functions/aggregate.md per key over groups, whatever the group a key first came from', async () => {
    const rows = await text(
      `SELECT map_union(h) FROM (SELECT histogram(v) h FROM (VALUES (1, 4), (1, 5), (2, 5), (3, 1)) t(g, v) GROUP BY g)`,
    );
    expect(rows).to.have.length(1);
    expect(rows[0].slice(1, -1).split(', ').sort()).to.deep.equal(['1=1', '4=1', '5=1']);
  });

  it('takes a map argument only', async () => {
    const e = await engine.failure('SELECT map_union(1)');
    expect([e.errorName, e.message]).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (integer) for function map_union. Expected: map_union(map(K,V)) K, V',
    ]);
  });
});
