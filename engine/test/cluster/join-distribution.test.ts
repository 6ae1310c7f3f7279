// How joins spread over tasks (EXPLAIN: `distribution = REPLICATED | PARTITIONED`) under
// join_distribution_type AUTOMATIC, as Trino decides it: a build side estimated over
// join_max_broadcast_table_size is never replicated; below it, one node replicates every build side
// (its threads then probe one build side), and a cluster replicates when that handles fewer rows
// than repartitioning both sides. The session properties override the choice, right and full joins
// are never replicated, and the answers equal DuckDB's on one node and on a coordinator with two
// workers, whichever way the joins go.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from '../support/engine-harness.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

/** The join of q3 whose build side is orders (about 750,000 rows estimated on sf1, some 10 to 30MB). */
const Q3_ORDERS_JOIN = /InnerJoin\[criteria = \(l_orderkey_\d+ = o_orderkey_\d+\)[^\]]*\]/;

/** A build side of 6,000,000 rows of 16 columns (lineitem on sf1): over 100MB estimated. */
const LINEITEM_BUILD =
  "SELECT count(*) FROM lineitem a JOIN (SELECT * FROM lineitem WHERE l_comment <> 'x') b ON a.l_orderkey = b.l_orderkey AND a.l_comment = b.l_comment";

/** A small build side (nation): replicated everywhere. */
const SMALL_BUILD =
  'SELECT n.n_name, count(*), sum(c.c_acctbal) FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey GROUP BY 1 ORDER BY 1';

/**
 * A build side of more rows than its probe side (EXISTS over rich customers, per nation: a semi join
 * probes the outer query's rows): on two nodes replicating it takes each node all build rows, more
 * than repartitioning both sides handles; on one node nothing moves.
 */
const BIG_BUILD = `SELECT n.n_name, n.n_nationkey FROM nation n
  WHERE EXISTS (SELECT 1 FROM customer c WHERE c.c_nationkey = n.n_nationkey AND c.c_acctbal > 9000) ORDER BY 1`;

