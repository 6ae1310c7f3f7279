// timestamp(9) against DuckDB's TIMESTAMP_NS on the same 2000 nanosecond instants (1870..2070, both
// sides of the epoch, each twice): their text, their order, grouping and joining on the exact value,
// date parts and days, and rounding to micros half up (DuckDB computes that on epoch_ns; its own
// cast truncates, so it is no oracle for Trino's rounding).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

const TEXT = "strftime(t, '%Y-%m-%d %H:%M:%S.%n')";

describe('timestamp(9) against DuckDB TIMESTAMP_NS', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  let duck: DuckDBConnection;

  before(async () => {
    duck = await openDuckDb(1);
    // About 0.1 year apart with ragged nanoseconds; i and i + 1000 hold the same instant.
    await duck.run(
      `CREATE TABLE ns AS SELECT i, make_timestamp_ns((i % 1000) * 6311385194954663 - 3155692597477331000) AS t FROM range(0, 2000) r(i)`,
    );
    const rows = await duckRows(duck, `SELECT i, ${TEXT} FROM ns ORDER BY i`);
    await engine.query('CREATE TABLE memory.default.ns (i bigint, t timestamp(9))');
    await engine.query(
      `INSERT INTO memory.default.ns SELECT i, CAST(s AS timestamp(9)) FROM (VALUES ${rows.map(([i, s]) => `(${i}, '${s}')`).join(', ')}) v(i, s)`,
    );
  });
  after(() => duck.closeSync());

  async function same(engineSql: string, duckSql: string): Promise<void> {
    const text = (rows: unknown[][]) => rows.map((r) => r.map(String).join('|'));
    expect(text(await engine.rows(engineSql))).to.deep.equal(text(await duckRows(duck, duckSql)));
  }

  it('prints every instant as DuckDB does', async () => {
    await same('SELECT i, CAST(t AS varchar) FROM memory.default.ns ORDER BY i', `SELECT i, ${TEXT} FROM ns ORDER BY i`);
  });

  it('orders, groups and joins on the exact value', async () => {
    await same('SELECT i FROM memory.default.ns ORDER BY t, i', 'SELECT i FROM ns ORDER BY t, i');
    await same(
      'SELECT min(i), max(i), count(*) FROM memory.default.ns GROUP BY t ORDER BY 1',
      'SELECT min(i), max(i), count(*) FROM ns GROUP BY t ORDER BY 1',
    );
    await same(
      'SELECT a.i, b.i FROM memory.default.ns a JOIN memory.default.ns b ON a.t = b.t AND a.i < b.i ORDER BY 1',
      'SELECT a.i, b.i FROM ns a JOIN ns b ON a.t = b.t AND a.i < b.i ORDER BY 1',
    );
    await same(
      "SELECT count(*) FROM memory.default.ns WHERE t < TIMESTAMP '1970-01-01 00:00:00.000000001'",
      "SELECT count(*) FROM ns WHERE t < TIMESTAMP_NS '1970-01-01 00:00:00.000000001'",
    );
  });

  it('takes date parts and days as DuckDB does', async () => {
    await same(
      "SELECT i, year(t), month(t), day(t), hour(t), minute(t), second(t), CAST(CAST(t AS date) AS varchar), CAST(date_trunc('minute', t) AS varchar) FROM memory.default.ns ORDER BY i",
      "SELECT i, year(t), month(t), day(t), hour(t), minute(t), second(t), CAST(CAST(t AS DATE) AS VARCHAR), strftime(date_trunc('minute', t), '%Y-%m-%d %H:%M:%S.000000000') FROM ns ORDER BY i",
    );
  });

  it('rounds to micros half up', async () => {
    // Half up on the nanoseconds since the epoch, with floor division (negative instants too).
    const micros = 'CAST(((epoch_ns(t)::HUGEINT + 500) - (((epoch_ns(t)::HUGEINT + 500) % 1000) + 1000) % 1000) / 1000 AS BIGINT)';
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(6)) AS varchar) FROM memory.default.ns ORDER BY i',
      `SELECT i, strftime(make_timestamp(${micros}), '%Y-%m-%d %H:%M:%S.%f') FROM ns ORDER BY i`,
    );
  });
});
