// A semi join (EXISTS, IN) on a single-node server whose probe side is estimated small and smaller
// than its build side, a scan, keeps that scan in the probe side's task (no REPLICATE stage), where
// it runs as a ParallelMarkJoin: TPC-H q4 over Parquet hashes its quarter of orders and streams
// lineitem past it on the threads. A probe side estimated big or not smaller, a cluster's
// coordinator, and parallel_mark_join=false keep the replicated build stage. Answers over DuckDB's
// Parquet files equal DuckDB's.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { lakeConfigFile } from '../connectors/lake/lake-fixture.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { query } from '../support/statement-http.js';

const PARALLEL_MARK_JOIN = 'Runs: probe side hashed in the main thread; build side streamed past it on the threads';
const LAKE = { 'X-Trino-Catalog': 'lake', 'X-Trino-Schema': 'default' };

/** Semi and anti joins of TPC-H (q4 EXISTS, q21 EXISTS and NOT EXISTS, q22 NOT EXISTS) and an IN, all of varchar and bigint columns. */
const ANSWERED: ReadonlyArray<[label: string, sql: string]> = [
  ['q4', tpchQuery(4)],
  ['q21', tpchQuery(21)],
  [
    'IN over a filtered scan',
    "SELECT o_orderpriority, count(*) FROM orders WHERE o_orderdate < DATE '1993-01-01' AND o_orderkey IN (SELECT l_orderkey FROM lineitem WHERE l_quantity > 45) GROUP BY 1 ORDER BY 1",
  ],
  [
    'NOT EXISTS',
    "SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1995-01-01' AND NOT EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_shipmode = 'AIR')",
  ],
];

const strings = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v === null ? null : String(v))));

describe('single node: a mark join with a small probe side keeps its scan build side in the probe task', function () {
  this.timeout(600_000);
  let duck: DuckDBConnection;
  let dir: string;
  let server: ServerProcess;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
    dir = mkdtempSync(join(tmpdir(), 'engine-single-node-mark-join-'));
    for (const table of TPCH_TABLE_NAMES) {
      mkdirSync(join(dir, 'data', table), { recursive: true });
      await duck.run(`COPY ${table} TO '${join(dir, 'data', table, 'data.parquet')}' (FORMAT PARQUET)`);
    }
    server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    for (const table of TPCH_TABLE_NAMES)
      await query(server.uri, `CREATE TABLE lake.default.${table} WITH (external_location = 'file://${join(dir, 'data', table)}/')`);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const explainLake = async (sql: string, headers: Record<string, string> = {}) =>
    (await query(server.uri, `EXPLAIN ${sql}`, { ...LAKE, ...headers })).map((r) => String(r[0])).join('\n');

  it("q4 over DuckDB's Parquet files: a ParallelMarkJoin over lineitem's scan, in the orders scan's fragment", async () => {
    const plan = await explainLake(tpchQuery(4));
    expect(plan).to.include(PARALLEL_MARK_JOIN);
    expect(plan).not.to.include('[BROADCAST]');
  });

  it('keeps the replicated build stage with parallel_mark_join=false', async () => {
    const plan = await explainLake(tpchQuery(4), { 'X-Trino-Session': 'parallel_mark_join=false' });
    expect(plan).not.to.include(PARALLEL_MARK_JOIN);
    expect(plan).to.include('Output partitioning: BROADCAST');
  });

  it('keeps the replicated build stage when the probe side is not the smaller (lineitem probing orders)', async () => {
    const plan = await explainLake('SELECT count(*) FROM lineitem WHERE EXISTS (SELECT 1 FROM orders WHERE o_orderkey = l_orderkey)');
    expect(plan).not.to.include(PARALLEL_MARK_JOIN);
    expect(plan).to.include('Output partitioning: BROADCAST');
  });

  it('plans by estimates: at sf1 q4 keeps lineitem in the task, a probe side of 6 million lineitem rows does not; nor a cluster coordinator', async () => {
    const harness = (singleNode: boolean) => {
      const engine = new EngineHarness({ singleNode });
      engine.session.catalog = 'tpch';
      engine.session.schema = 'sf1';
      return engine;
    };
    const explain = async (engine: EngineHarness, sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((r) => String(r[0])).join('\n');
    expect(await explain(harness(true), tpchQuery(4))).to.include(PARALLEL_MARK_JOIN);
    const bigProbe = 'SELECT count(*) FROM lineitem WHERE l_orderkey IN (SELECT o_orderkey FROM orders WHERE o_totalprice > 1000)';
    expect(await explain(harness(true), bigProbe)).not.to.include(PARALLEL_MARK_JOIN);
    expect(await explain(harness(false), tpchQuery(4))).not.to.include(PARALLEL_MARK_JOIN);
  });

  for (const [label, sql] of ANSWERED) {
    it(`${label} answers as DuckDB does over the same files`, async () => {
      expect(strings(await query(server.uri, sql, LAKE))).to.deep.equal(strings(await duckRows(duck, sql)));
    });
  }
});
