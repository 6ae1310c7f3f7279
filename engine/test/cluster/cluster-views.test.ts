// Views and row changes on a coordinator and 2 workers (real processes): a view over a memory table
// and a view over a lake table (whose scan runs on the workers) queried through the coordinator; UPDATE, DELETE and MERGE of a memory table, whose counts the client protocol reports as
// Trino's does (updateType and updateCount). Expected figures are computed here from the rows.

import { expect } from 'chai';
import { getJson, query, runStatement } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

interface StageJson {
  tasks: { nodeId: string }[];
  subStages: StageJson[];
}

const USER = { 'X-Engine-User': 'test' };
const ROWS = 3000;
const ids = Array.from({ length: ROWS }, (_, i) => i);

describe('views, UPDATE, DELETE and MERGE on a coordinator and 2 workers', function () {
  this.timeout(300_000);
  const lake = withLakeCluster(2, 'engine-views-cluster-', () => '  - name: memory\n    connector: memory\n');
  const { cluster } = lake;
  let uri: string;

  before(async () => {
    uri = cluster.coordinator.uri;
    const values = ids.map((i) => `(${i}, ${i % 7}, ${i * 3})`).join(', ');
    await query(uri, 'CREATE TABLE memory.default.t (id bigint, g integer, v bigint)', USER);
    await query(uri, `INSERT INTO memory.default.t VALUES ${values}`, USER);
  });

  async function taskNodes(queryId: string): Promise<string[]> {
    const detail = await getJson<{ outputStage: StageJson }>(`${uri}/v1/query/${queryId}`, { headers: USER });
    const stages = (stage: StageJson): StageJson[] => [stage, ...stage.subStages.flatMap(stages)];
    return [...new Set(stages(detail.body.outputStage).flatMap((s) => s.tasks.map((t) => t.nodeId)))].sort();
  }

  /** count and sum of v by g, from the rows where `keep` holds. */
  function groups(rows: { id: number; g: number; v: number }[]): unknown[][] {
    const by = new Map<number, [number, number]>();
    for (const r of rows) {
      const entry = by.get(r.g) ?? [0, 0];
      by.set(r.g, [entry[0] + 1, entry[1] + r.v]);
    }
    return [...by.entries()].sort(([a], [b]) => a - b).map(([g, [n, total]]) => [g, n, total]);
  }

  it('queries a view over a memory table (whose rows only the coordinator holds) through the coordinator', async () => {
    const created = await runStatement(
      uri,
      'CREATE VIEW memory.default.by_g AS SELECT g, count(*) AS n, sum(v) AS total FROM memory.default.t GROUP BY g',
      USER,
    );
    expect([created.final.error, created.final.updateType]).to.deep.equal([undefined, 'CREATE VIEW']);
    const run = await runStatement(uri, 'SELECT g, n, total FROM memory.default.by_g ORDER BY g', USER);
    expect(run.final.error).to.equal(undefined);
    expect(run.rows).to.deep.equal(groups(ids.map((id) => ({ id, g: id % 7, v: id * 3 }))));
    expect(
      await query(
        uri,
        "SELECT table_name, table_type FROM memory.information_schema.tables WHERE table_schema = 'default' ORDER BY 1",
        USER,
      ),
    ).to.deep.equal([
      ['by_g', 'VIEW'],
      ['t', 'BASE TABLE'],
    ]);
  });

  it('queries a view over a lake table, its scan run on the workers', async () => {
    await query(uri, 'CREATE TABLE lake.default.nations AS SELECT n_nationkey, n_regionkey FROM tpch.tiny.nation', USER);
    await query(
      uri,
      'CREATE VIEW lake.default.per_region AS SELECT n_regionkey AS region, count(*) AS nations FROM lake.default.nations GROUP BY n_regionkey',
      USER,
    );
    const run = await runStatement(uri, 'SELECT region, nations FROM lake.default.per_region ORDER BY region', USER);
    expect(run.final.error).to.equal(undefined);
    // TPC-H: 25 nations, 5 in each of the 5 regions.
    expect(run.rows).to.deep.equal([0, 1, 2, 3, 4].map((r) => [r, 5]));
    expect(await taskNodes(run.final.id)).to.include.members(['worker-1', 'worker-2']);
  });

  it('runs UPDATE, DELETE and MERGE through the coordinator, reporting updateType and updateCount', async () => {
    let rows = ids.map((id) => ({ id, g: id % 7, v: id * 3 }));
    const updated = await runStatement(uri, 'UPDATE memory.default.t SET v = v + 1 WHERE g = 3', USER);
    rows = rows.map((r) => (r.g === 3 ? { ...r, v: r.v + 1 } : r));
    const expectUpdated = rows.filter((r) => r.g === 3).length;
    expect([updated.final.error, updated.final.updateType, updated.final.updateCount, updated.rows]).to.deep.equal([
      undefined,
      'UPDATE',
      expectUpdated,
      [[expectUpdated]],
    ]);
    const deleted = await runStatement(uri, 'DELETE FROM memory.default.t WHERE id % 10 = 0', USER);
    const expectDeleted = rows.filter((r) => r.id % 10 === 0).length;
    rows = rows.filter((r) => r.id % 10 !== 0);
    expect([deleted.final.updateType, deleted.final.updateCount]).to.deep.equal(['DELETE', expectDeleted]);
    // The source, tpch's 25 nations, is read by tasks on the workers: keys 0..24 match ids 0..24 (less the deleted 0, 10, 20).
    const merged = await runStatement(
      uri,
      'MERGE INTO memory.default.t t USING tpch.tiny.nation n ON t.id = n.n_nationkey WHEN MATCHED THEN UPDATE SET v = 0 WHEN NOT MATCHED THEN INSERT VALUES (n.n_nationkey, 99, -1)',
      USER,
    );
    rows = rows.map((r) => (r.id < 25 ? { ...r, v: 0 } : r));
    rows.push(...[0, 10, 20].map((id) => ({ id, g: 99, v: -1 })));
    expect([merged.final.error, merged.final.updateType, merged.final.updateCount]).to.deep.equal([undefined, 'MERGE', 25]);
    expect(await query(uri, 'SELECT g, n, total FROM memory.default.by_g ORDER BY g', USER)).to.deep.equal(groups(rows));
  });
});
