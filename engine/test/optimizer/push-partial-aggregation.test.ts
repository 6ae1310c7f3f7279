// push_partial_aggregation_through_join: an aggregation over a join whose arguments come from one
// side aggregates that side partially below the join, the final step above it. Its answers equal
// DuckDB's on the same memory tables (NULL keys, customers without orders, duplicate customers,
// empty sides, left, right and inner joins, count(*) and count(x), sum, avg, min, max, FILTER, a
// join filter); through an outer join only the side it does not preserve is aggregated, and not
// for count(*). Memory tables have no statistics, so these run under ALWAYS; TPC-H q13 over
// tpch.tiny (which has them) is rewritten under the default AUTOMATIC, and not under NONE.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { EngineAndDuckDb, expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';

const PROPERTY = 'push_partial_aggregation_through_join';

async function explain(engine: EngineHarness, sql: string): Promise<string> {
  return (await engine.rows(`EXPLAIN ${sql}`)).map((r) => String(r[0])).join('\n');
}

/** Whether a join's rows carry partial states (its layout, the line after it): the partial step ran below it. */
function pushedBelowJoin(plan: string): boolean {
  const lines = plan.split('\n');
  return lines.some((line, i) => line.includes('Join[') && /Layout: \[[^\]]*_partial_\d+/.test(lines[i + 1] ?? ''));
}

const CASES: { name: string; sql: string; pushed: boolean }[] = [
  {
    name: 'LEFT join: count(x), sum, avg, min, max of the right side per left key',
    sql: 'SELECT c.k, count(o.v), sum(o.v), avg(o.d), min(o.v), max(o.v) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k',
    pushed: true,
  },
  {
    name: 'LEFT join: count(*) counts unmatched rows, so it stays above',
    sql: 'SELECT c.k, count(*), count(o.v) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k',
    pushed: false,
  },
  {
    name: 'RIGHT join aggregating its left side',
    sql: 'SELECT c.name, count(o.v), sum(o.d) FROM o RIGHT JOIN c ON o.k = c.k GROUP BY c.name',
    pushed: true,
  },
  {
    name: 'INNER join: count(*) and sums grouped by the other side',
    sql: 'SELECT c.name, count(*), sum(o.v), avg(o.d) FROM c JOIN o ON c.k = o.k GROUP BY c.name',
    pushed: true,
  },
  {
    name: 'grouped by keys of both sides',
    sql: 'SELECT c.name, o.v, count(o.d), max(o.d) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.name, o.v',
    pushed: true,
  },
  {
    name: 'a join filter over both sides',
    sql: 'SELECT c.k, count(o.v), sum(o.d) FROM c LEFT JOIN o ON c.k = o.k AND o.v > c.k * 3 GROUP BY c.k',
    pushed: true,
  },
  {
    name: 'FILTER on the aggregated side',
    sql: 'SELECT c.k, count(o.v) FILTER (WHERE o.v > 6), sum(o.v) FILTER (WHERE o.d < 3) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k',
    pushed: true,
  },
  {
    name: 'no grouping keys',
    sql: 'SELECT count(o.v), sum(o.v), min(o.d), avg(o.d) FROM c LEFT JOIN o ON c.k = o.k',
    pushed: true,
  },
  {
    name: 'an empty aggregated side',
    sql: 'SELECT c.k, count(e.v), sum(e.v), avg(e.d) FROM c LEFT JOIN e ON c.k = e.k GROUP BY c.k',
    pushed: true,
  },
  {
    name: 'an empty preserved side',
    sql: 'SELECT e.k, count(o.v), sum(o.v) FROM e LEFT JOIN o ON e.k = o.k GROUP BY e.k',
    pushed: true,
  },
  {
    name: "q13's shape: a count of the counts",
    sql: 'SELECT n, count(*) FROM (SELECT c.k, count(o.v) AS n FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k) t GROUP BY n',
    pushed: true,
  },
  {
    name: 'arguments computed from the aggregated side, grouped by an expression of the other',
    sql: 'SELECT c.k % 2, sum(o.v * 2), count(o.d + 1), max(-o.v) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k % 2',
    pushed: true,
  },
  {
    name: 'through a LEFT join an argument that is not NULL on an unmatched row stays above',
    sql: 'SELECT c.k, sum(coalesce(o.v, 100)), count(o.v) FROM c LEFT JOIN o ON c.k = o.k GROUP BY c.k',
    pushed: false,
  },
  {
    name: 'INNER join aggregating its left side, with a computed argument',
    sql: 'SELECT c.name, sum(coalesce(o.v, 100)), min(o.d) FROM o JOIN c ON o.k = c.k GROUP BY c.name',
    pushed: true,
  },
  {
    name: 'FULL join stays as it is',
    sql: 'SELECT c.k, count(o.v), sum(o.v) FROM c FULL JOIN o ON c.k = o.k GROUP BY c.k',
    pushed: false,
  },
  {
    name: 'arguments from both sides stay above',
    sql: 'SELECT c.name, sum(o.v + c.k) FROM c JOIN o ON c.k = o.k GROUP BY c.name',
    pushed: false,
  },
];

