// A region of inner joins starts its left-deep chain from the small filtered input farthest (in key
// joins) from the biggest input, and a small filtered input only the next input's keys reach joins
// that input first (join_chain_far_start): TPC-H q07's lineitem is then reached last and probed on the
// threads, against customers' orders and the suppliers of the pair of nations, instead of being
// scanned in the main thread inside the customer join's build side. Answers equal DuckDB's on the
// same rows with the choice on and off: TPC-H queries whose plans it changes (q02 at sf0.1, q07) or
// that join the same tables (q03, q08, q09), and a snowflake of NULL and duplicate keys, inner and
// under a LEFT join. The chain's next input (join_chain_fewer_rows_next): q09's parts join partsupp
// before lineitem, which then probes them; q09 and q17 (whose plans it changes) answer as DuckDB does
// with it on and off.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { EngineAndDuckDb, expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { IN_WORKERS } from '../parallel/parallel-helpers.js';

const OFF = { join_chain_far_start: 'false' };
const QUERIES = [2, 3, 7, 8, 9];
const NEXT_OFF = { join_chain_fewer_rows_next: 'false' };
const NEXT_QUERIES = [9, 17];
/** q09's join of partsupp to the filtered parts, made before lineitem is reached. */
const PARTSUPP_TO_PARTS = /Join\[criteria = \(ps_partkey_\d+ = p_partkey_\d+\)/;

/** The plan's lines from the lineitem scan's on, up to the next plan node: whether it runs on the threads. */
function lineitemScan(plan: string): string {
  const lines = plan.split('\n');
  const at = lines.findIndex((l) => l.includes('TableScan[table = memory:') && l.includes('.lineitem'));
  expect(at, 'a lineitem scan').to.be.greaterThan(-1);
  return lines.slice(at, at + 3).join('\n');
}

/** Ids 0 .. thousands * 1000 - 1 as a FROM item `t(id)`: the engine's sequence holds at most 10,000 values. */
const engineIds = (thousands: number) =>
  `(SELECT x * 1000 + y AS id FROM UNNEST(sequence(0, ${thousands - 1})) a(x) CROSS JOIN UNNEST(sequence(0, 999)) b(y)) t`;
const duckIds = (thousands: number) => `(SELECT x * 1000 + y AS id FROM range(0, ${thousands}) a(x) CROSS JOIN range(0, 1000) b(y)) t`;

describe('join chains start far from the biggest input (join_chain_far_start)', function () {
  this.timeout(600_000);

  for (const schema of ['tiny', 'sf0.1']) {
    describe(`TPC-H at ${schema}`, () => {
      let engine: EngineHarness;
      let duck: DuckDBConnection;

      before(async () => {
        engine = new EngineHarness();
        duck = await duckDbWithTpch(schema, 2);
        await engine.run('CREATE SCHEMA memory.chain');
        for (const table of TPCH_TABLE_NAMES)
          await engine.run(`CREATE TABLE memory.chain.${table} AS SELECT * FROM tpch."${schema}".${table}`);
        engine.session.catalog = 'memory';
        engine.session.schema = 'chain';
        for (const [name, value] of Object.entries(IN_WORKERS)) engine.session.properties.set(name, value);
      });
      after(() => duck?.closeSync());

      it("q07's lineitem scan runs on the threads, probing its joins; switched off (and join_chain_fewer_rows_next), in the customer join's build side", async () => {
        const explain = async () => String((await engine.rows(`EXPLAIN ${tpchQuery(7)}`))[0][0]);
        const on = await explain();
        expect(lineitemScan(on)).to.include('Runs: threads');
        expect(on.match(/probe = parallel/g)?.length).to.be.at.least(2);
        // join_chain_fewer_rows_next alone also keeps lineitem from being reached early (at tiny): both off.
        const off = await engine.withSession({ ...OFF, ...NEXT_OFF }, explain);
        expect(lineitemScan(off)).not.to.include('Runs: threads');
      });

      for (const q of QUERIES) {
        it(`q${String(q).padStart(2, '0')} answers as DuckDB does, with the choice on and off`, async () => {
          await expectDuckDbAnswer(engine, duck, tpchQuery(q));
          await engine.withSession(OFF, () => expectDuckDbAnswer(engine, duck, tpchQuery(q)));
        });
      }

      it("q09's parts join partsupp before lineitem; with join_chain_fewer_rows_next off, lineitem first", async () => {
        const explain = async () => String((await engine.rows(`EXPLAIN ${tpchQuery(9)}`))[0][0]);
        expect(await explain()).to.match(PARTSUPP_TO_PARTS);
        expect(await engine.withSession(NEXT_OFF, explain)).not.to.match(PARTSUPP_TO_PARTS);
      });

      for (const q of NEXT_QUERIES) {
        it(`q${String(q).padStart(2, '0')} answers as DuckDB does, with join_chain_fewer_rows_next on and off`, async () => {
          await expectDuckDbAnswer(engine, duck, tpchQuery(q));
          await engine.withSession(NEXT_OFF, () => expectDuckDbAnswer(engine, duck, tpchQuery(q)));
        });
      }
    });
  }

  describe('a snowflake with NULL and duplicate keys', () => {
    let both: EngineAndDuckDb;

    before(async () => {
      both = await EngineAndDuckDb.open();
      both.engine.session.catalog = 'memory';
      both.engine.session.schema = 'default';
      for (const [name, value] of Object.entries(IN_WORKERS)) both.engine.session.properties.set(name, value);
      for (const [run, ids] of [
        [(sql: string) => both.engine.run(sql), engineIds],
        [(sql: string) => both.duck.run(sql), duckIds],
      ] as const) {
        await run(`CREATE TABLE fact AS SELECT id, CASE WHEN id % 7 = 0 THEN NULL ELSE id % 100 END AS a,
           CASE WHEN id % 11 = 0 THEN NULL ELSE id % 50 END AS b, id % 13 AS v FROM ${ids(60)}`);
        await run(
          `CREATE TABLE mid AS SELECT id % 100 AS a, CASE WHEN id % 9 = 0 THEN NULL ELSE id % 10 END AS c FROM ${ids(1)} WHERE id < 150`,
        );
        await run(
          `CREATE TABLE dim_c AS SELECT CASE WHEN id = 10 THEN NULL ELSE id END AS c, 'n' || CAST(id % 3 AS varchar) AS name FROM ${ids(1)} WHERE id < 11`,
        );
        await run(
          `CREATE TABLE dim_b AS SELECT CASE WHEN id = 50 THEN NULL ELSE id END AS b, 'n' || CAST(id % 4 AS varchar) AS name FROM ${ids(1)} WHERE id < 51`,
        );
      }
    });
    after(() => both?.close());

    const SNOWFLAKE = `SELECT dc.name, db.name, count(*), sum(f.v)
      FROM fact f, mid m, dim_c dc, dim_b db
      WHERE f.a = m.a AND m.c = dc.c AND f.b = db.b AND dc.name IN ('n1', 'n2') AND db.name IN ('n1', 'n2')
        AND ((dc.name = 'n1' AND db.name = 'n2') OR (dc.name = 'n2' AND db.name = 'n1'))
      GROUP BY 1, 2`;
    const UNDER_LEFT_JOIN = `SELECT f.v, count(*), count(x.name), sum(x.c)
      FROM fact f LEFT JOIN (SELECT m.a, dc.c, dc.name FROM mid m JOIN dim_c dc ON m.c = dc.c WHERE dc.name = 'n1') x ON f.a = x.a
      GROUP BY 1`;

    it('plans the snowflake otherwise than with the choice off: its far dimension starts the chain', async () => {
      const explain = async () => String((await both.engine.rows(`EXPLAIN ${SNOWFLAKE}`))[0][0]);
      expect(await explain()).not.to.equal(await both.engine.withSession(OFF, explain));
    });

    for (const [label, sql] of [
      ['inner joins', SNOWFLAKE],
      ['inner joins under a LEFT join', UNDER_LEFT_JOIN],
    ]) {
      it(`${label} answer as DuckDB does, with the choice on and off`, async () => {
        const on = await both.expectSame(sql);
        expect(on.length).to.be.greaterThan(0);
        const off = await both.engine.withSession(OFF, () => both.expectSame(sql));
        expect(off).to.deep.equal(on);
      });
    }
  });
});
