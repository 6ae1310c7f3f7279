// Table functions on a coordinator and two workers (real processes): a sequence of several splits
// is generated on both workers (system.runtime.tasks counts the splits and rows each read) and answers as
// DuckDB's generate_series; exclude_columns of a tpch table joined to a sequence answers as DuckDB's
// SELECT * EXCLUDE on the same rows.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { query, runStatement } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

const text = (rows: unknown[][]): string[][] => rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

describe('table functions on a coordinator and 2 workers', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  const duck = duckDbTpchTiny();

  it("generates a sequence's splits on both workers, and answers as DuckDB", async () => {
    // 3,000,001 values: splits of 1,000,000, 1,000,000, 1,000,000 and 1.
    const sql =
      'SELECT count(*), min(x), max(x), sum(x), count(*) FILTER (WHERE x % 1000 = 2) FROM TABLE(sequence(start => -7, stop => 8999993, step => 3)) t(x)';
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const expected = await duckRows(
      duck.get(),
      'SELECT count(*), min(x), max(x), sum(x)::BIGINT, count(*) FILTER (WHERE x % 1000 = 2) FROM generate_series(-7, 8999993, 3) t(x)',
    );
    expect(text(run.rows)).to.deep.equal(text(expected));
    const readers = await query(
      cluster.coordinator.uri,
      `SELECT node_id, sum(completed_splits), sum(raw_input_rows) FROM system.runtime.tasks WHERE query_id = '${run.final.id}' AND splits > 0 GROUP BY node_id ORDER BY node_id`,
      USER,
    );
    expect(readers.map((r) => r[0])).to.deep.equal(['worker-1', 'worker-2']);
    expect(readers.reduce((sum, r) => sum + Number(r[1]), 0)).to.equal(4);
    expect(readers.reduce((sum, r) => sum + Number(r[2]), 0)).to.equal(3_000_001);
  });

  it('joins exclude_columns of a tpch table to a sequence, as DuckDB', async () => {
    const sql = `SELECT e.*, s.x FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.nation), columns => DESCRIPTOR(n_comment, n_name))) e
      JOIN TABLE(sequence(0, 4, 2)) s(x) ON e.n_regionkey = s.x ORDER BY 1`;
    const rows = await query(cluster.coordinator.uri, sql, USER);
    const expected = await duckRows(
      duck.get(),
      'SELECT e.*, s.x FROM (SELECT * EXCLUDE (n_comment, n_name) FROM nation) e JOIN generate_series(0, 4, 2) s(x) ON e.n_regionkey = s.x ORDER BY 1',
    );
    expect(text(rows)).to.deep.equal(text(expected));
    expect(rows.length).to.equal(15);
  });

  it("fails with Trino's error for a wrong argument, at its position", async () => {
    const run = await runStatement(cluster.coordinator.uri, 'SELECT * FROM TABLE(sequence(stop => 1, step => 0, start => 5))', USER);
    expect(run.final.error?.errorName).to.equal('INVALID_FUNCTION_ARGUMENT');
    expect(run.final.error?.message).to.equal('Step must be negative for sequence [5, 1]');
  });
});
