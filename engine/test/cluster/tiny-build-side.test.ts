// Tiny build sides on a coordinator with two workers (distributed/tiny-build-side.ts): a broadcast
// join's build side over tables of at most 1,000 estimated rows stays in the probe side's fragment,
// every task of which reads all of its splits (EXPLAIN: `splits = every task`), so TPC-H q02's
// region -> nation chains run in supplier's stage instead of stages of their own. A table of more
// rows keeps the old plan, and a tiny table of several files joins a probe spread over both workers
// to DuckDB's answer over the same files: a task that missed one of them would lose its matches.

import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

const EVERY_TASK = ', splits = every task';
const OLD_PLAN = { 'X-Engine-Session': 'tiny_build_side_in_probe_stage=false' };

/** The fragments of a distributed EXPLAIN, each as its text. */
function fragments(plan: string): string[] {
  return plan.split(/\n(?=Fragment \d+ )/);
}

/** The one fragment that scans `table` (a dotted name as EXPLAIN prints it). */
function fragmentScanning(plan: string, table: string): string {
  const found = fragments(plan).filter((f) => f.includes(`TableScan[table = ${table},`));
  expect(found, plan).to.have.length(1);
  return found[0];
}

/** Values DuckDB gives as strings of digits (bigints, sums) as the engine's JSON numbers. */
function numbers(rows: unknown[][]): unknown[][] {
  return rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v)));
}

describe('tiny build sides read in the probe stage on a cluster (coordinator + 2 workers)', function () {
  this.timeout(300_000);
  const lake = withLakeCluster(2, 'engine-tiny-build-side-');
  const { cluster } = lake;
  const explain = async (sql: string, headers: Record<string, string> = {}) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, headers))[0][0]);

  it("reads q02's region and nation (sf1) in supplier's stage: 7 fragments instead of 11", async () => {
    const headers = { 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'sf1' };
    const plan = await explain(tpchQuery(2), headers);
    for (const line of plan.split('\n').filter((l) => /TableScan\[table = tpch:sf1\.(region|nation),/.test(l)))
      expect(line, plan).to.contain(EVERY_TASK);
    for (const line of plan.split('\n').filter((l) => /TableScan\[table = tpch:sf1\.(supplier|partsupp|part),/.test(l)))
      expect(line, plan).not.to.contain(EVERY_TASK);
    // Both supplier scans have region and nation in their fragment.
    const withSupplier = fragments(plan).filter((f) => f.includes('TableScan[table = tpch:sf1.supplier,'));
    expect(withSupplier, plan).to.have.length(2);
    for (const f of withSupplier) expect(f, plan).to.match(/tpch:sf1\.nation,[^]*tpch:sf1\.region,/);
    expect(fragments(plan), plan).to.have.length(7);
    expect(fragments(await explain(tpchQuery(2), { ...headers, ...OLD_PLAN }))).to.have.length(11);
  });

  it('keeps a build side of more than 1,000 estimated rows (sf1 supplier, 10,000) in a stage of its own', async () => {
    const plan = await explain(
      'SELECT count(*) FROM tpch.sf1.partsupp JOIN tpch.sf1.supplier ON ps_suppkey = s_suppkey WHERE s_acctbal > 0',
    );
    expect(plan).not.to.contain(EVERY_TASK);
    expect(fragmentScanning(plan, 'tpch:sf1.supplier')).not.to.contain('tpch:sf1.partsupp');
  });

  it("joins a tiny table of 3 Parquet files to a probe over both workers, to DuckDB's answer; one of 1,500 rows keeps its stage", async () => {
    const write = async (name: string, files: number, rowsPerFile: number, select: string) => {
      const folder = join(lake.dir, name);
      mkdirSync(folder, { recursive: true });
      for (let file = 0; file < files; file++)
        await duckDbRows(
          `COPY (SELECT ${select} FROM range(${file * rowsPerFile}, ${(file + 1) * rowsPerFile}) r(i)) TO '${folder}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 5000)`,
        );
      await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${name} WITH (external_location = 'file://${folder}/')`);
      return `read_parquet('${folder}/*.parquet')`;
    };
    const facts = await write('facts', 4, 20_000, 'i::BIGINT AS id, (i // 10)::INTEGER AS k');
    // Keys 0, 250, ..., 7250: every file of facts holds some of them, each file of dims some.
    const dims = await write('dims', 3, 10, "(i * 250)::INTEGER AS k, 'd' || (i % 7) AS name");
    const bigDims = await write('big_dims', 2, 750, "(i * 5)::INTEGER AS k, 'b' || (i % 7) AS name");
    const sql = (f: string, d: string) =>
      `SELECT d.name, count(*), sum(f.id), min(f.k) FROM ${f} f JOIN ${d} d ON f.k = d.k WHERE d.name <> 'd3' GROUP BY d.name ORDER BY d.name`;
    for (const [table, files, tiny] of [
      ['dims', dims, true],
      ['big_dims', bigDims, false],
    ] as const) {
      const plan = await explain(sql('lake.default.facts', `lake.default.${table}`));
      const scan = fragmentScanning(plan, `lake:default.${table}`);
      expect(scan.includes(EVERY_TASK), plan).to.equal(tiny);
      expect(scan.includes('lake:default.facts'), plan).to.equal(tiny);
      const expected = numbers(await duckDbRows(sql(facts, files)));
      expect(expected.length).to.be.greaterThan(3);
      expect(await query(cluster.coordinator.uri, sql('lake.default.facts', `lake.default.${table}`)), table).to.deep.equal(expected);
      expect(await query(cluster.coordinator.uri, sql('lake.default.facts', `lake.default.${table}`), OLD_PLAN), table).to.deep.equal(
        expected,
      );
    }
  });
});
