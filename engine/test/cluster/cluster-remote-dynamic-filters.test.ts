// Dynamic filters across stages on a lake cluster of a coordinator and 2 workers: a join whose
// probe key comes through an exchange (a grouped sum repartitioned by its key) filters the scan in
// the stage below. The coordinator unions the build's domain over the join's tasks and sends it to
// the scan's tasks, which wait for it before their first split (dynamic_filtering_wait_timeout):
// the scan then reads only the row groups holding build keys. TPC-H over Parquet answers as DuckDB
// does with the filters crossing stages (q20: partsupp's keys reach lineitem through its grouped
// sums). DuckDB reading the same files (or holding the same rows) is the oracle. A filter that
// comes after the wait (0s) changes no answer; a build that fails fails the query, with its own
// error, instead of leaving the scan waiting; a worker isolated while a query runs fails nothing;
// EXPLAIN marks the filters that cross stages `(remote)` (q02, q20).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbRows, explainMetricTotal } from '../connectors/lake/lake-fixture.js';
import { postStatement, query, runStatement } from '../support/statement-http.js';
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
    // A filter that arrives after the wait (none here) prunes only the splits still to read: the answer is the same.
    expect(
      await query(uri, grouped('lake.default.facts'), headers('dynamic_filtering_wait_timeout=0s,single_node_aggregation=false')),
    ).to.deep.equal([expected]);
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

  it('a domain of many 64-bit keys (sent packed) reaches the scan: it reads only their row groups, answering as DuckDB does', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => 5000 + i * 97);
    const byId = (facts: string) =>
      `SELECT CAST(count(*) AS varchar), CAST(sum(g.s) AS varchar) FROM (SELECT id, sum(k) AS s FROM ${facts} GROUP BY id) g JOIN (VALUES ${ids.map((id) => `(CAST(${id} AS BIGINT))`).join(', ')}) d(id) ON g.id = d.id`;
    const [expected] = await duckDbRows(byId(`read_parquet('${folder}/*.parquet')`));
    expect(expected).to.deep.equal(['40', String(ids.reduce((sum, id) => sum + Math.floor(id / 10), 0))]);
    const session = headers('dynamic_filtering_wait_timeout=60s,single_node_aggregation=false');
    expect(await query(cluster.coordinator.uri, byId('lake.default.facts'), session)).to.deep.equal([expected]);
    const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ANALYZE ${byId('lake.default.facts')}`, session))[0][0]);
    // Ids 5000-8783 span at most 2 of the 16 row groups (of at least 5,000 rows each).
    expect(explainMetricTotal(plan, 'dynamicFilterSplitsProcessed'), plan).to.equal(4);
    expect(explainMetricTotal(plan, 'rowGroupsRead'), plan).to.be.within(1, 2);
  });

  it('a build that fails fails the query with its error, not leaving the scan waiting for its filter', async () => {
    // The build's rows divide by zero at id 70 (k = 7): its join never completes, so the filter never comes.
    const failing = grouped('lake.default.facts').replace(
      'JOIN (VALUES (7), (4321), (7999)) d(k)',
      'JOIN (SELECT k FROM lake.default.facts WHERE id IN (70, 43210) AND 1 / (id - 70) > 0) d',
    );
    const outcome = await runStatement(
      cluster.coordinator.uri,
      failing,
      headers('dynamic_filtering_wait_timeout=600s,single_node_aggregation=false'),
    );
    expect(outcome.final.error?.errorName, JSON.stringify(outcome.final.error)).to.equal('DIVISION_BY_ZERO');
  });

  it('a worker isolated while a query with remote filters runs fails nothing: the query answers as DuckDB does', async () => {
    const uri = cluster.coordinator.uri;
    const [expected] = await duckDbRows(grouped(`read_parquet('${folder}/*.parquet')`));
    const worker = cluster.worker('worker-1').uri;
    const setState = async (state: string) => {
      const response = await fetch(`${worker}/v1/info/state`, {
        method: 'PUT',
        body: JSON.stringify(state),
        headers: { 'Content-Type': 'application/json' },
      });
      await response.text();
      expect(response.status, state).to.equal(200);
    };
    try {
      const session = headers('dynamic_filtering_wait_timeout=60s,single_node_aggregation=false');
      // The statement is created, and its tasks placed, before the worker leaves ACTIVE.
      const first = (await postStatement(uri, grouped('lake.default.facts'), { 'X-Engine-User': 'test', ...session })).body;
      await setState('ISOLATING');
      const rows: unknown[][] = [];
      let response = first;
      while (response.nextUri) {
        response = (await (await fetch(response.nextUri)).json()) as typeof first;
        expect(response.error, response.error?.message).to.equal(undefined);
        rows.push(...(response.data ?? []));
      }
      expect(rows).to.deep.equal([expected]);
    } finally {
      await setState('ACTIVE');
      await cluster.waitForActiveWorkers(2);
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

    // q17's lineitem scans take only filters of joins in their own fragments (its part build is broadcast).
    it('EXPLAIN marks the filters of q02 and q20 that cross stages (remote), on their join and on their scan', async () => {
      for (const q of [2, 20]) {
        const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${tpchQuery(q)}`, headers))[0][0]);
        const remote = (pattern: RegExp) => [...plan.matchAll(pattern)].map((m) => m[1]);
        const scans = remote(/= #(df_\d+) \(remote\)[,}]/g);
        const joins = remote(/-> #(df_\d+) \(remote\)[,}]/g);
        expect(scans.length, `q${q}\n${plan}`).to.be.above(0);
        expect([...scans].sort(), `q${q}\n${plan}`).to.deep.equal([...joins].sort());
      }
    });

    it("q20: lineitem's scan, below the repartitioned grouped sums, is filtered by partsupp's keys", async () => {
      const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ANALYZE ${tpchQuery(20)}`, headers))[0][0]);
      const lineitem = plan.split('\n\n').find((fragment) => fragment.includes('TableScan[table = lake:tpch.lineitem'));
      expect(lineitem, plan).to.match(/dynamicFilterSplitsProcessed = [1-9]/);
    });
  });
});
