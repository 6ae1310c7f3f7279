// Dynamic filters across stages on a lake cluster of a coordinator and 2 workers: a join whose
// probe key comes through an exchange (a grouped sum repartitioned by its key) filters the scan in
// the stage below. The coordinator unions the build's domain over the join's tasks and sends it to
// the scan's tasks, which wait for it before their first split (dynamic_filtering_wait_timeout):
// the scan then reads only the row groups holding build keys. TPC-H over Parquet answers as DuckDB
// does with the filters crossing stages (q20: partsupp's keys reach lineitem through its grouped
// sums). DuckDB reading the same files (or holding the same rows) is the oracle.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbRows, explainMetricTotal } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

describe('dynamic filters across stages on a lake cluster of a coordinator and 2 workers', function () {
  this.timeout(180_000);
  const lake = withLakeCluster(2, 'engine-remote-df-');
  const { cluster } = lake;
  let folder = '';

  before(async () => {
    folder = join(lake.dir, 'facts');
    mkdirSync(folder, { recursive: true });
    for (let file = 0; file < 4; file++) {
      await duckDbRows(
        `COPY (SELECT i::BIGINT AS id, (i // 10)::INTEGER AS k FROM range(${file * 20000}, ${file * 20000 + 20000}) r(i)) TO '${folder}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 5000)`,
      );
    }
    await query(cluster.coordinator.uri, `CREATE TABLE lake.default.facts WITH (external_location = 'file://${folder}/')`);
  });

  // The grouped sums are repartitioned by k to the join's stage: the join and the scan are in different fragments.
  const grouped = (facts: string) =>
    `SELECT CAST(count(*) AS varchar), CAST(sum(g.s) AS varchar) FROM (SELECT k, sum(id) AS s FROM ${facts} GROUP BY k) g JOIN (VALUES (7), (4321), (7999)) d(k) ON g.k = d.k`;
  const headers = (session: string): Record<string, string> => ({ 'X-Trino-Session': session });

  it('the scan below the exchange reads only the row groups of the build keys, answering as DuckDB does', async () => {
    const uri = cluster.coordinator.uri;
    const [expected] = await duckDbRows(grouped(`read_parquet('${folder}/*.parquet')`));
    for (const session of [
      'dynamic_filtering_wait_timeout=60s,single_node_aggregation=false',
      'enable_dynamic_filtering=false,single_node_aggregation=false',
    ]) {
      expect(await query(uri, grouped('lake.default.facts'), headers(session)), session).to.deep.equal([expected]);
      const plan = String((await query(uri, `EXPLAIN ANALYZE ${grouped('lake.default.facts')}`, headers(session)))[0][0]);
      const total = (metric: string) => explainMetricTotal(plan, metric);
      const filtered = session.startsWith('dynamic_filtering_wait_timeout');
      // Keys 7, 4321 and 7999 lie in 3 of the 16 row groups.
      expect([total('rowGroupsRead'), total('dynamicFilterSplitsProcessed')], plan).to.deep.equal(filtered ? [3, 4] : [16, 0]);
    }
  });

  describe('TPC-H tiny over Parquet', () => {
    let duck: DuckDBConnection;
    const headers = {
      'X-Engine-User': 'test',
      'X-Engine-Catalog': 'lake',
      'X-Engine-Schema': 'tpch',
      'X-Trino-Session': 'dynamic_filtering_wait_timeout=60s',
    };

    before(async () => {
      duck = await duckDbWithTpch('tiny', 1);
      const uri = cluster.coordinator.uri;
      await query(uri, 'CREATE SCHEMA lake.tpch');
      for (const table of TPCH_TABLE_NAMES) {
        const folder = join(lake.dir, 'tpch', table);
        mkdirSync(folder, { recursive: true });
        // Small row groups: many splits, some of which hold no build key.
        await duck.run(`COPY ${table} TO '${folder}/${table}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 4096)`);
        await query(uri, `CREATE TABLE lake.tpch.${table} WITH (external_location = 'file://${folder}/')`);
      }
    });

    after(() => duck?.closeSync());

    for (let q = 1; q <= 22; q++) {
      it(`q${String(q).padStart(2, '0')}`, async () => {
        await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(q), headers, { label: `q${q}` });
      });
    }

    it("q20: lineitem's scan, below the repartitioned grouped sums, is filtered by partsupp's keys", async () => {
      const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ANALYZE ${tpchQuery(20)}`, headers))[0][0]);
      const lineitem = plan.split('\n\n').find((fragment) => fragment.includes('TableScan[table = lake:tpch.lineitem'));
      expect(lineitem, plan).to.match(/dynamicFilterSplitsProcessed = [1-9]/);
    });
  });
});
