// Map columns in a lake catalog on a coordinator and 2 workers sharing one folder: CREATE TABLE AS
// from tpch writes map columns on the workers in Parquet's MAP layout, DuckDB reads the files back
// equal to the query's own answer, and every node reads the table back the same, across the
// exchange.

import { expect } from 'chai';
import { join } from 'node:path';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

describe('lake map columns on a cluster of a coordinator and 2 workers', function () {
  this.timeout(180_000);
  const lake = withLakeCluster(2, 'engine-lake-maps-cluster-');
  const { cluster } = lake;

  it('CREATE TABLE AS writes map columns that DuckDB reads back equal, and the workers read them back', async () => {
    const uri = cluster.coordinator.uri;
    const select = `SELECT o_orderkey AS id,
        CASE WHEN o_orderkey % 4 = 0 THEN NULL WHEN o_orderkey % 4 = 1 THEN CAST(map() AS map(varchar, bigint)) ELSE MAP(ARRAY[o_orderstatus, o_orderpriority], ARRAY[o_custkey, NULL]) END AS counts,
        MAP(ARRAY[o_orderkey, -o_orderkey], ARRAY[o_clerk, NULL]) AS clerks
      FROM tpch.tiny.orders`;
    expect(await query(uri, `CREATE TABLE lake.default.maps_written AS ${select}`)).to.deep.equal([[15000]]);
    const files = `read_parquet('${join(lake.dir, 'catalog', 'default', 'maps_written')}/*.parquet')`;
    const duck = await duckDbRows(
      `SELECT id, to_json(counts)::VARCHAR, to_json(clerks)::VARCHAR FROM ${files} WHERE id % 11 = 3 ORDER BY id`,
    );
    const expected = await query(uri, `SELECT id, counts, clerks FROM (${select}) WHERE id % 11 = 3 ORDER BY id`);
    expect(expected.length).to.be.greaterThan(1000);
    expect(duck.map(([id, ...maps]) => [Number(id), ...maps.map((m) => (m === null ? null : JSON.parse(m as string)))])).to.deep.equal(
      expected,
    );
    expect(await query(uri, 'SELECT id, counts, clerks FROM lake.default.maps_written WHERE id % 11 = 3 ORDER BY id')).to.deep.equal(
      expected,
    );
    const totals = `SELECT count(*), sum(cardinality(counts)), sum(k) FROM lake.default.maps_written CROSS JOIN UNNEST(clerks) AS u(k, v) WHERE v IS NOT NULL`;
    expect(await query(uri, totals)).to.deep.equal(
      await duckDbRows(
        `SELECT count(*), sum(cardinality(counts)), sum(k)::BIGINT FROM (SELECT counts, unnest(map_keys(clerks)) AS k, unnest(map_values(clerks)) AS v FROM ${files}) WHERE v IS NOT NULL`,
      ).then((rows) => rows.map((r) => r.map(Number))),
    );
  });
});
