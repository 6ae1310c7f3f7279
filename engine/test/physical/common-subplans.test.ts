// A WITH query referenced more than once, still the same aggregation after the optimizer, runs once
// (materialize_common_table_expressions): EXPLAIN shows its plan under the first Spool and the other
// references as Spools replaying it, and the answers equal DuckDB's on tpch.tiny. A WITH query used
// once keeps its plan, a volatile one (random()) stays inlined. On a single node, copies in different
// fragments over scans whose splits are assigned as they come (tpch, lake) run once too, the
// producer's task feeding the others (also when it sits on a join's probe side or under a LIMIT); a
// coordinator (not a single node) plans no spool across a cluster's source fragments (identical ones
// share a stage instead: cluster-shared-stages.test.ts), to the same answers; a cluster's
// coordinator-only fragment over memory tables runs it once.

import { expect } from 'chai';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { expectDuckDbAnswer as expectClusterAnswer } from '../cluster/duckdb-answer.js';
import { withLakeCluster } from '../cluster/lake-cluster-fixture.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { query } from '../support/statement-http.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HiveConnector } from '../../src/connectors/hive/hive-connector.js';

const OFF = { materialize_common_table_expressions: 'false' };

/** Referenced three times: both sides of a join and a scalar subquery. */
const THREE_REFERENCES = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT a.k, a.c FROM t a JOIN t b ON a.k = b.k AND a.c = b.c WHERE a.c = (SELECT max(c) FROM t) ORDER BY a.k`;

/** b (over a) referenced twice. */
const NESTED = `WITH a AS (SELECT l_orderkey AS k, sum(l_quantity) AS q FROM lineitem GROUP BY l_orderkey),
  b AS (SELECT q, count(*) AS n FROM a GROUP BY q)
  SELECT b.q, b.n FROM b WHERE b.n = (SELECT max(n) FROM b) ORDER BY b.q`;

/** Both sides of a join read it: the probe side's scan would read the join's dynamic filter. */
const JOIN_SIDES = `WITH t AS (SELECT l_suppkey AS s, sum(l_quantity) AS q FROM lineitem GROUP BY l_suppkey)
  SELECT a.s, a.q, b.q FROM t a JOIN t b ON a.s = b.s + 1 ORDER BY a.s`;

/** No rows. */
const EMPTY = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders WHERE o_totalprice < 0 GROUP BY o_custkey)
  SELECT (SELECT count(c) FROM t), (SELECT max(c) FROM t)`;

/** The same WITH query under different filters, as two branches of a UNION ALL. */
const DIFFERENT_FILTERS = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT 'many' AS side, k, c FROM t WHERE c > 25 UNION ALL SELECT 'few', k, c FROM t WHERE c < 3 ORDER BY side, k`;

/** One copy read under a LIMIT (its reader stops early), another in full. */
const UNDER_LIMIT = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
  SELECT (SELECT count(*) FROM (SELECT k FROM t WHERE c > 0 LIMIT 5)), (SELECT sum(c) FROM t)`;