describe('partial aggregation pushed below a join', function () {
  this.timeout(300_000);

  describe('memory tables, against DuckDB', () => {
    let both: EngineAndDuckDb;

    before(async () => {
      both = await EngineAndDuckDb.open();
      await both.runOnBoth(
        'CREATE TABLE c (k integer, name varchar)',
        // Duplicate keys on the preserved side (3 twice), a NULL key, a key no order has (4).
        "INSERT INTO c VALUES (1, 'a'), (2, 'b'), (3, 'c'), (3, 'c2'), (4, 'd'), (NULL, 'n')",
        'CREATE TABLE o (k integer, v integer, d double)',
        // NULL keys and arguments, a key no customer has (9).
        'INSERT INTO o VALUES (1, 10, 1.5), (1, 20, 2.5), (1, NULL, NULL), (2, 5, 1.0), (NULL, 7, 3.0), (9, 1, 1.0), (2, 6, 2.0), (3, 8, 4.0), (3, 8, 4.5)',
        'CREATE TABLE e (k integer, v integer, d double)',
      );
    });

    after(() => both.close());

    for (const { name, sql, pushed } of CASES) {
      it(`${name}: DuckDB's rows, ${pushed ? 'with' : 'without'} the partial step below the join`, async () => {
        both.engine.session.properties.set(PROPERTY, 'ALWAYS');
        expect(pushedBelowJoin(await explain(both.engine, sql)), await explain(both.engine, sql)).to.equal(pushed);
        await both.expectSame(sql);
        both.engine.session.properties.set(PROPERTY, 'NONE');
        expect(pushedBelowJoin(await explain(both.engine, sql))).to.equal(false);
        await both.expectSame(sql);
      });
    }

    it('without statistics AUTOMATIC leaves the plan as it is', async () => {
      both.engine.session.properties.set(PROPERTY, 'AUTOMATIC');
      expect(pushedBelowJoin(await explain(both.engine, CASES[0].sql))).to.equal(false);
    });

    it('refuses a mode it does not know', async () => {
      let error: unknown;
      try {
        await both.engine.run(`SET SESSION ${PROPERTY} = 'sometimes'`);
      } catch (e) {
        error = e;
      }
      expect(String(error)).to.match(/must be one of AUTOMATIC, ALWAYS, NONE/);
    });
  });

  describe('TPC-H q13 over tpch.tiny', () => {
    let duck: DuckDBConnection;

    before(async () => {
      duck = await duckDbWithTpch('tiny', 2);
    });

    for (const singleNode of [true, false]) {
      it(`counts orders per customer below the join by default, and answers as DuckDB does (single-node server: ${singleNode})`, async () => {
        const engine = new EngineHarness({ singleNode });
        engine.session.catalog = 'tpch';
        engine.session.schema = 'tiny';
        const plan = await explain(engine, tpchQuery(13));
        expect(plan).to.match(/Aggregate\(FINAL\)\[keys = \[c_custkey_\d+\]\] count_\d+ := count\(count_partial_\d+\)/);
        expect(plan).to.match(/Aggregate\(PARTIAL\)\[keys = \[o_custkey_\d+\]\] count_partial_\d+ := count\(o_orderkey_\d+\)/);
        await expectDuckDbAnswer(engine, duck, tpchQuery(13));
        engine.session.properties.set(PROPERTY, 'NONE');
        expect(await explain(engine, tpchQuery(13))).not.to.include('Aggregate(PARTIAL)[keys = [o_custkey');
        await expectDuckDbAnswer(engine, duck, tpchQuery(13));
      });
    }
  });
});
