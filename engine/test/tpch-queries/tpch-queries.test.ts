// The 22 TPC-H queries on tpch.tiny (scale factor 0.01) give DuckDB's results, with DuckDB loaded
// from our own generator's output: read straight from the tpch connector, and again from memory
// tables created with CREATE TABLE AS, and from the tpch connector on a single node. Types that differ by design are listed in
// scripts/tpch/result-comparison.ts.

import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('TPC-H queries on sf0.01 equal DuckDB on the same rows', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await duckDbWithTpch('tiny', 2);
    await engine.run('CREATE SCHEMA memory.tiny');
    for (const table of TPCH_TABLE_NAMES) await engine.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
  });

  for (const catalog of ['tpch', 'memory']) {
    describe(`from ${catalog}.tiny`, () => {
      for (let q = 1; q <= 22; q++) {
        it(`q${String(q).padStart(2, '0')}`, async () => {
          engine.session.catalog = catalog;
          engine.session.schema = 'tiny';
          const sql = tpchQuery(q);
          await expectDuckDbAnswer(engine, duck, sql);
        });
      }
    });
  }

  // A single node runs its fragments' tasks in one process: a WITH query whose copies are in two of
  // them (q15's revenue0) runs once, one task feeding the other (fragment-common-subplans.ts).
  describe('from tpch.tiny on a single node', () => {
    const single = new EngineHarness({ singleNode: true });
    for (let q = 1; q <= 22; q++) {
      it(`q${String(q).padStart(2, '0')}`, async () => {
        single.session.catalog = 'tpch';
        single.session.schema = 'tiny';
        await expectDuckDbAnswer(single, duck, tpchQuery(q));
      });
    }
  });
});
