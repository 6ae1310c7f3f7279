// The 22 TPC-H queries give the same rows with every scan that can go to worker threads sent there
// (tables of one split included) as in the main thread alone: from the tpch connector (pages
// generated in the workers) and from memory tables (read from shared memory).

import { expect } from 'chai';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import { IN_MAIN_THREAD, IN_WORKERS, rowsWith, sortedRows } from './parallel-helpers.js';

describe('parallel execution: TPC-H queries on sf0.01 as in the main thread', function () {
  this.timeout(300_000);
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run('CREATE SCHEMA memory.tiny');
    for (const table of TPCH_TABLE_NAMES) await h.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
  });

  for (const catalog of ['tpch', 'memory']) {
    it(`gives the same rows for all 22 queries from ${catalog}.tiny`, async () => {
      h.session.catalog = catalog;
      h.session.schema = 'tiny';
      const before = sharedThreadPool().stats().tasksStarted;
      for (let q = 1; q <= 22; q++) {
        const sql = tpchQuery(q);
        const local = await rowsWith(h, sql, IN_MAIN_THREAD);
        const parallel = await rowsWith(h, sql, IN_WORKERS);
        expect(sortedRows(parallel), `q${q}`).to.deep.equal(sortedRows(local));
      }
      expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(before);
    });
  }
});