const ONCE = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey) SELECT max(c) FROM t`;

const VOLATILE = `WITH t AS (SELECT o_custkey AS k, sum(o_totalprice * random()) AS s FROM orders GROUP BY o_custkey)
  SELECT count(*) FROM t a JOIN t b ON a.k = b.k WHERE a.s >= 0 AND b.s >= 0`;

function count(plan: string, pattern: RegExp): number {
  return plan.split('\n').filter((line) => pattern.test(line)).length;
}

describe('a WITH query referenced more than once runs once (materialize_common_table_expressions)', function () {
  this.timeout(600_000);
  const duck = duckDbTpchTiny();

  describe('on one node', () => {
    let engine: EngineHarness;
    const withSession = <T>(properties: Record<string, string>, work: () => Promise<T>) => engine.withSession(properties, work);
    const explain = async (sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((row) => String(row[0])).join('\n');

    before(async () => {
      engine = new EngineHarness();
      await engine.run('CREATE SCHEMA memory.tiny');
      for (const table of ['lineitem', 'supplier', 'orders'])
        await engine.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
      engine.session.schema = 'tiny';
    });

    it("runs q15's revenue0 once over memory tables, to DuckDB's answer, and twice with the property off", async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(tpchQuery(15));
      expect(count(plan, /Spool\[commonSubplan = \d+, consumers = 2\]/)).to.equal(2);
      expect(count(plan, /TableScan\[table = memory:tiny\.lineitem/)).to.equal(1);
      await expectDuckDbAnswer(engine, duck.get(), tpchQuery(15));
      await withSession(OFF, async () => {
        const inlined = await explain(tpchQuery(15));
        expect(count(inlined, /Spool\[/)).to.equal(0);
        expect(count(inlined, /TableScan\[table = memory:tiny\.lineitem/)).to.equal(2);
        await expectDuckDbAnswer(engine, duck.get(), tpchQuery(15));
      });
    });

    it("inlines q15's revenue0 over scans whose splits are assigned as they come (the tpch connector)", async () => {
      engine.session.catalog = 'tpch';
      const plan = await explain(tpchQuery(15));
      expect(plan).to.contain('splits = assigned');
      expect(count(plan, /Spool\[/)).to.equal(0);
      await expectDuckDbAnswer(engine, duck.get(), tpchQuery(15));
    });

    it('runs a WITH query referenced three times once', async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(THREE_REFERENCES);
      expect(count(plan, /Spool\[commonSubplan = \d+, consumers = 3\]/)).to.equal(3);
      expect(count(plan, /TableScan\[table = memory:tiny\.orders/)).to.equal(1);
      await expectDuckDbAnswer(engine, duck.get(), THREE_REFERENCES);
    });

    it('runs a WITH query over another WITH query once', async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(NESTED);
      expect(count(plan, /Spool\[commonSubplan = \d+, consumers = 2\]/)).to.equal(2);
      expect(count(plan, /TableScan\[table = memory:tiny\.lineitem/)).to.equal(1);
      await expectDuckDbAnswer(engine, duck.get(), NESTED);
    });

    it('feeds both sides of a join from one run, without the join dynamic filter of one side', async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(JOIN_SIDES);
      expect(count(plan, /Spool\[/)).to.equal(2);
      expect(count(plan, /TableScan\[table = memory:tiny\.lineitem/)).to.equal(1);
      expect(plan).not.to.contain('dynamicFilters = {');
      await expectDuckDbAnswer(engine, duck.get(), JOIN_SIDES);
    });

    it('replays an empty WITH query', async () => {
      engine.session.catalog = 'memory';
      expect(count(await explain(EMPTY), /Spool\[/)).to.equal(2);
      await expectDuckDbAnswer(engine, duck.get(), EMPTY);
    });

    it('keeps the plan of a WITH query used once', async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(ONCE);
      expect(plan).not.to.contain('Spool[');
      expect(await withSession(OFF, () => explain(ONCE))).to.equal(plan);
      await expectDuckDbAnswer(engine, duck.get(), ONCE);
    });

    it('inlines a volatile WITH query (random())', async () => {
      engine.session.catalog = 'memory';
      const plan = await explain(VOLATILE);
      expect(plan).not.to.contain('Spool[');
      expect(count(plan, /TableScan\[table = memory:tiny\.orders/)).to.equal(2);
      await expectDuckDbAnswer(engine, duck.get(), VOLATILE);
    });
  });

  describe("on a single node, across its fragments' tasks", () => {
    let engine: EngineHarness;
    let lakeDir: string;
    const explain = async (sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((row) => String(row[0])).join('\n');
    const withSession = <T>(properties: Record<string, string>, work: () => Promise<T>) => engine.withSession(properties, work);

    before(async () => {
      engine = new EngineHarness({ singleNode: true });
      lakeDir = mkdtempSync(join(tmpdir(), 'engine-cte-lake-'));
      engine.catalogs.register('lake', new HiveConnector('lake', { catalogDir: `file://${join(lakeDir, 'catalog')}/`, fileSystem: {} }));
      for (const table of ['lineitem', 'supplier', 'orders'])
        await engine.run(`CREATE TABLE lake.default.${table} AS SELECT * FROM tpch.tiny.${table}`);
    });
    after(() => rmSync(lakeDir, { recursive: true, force: true }));

    for (const [catalog, schema] of [
      ['tpch', 'tiny'],
      ['lake', 'default'],
    ]) {
      it(`runs q15's revenue0 once over ${catalog} scans in two fragments, to DuckDB's answer, and twice with the property off`, async () => {
        engine.session.catalog = catalog;
        engine.session.schema = schema;
        const plan = await explain(tpchQuery(15));
        expect(count(plan, /Spool\[commonSubplan = \d+, consumers = 2, acrossFragments\]/)).to.equal(2);
        expect(count(plan, /computed once in another fragment/)).to.equal(1);
        expect(count(plan, new RegExp(`TableScan\\[table = ${catalog}:${schema}\\.lineitem`))).to.equal(1);
        await expectDuckDbAnswer(engine, duck.get(), tpchQuery(15));
        await withSession(OFF, async () => {
          const inlined = await explain(tpchQuery(15));
          expect(count(inlined, /Spool\[/)).to.equal(0);
          expect(count(inlined, new RegExp(`TableScan\\[table = ${catalog}:${schema}\\.lineitem`))).to.equal(2);
          await expectDuckDbAnswer(engine, duck.get(), tpchQuery(15));
        });
      });
    }

    it('feeds WITH queries referenced two and three times, nested, empty, under different filters and a LIMIT, to DuckDB answers', async () => {
      engine.session.catalog = 'tpch';
      engine.session.schema = 'tiny';
      for (const sql of [THREE_REFERENCES, NESTED, JOIN_SIDES, EMPTY, DIFFERENT_FILTERS, UNDER_LIMIT]) {
        expect(count(await explain(sql), /acrossFragments/), sql).to.be.greaterThan(0);
        await expectDuckDbAnswer(engine, duck.get(), sql);
      }
    });

    it('produces a copy on the probe side of a join whose build side replays it (no dynamic filter to rule that copy out)', async () => {
      engine.session.catalog = 'tpch';
      engine.session.schema = 'tiny';
      await withSession({ enable_dynamic_filtering: 'false' }, async () => {
        expect(count(await explain(JOIN_SIDES), /acrossFragments/)).to.equal(2);
        await expectDuckDbAnswer(engine, duck.get(), JOIN_SIDES);
      });
    });

    it('inlines a volatile WITH query (random())', async () => {
      engine.session.catalog = 'tpch';
      engine.session.schema = 'tiny';
      const plan = await explain(VOLATILE);
      expect(plan).not.to.contain('Spool[');
      expect(count(plan, /TableScan\[table = tpch:tiny\.orders/)).to.equal(2);
      await expectDuckDbAnswer(engine, duck.get(), VOLATILE);
    });
  });

  describe('on a coordinator with two workers', () => {
    const cluster = withLakeCluster(2, 'engine-cte-cluster-', () => '  - name: memory\n    connector: memory\n').cluster;
    const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };

    it('inlines over splits assigned as they come, to DuckDB answers', async () => {
      const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${tpchQuery(15)}`, TINY))[0][0]);
      expect(plan).not.to.contain('Spool[');
      for (const sql of [tpchQuery(15), THREE_REFERENCES, NESTED, JOIN_SIDES, EMPTY])
        await expectClusterAnswer(cluster.coordinator.uri, duck.get(), sql, TINY);
    });

    it('inlines over lake tables (Parquet) read on the workers, to DuckDB answers', async () => {
      for (const table of ['lineitem', 'supplier', 'orders'])
        await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${table} AS SELECT * FROM tpch.tiny.${table}`, TINY);
      const LAKE = { ...TINY, 'X-Engine-Catalog': 'lake', 'X-Engine-Schema': 'default' };
      const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${tpchQuery(15)}`, LAKE))[0][0]);
      expect(plan).not.to.contain('Spool[');
      for (const sql of [tpchQuery(15), DIFFERENT_FILTERS, UNDER_LIMIT])
        await expectClusterAnswer(cluster.coordinator.uri, duck.get(), sql, LAKE);
    });

    it("runs q15's revenue0 once over memory tables (a coordinator-only fragment), to DuckDB's answer", async () => {
      await query(cluster.coordinator.uri, 'CREATE SCHEMA memory.tiny', TINY);
      for (const table of ['lineitem', 'supplier'])
        await query(cluster.coordinator.uri, `CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`, TINY);
      const MEMORY = { ...TINY, 'X-Engine-Catalog': 'memory' };
      const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${tpchQuery(15)}`, MEMORY))[0][0]);
      expect(count(plan, /Spool\[commonSubplan = \d+, consumers = 2\]/)).to.equal(2);
      await expectClusterAnswer(cluster.coordinator.uri, duck.get(), tpchQuery(15), MEMORY);
    });
  });
});
