// Identical source stages run once on a coordinator and two workers (share_identical_stages): a WITH
// query referenced more than once scans its table in one stage whose tasks feed every reference's
// stage, EXPLAIN says which fragments read it, and the answers equal DuckDB's over tpch and lake
// (Parquet) tables — referenced three times, with no rows, under a LIMIT. A query that fails or is
// cancelled after the shared stage started leaves no task running and no memory held on the workers.

import { expect } from 'chai';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { getJson, query, runStatement } from '../support/statement-http.js';
import { DONE_TASK_STATES, eventually, startUntilRunningOnWorker, tasksOf } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const LAKE = { ...TINY, 'X-Engine-Catalog': 'lake', 'X-Engine-Schema': 'default' };
const OFF = { 'X-Engine-Session': 'share_identical_stages=false' };

/** Referenced three times: both sides of a join and a scalar subquery (the join's probe copy reads a dynamic filter). */
const THREE_REFERENCES = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT a.k, a.c FROM t a JOIN t b ON a.k = b.k AND a.c = b.c WHERE a.c = (SELECT max(c) FROM t) ORDER BY a.k`;

/** Three scalar subqueries over it: one stage read by three. */
const THREE_SCALARS = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT (SELECT max(c) FROM t), (SELECT min(c) FROM t), (SELECT sum(c) FROM t)`;

/** No rows. */
const EMPTY = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders WHERE o_totalprice < 0 GROUP BY o_custkey)
  SELECT (SELECT count(c) FROM t), (SELECT max(c) FROM t)`;

/** One copy read under a LIMIT (its reader stops early), another in full. */
const UNDER_LIMIT = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT (SELECT count(*) FROM (SELECT k FROM t WHERE c > 0 LIMIT 5)), (SELECT sum(c) FROM t)`;

/** Fails above the shared stage, once the aggregation's rows reach it. */
const FAILING = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT (SELECT max(c) FROM t), (SELECT sum(1 / (c - c)) FROM t)`;

/** Long enough at sf1 to be cancelled while it runs. */
const LONG = `WITH t AS (SELECT l_suppkey AS s, sum(l_quantity) AS q FROM tpch.sf1.lineitem GROUP BY l_suppkey)
  SELECT (SELECT max(q) FROM t), (SELECT min(q) FROM t)`;

function lines(plan: string, pattern: RegExp): string[] {
  return plan.split('\n').filter((line) => pattern.test(line));
}

describe('identical source stages run once on a cluster (share_identical_stages)', function () {
  this.timeout(600_000);
  const duck = duckDbTpchTiny();
  const { cluster } = withLakeCluster(2, 'engine-shared-stages-');
  const explain = async (sql: string, headers: Record<string, string>) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, headers))[0][0]);

  /** What the workers hold once every task of `queryId` is done: nothing of it. */
  async function expectWorkersFreed(queryId: string): Promise<void> {
    for (const worker of cluster.workers.values()) {
      await eventually(
        `tasks of ${queryId} done on ${worker.uri}`,
        async () => ((await tasksOf(worker.uri, queryId)).every((t) => DONE_TASK_STATES.has(t.state)) ? true : undefined),
        30_000,
      );
      await eventually(
        `no memory held on ${worker.uri}`,
        async () => {
          const { body } = await getJson<{ memoryInfo: { pools: { general: { reservedBytes: number } } } }>(`${worker.uri}/v1/status`);
          return body.memoryInfo.pools.general.reservedBytes === 0 ? true : undefined;
        },
        30_000,
      );
    }
  }

  it("scans q15's lineitem once over tpch, to DuckDB's answer, and twice with the property off", async () => {
    const plan = await explain(tpchQuery(15), TINY);
    expect(lines(plan, /TableScan\[table = tpch:tiny\.lineitem/)).to.have.length(1);
    expect(lines(plan, /Output partitioning: HASH \[l_suppkey_\d+\] \(one stage read by fragments \d+, \d+\)/)).to.have.length(1);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), tpchQuery(15), TINY);
    const inlined = await explain(tpchQuery(15), { ...TINY, ...OFF });
    expect(lines(inlined, /TableScan\[table = tpch:tiny\.lineitem/)).to.have.length(2);
    expect(inlined).not.to.contain('one stage read by');
    await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), tpchQuery(15), { ...TINY, ...OFF });
  });

  it('shares a stage among three readers, one of whose copies read a dynamic filter, to DuckDB answers', async () => {
    for (const sql of [THREE_SCALARS, THREE_REFERENCES]) {
      const plan = await explain(sql, TINY);
      expect(lines(plan, /TableScan\[table = tpch:tiny\.orders/)).to.have.length(1);
      expect(lines(plan, /one stage read by fragments \d+, \d+, \d+\)/)).to.have.length(1);
    }
    for (const sql of [THREE_SCALARS, THREE_REFERENCES, UNDER_LIMIT])
      await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, TINY);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), EMPTY, TINY, { nonEmpty: true });
  });

  it('shares lake (Parquet) stages read on the workers, to DuckDB answers', async () => {
    for (const table of ['lineitem', 'supplier', 'orders'])
      await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${table} AS SELECT * FROM tpch.tiny.${table}`, TINY);
    const plan = await explain(tpchQuery(15), LAKE);
    expect(lines(plan, /TableScan\[table = lake:default\.lineitem/)).to.have.length(1);
    expect(plan).to.contain('one stage read by fragments');
    for (const sql of [tpchQuery(15), THREE_SCALARS, EMPTY, UNDER_LIMIT])
      await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, LAKE);
  });

  it('fails a query above a shared stage with its error, leaving nothing running or held on the workers', async () => {
    expect(await explain(FAILING, TINY)).to.contain('one stage read by fragments');
    const run = await runStatement(cluster.coordinator.uri, FAILING, TINY);
    expect(run.final.error?.errorName).to.equal('DIVISION_BY_ZERO');
    await expectWorkersFreed(run.final.id);
  });

  it('cancels a query while its shared stage runs, leaving nothing running or held on the workers', async () => {
    expect(await explain(LONG, TINY)).to.contain('one stage read by fragments');
    const { latest, queryId } = await startUntilRunningOnWorker(cluster, LONG, TINY);
    expect((await fetch(latest.nextUri!, { method: 'DELETE' })).status).to.equal(204);
    await expectWorkersFreed(queryId);
  });
});