function joinLines(plan: string): string[] {
  return plan.split('\n').filter((line) => /Join\[/.test(line));
}

describe('join distribution (broadcast or partitioned) by estimated build size and nodes', function () {
  this.timeout(600_000);
  let duck: DuckDBConnection;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  describe('on one node', () => {
    let engine: EngineHarness;
    const explain = async (sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((row) => String(row[0])).join('\n');
    const withSession = <T>(properties: Record<string, string>, work: () => Promise<T>) => engine.withSession(properties, work);

    beforeEach(() => {
      engine = new EngineHarness();
      engine.session.catalog = 'tpch';
      engine.session.schema = 'sf1';
    });

    it("replicates a build side of some MB (q3's orders on sf1), which its probe's threads then probe", async () => {
      const join = Q3_ORDERS_JOIN.exec(await explain(tpchQuery(3)))![0];
      expect(join).to.contain('distribution = REPLICATED');
      expect(join).to.contain('probe = parallel');
    });

    it("replicates every join of q18 on sf1; the joins over orders are probed in its scan's threads", async () => {
      const joins = joinLines(await explain(tpchQuery(18)));
      expect(joins).to.have.length(3);
      for (const join of joins) expect(join).to.contain('distribution = REPLICATED');
      // The IN's orders are estimated from l_orderkey's 1.5M distinct keys times a fixed share for
      // HAVING sum(...) > 300 (really 57 rows): too many names to copy to each thread, so lineitem's
      // join stays in the main thread (its dynamic filter still cuts lineitem in the scan's threads).
      const overOrders = joins.filter((join) => /o_custkey|o_orderkey_\d+ = l_orderkey/.test(join));
      expect(overOrders).to.have.length(2);
      for (const join of overOrders) expect(join).to.contain('probe = parallel');
    });

    it('partitions a build side estimated over 100MB (lineitem on sf1)', async () => {
      expect(joinLines(await explain(LINEITEM_BUILD))).to.have.length(1);
      expect(joinLines(await explain(LINEITEM_BUILD))[0]).to.contain('distribution = PARTITIONED');
    });

    it('join_max_broadcast_table_size lowers the limit, join_distribution_type overrides it', async () => {
      const q3 = async () => Q3_ORDERS_JOIN.exec(await explain(tpchQuery(3)))![0];
      expect(await withSession({ join_max_broadcast_table_size: '1MB' }, q3)).to.contain('distribution = PARTITIONED');
      expect(await withSession({ join_distribution_type: 'PARTITIONED' }, q3)).to.contain('distribution = PARTITIONED');
      expect(joinLines(await withSession({ join_distribution_type: 'BROADCAST' }, () => explain(LINEITEM_BUILD)))[0]).to.contain(
        'distribution = REPLICATED',
      );
    });

    it('never replicates the build side of a right or full join, however small', async () => {
      for (const kind of ['RIGHT', 'FULL']) {
        const joins = joinLines(
          await explain(`SELECT count(*), count(n.n_name) FROM customer c ${kind} JOIN nation n ON c.c_nationkey = n.n_nationkey`),
        );
        expect(joins).to.have.length(1);
        expect(joins[0]).to.contain('distribution = PARTITIONED');
      }
    });

    it('refuses a limit that is not a data size', async () => {
      const error = await engine.query("SET SESSION join_max_broadcast_table_size = 'big'").then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).to.contain("'big' is not a data size");
    });

    const settings: Record<string, Record<string, string>> = { AUTOMATIC: {}, 'over the limit': { join_max_broadcast_table_size: '0B' } };
    for (const [name, properties] of Object.entries(settings)) {
      it(`answers q3, q5, q9, q18 and q21 on tiny as DuckDB does (${name})`, async () => {
        engine.session.schema = 'tiny';
        await withSession(properties, async () => {
          for (const q of [3, 5, 9, 18, 21]) {
            const distributions = joinLines(await explain(tpchQuery(q)))
              .filter((line) => !line.includes('null-aware'))
              .map((line) => /distribution = (\w+)/.exec(line)?.[1]);
            expect(new Set(distributions), `q${q}`).to.deep.equal(new Set([name === 'AUTOMATIC' ? 'REPLICATED' : 'PARTITIONED']));
            const ours = await engine.query(tpchQuery(q));
            expect(ours.rows.length, 'no rows: the comparison would be empty').to.be.greaterThan(0);
            const difference = firstDifference(
              ours.rows,
              ours.columns.map((c) => c.type),
              ours.columns.map((c) => c.name),
              await duckRows(duck, tpchQuery(q)),
            );
            expect(difference, `q${q}: ${difference}`).to.equal(undefined);
          }
        });
      });
    }

    it('replicates the build side of more rows than its probe side that two nodes partition', async () => {
      engine.session.schema = 'tiny';
      expect(joinLines(await explain(BIG_BUILD))[0]).to.contain('distribution = REPLICATED');
    });
  });

  describe('on a coordinator with two workers', () => {
    const cluster = withCluster(2);
    const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
    const explain = async (sql: string, headers: Record<string, string> = TINY) =>
      String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, headers))[0][0]);

    const expectClusterAnswer = (sql: string, headers: Record<string, string>) =>
      expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, headers);

    it('replicates a small build side', async () => {
      expect(joinLines(await explain(SMALL_BUILD))[0]).to.contain('distribution = REPLICATED');
      await expectClusterAnswer(SMALL_BUILD, TINY);
    });

    it('partitions a build side whose rows, replicated to each node, outnumber both sides partitioned', async () => {
      // A semi join replicates its probe side to the build side's tasks instead (probe-replicated-mark-join.test).
      const moved = { ...TINY, 'X-Engine-Session': 'distributed_mark_join=false' };
      expect(joinLines(await explain(BIG_BUILD, moved))[0]).to.contain('distribution = PARTITIONED');
      await expectClusterAnswer(BIG_BUILD, moved);
      expect(joinLines(await explain(BIG_BUILD))[0]).to.contain('distribution = PROBE_REPLICATED');
      await expectClusterAnswer(BIG_BUILD, TINY);
      const broadcast = { ...TINY, 'X-Engine-Session': 'join_distribution_type=BROADCAST' };
      expect(joinLines(await explain(BIG_BUILD, broadcast))[0]).to.contain('distribution = REPLICATED');
      await expectClusterAnswer(BIG_BUILD, broadcast);
    });

    it('partitions every join over join_max_broadcast_table_size, to the same answers', async () => {
      const limited = { ...TINY, 'X-Engine-Session': 'join_max_broadcast_table_size=0B' };
      for (const q of [3, 5, 18]) {
        // A null-aware semi join (q18's IN) must see every build row in each task: it is always replicated.
        const joins = joinLines(await explain(tpchQuery(q), limited)).filter((line) => !line.includes('null-aware'));
        expect(joins.length).to.be.greaterThan(0);
        for (const join of joins) expect(join).to.contain('distribution = PARTITIONED');
        await expectClusterAnswer(tpchQuery(q), limited);
      }
    });
  });
});
