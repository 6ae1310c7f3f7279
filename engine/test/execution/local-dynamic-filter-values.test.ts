// A dynamic filter used in the process that built it lists up to MAX_LOCAL_DYNAMIC_FILTER_VALUES keys
// (a value bitmap for the scan), one sent to other nodes at most MAX_DYNAMIC_FILTER_VALUES; a join
// whose build has between the two gives DuckDB's answer over memory tables (threads probing).

import type { DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'chai';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import {
  KeyDomainCollector,
  MAX_DYNAMIC_FILTER_VALUES,
  MAX_LOCAL_DYNAMIC_FILTER_VALUES,
  withAtMostValues,
} from '../../src/exec/dynamic-filters/key-domain.js';
import { BIGINT } from '../../src/types/types.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('dynamic filters: more values listed in the process than sent to other nodes', () => {
  it('lists more keys than the remote limit locally, and only their range once sent on', () => {
    const keys = MAX_DYNAMIC_FILTER_VALUES + 10;
    const collector = new KeyDomainCollector();
    collector.add({ type: BIGINT, length: keys, values: BigInt64Array.from({ length: keys }, (_, i) => BigInt(3 * i)), nulls: null });
    const local = collector.domain();
    expect(local.values?.length).to.equal(keys);
    expect(MAX_LOCAL_DYNAMIC_FILTER_VALUES).to.be.greaterThan(keys);
    expect(withAtMostValues(local, MAX_DYNAMIC_FILTER_VALUES)).to.deep.equal({ low: local.low, high: local.high });
    expect(withAtMostValues(local, keys)).to.equal(local);
  });

  describe('a join whose build has ~73k keys (tpch sf0.1 orders before 1995-03-15)', function () {
    this.timeout(600_000);
    let engine: EngineHarness;
    let duck: DuckDBConnection;

    before(async () => {
      engine = new EngineHarness();
      duck = await duckDbWithTpch('sf0.1', 2);
      await engine.run('CREATE SCHEMA memory.sf01');
      for (const table of ['orders', 'lineitem'])
        await engine.run(`CREATE TABLE memory.sf01.${table} AS SELECT * FROM tpch."sf0.1".${table}`);
      engine.session.catalog = 'memory';
      engine.session.schema = 'sf01';
    });

    it("gives DuckDB's answers", async () => {
      await expectDuckDbAnswer(
        engine,
        duck,
        `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, count(*) AS lines
         FROM orders, lineitem
         WHERE l_orderkey = o_orderkey AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
         GROUP BY l_orderkey ORDER BY revenue DESC, l_orderkey LIMIT 20`,
      );
      await expectDuckDbAnswer(
        engine,
        duck,
        `SELECT count(*) AS matched, count(DISTINCT l_orderkey) AS orders, sum(l_quantity) AS quantity FROM orders, lineitem
         WHERE l_orderkey = o_orderkey AND o_orderdate < DATE '1995-03-15'`,
      );
    });
  });
});
