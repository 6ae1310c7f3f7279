// What a lake scan read and skipped reaches EXPLAIN ANALYZE and GET /v1/query/{id} (the query's
// connector metrics and its tasks' operator summaries), on one node and on a coordinator with 2
// workers: a selective query over a Parquet file DuckDB wrote in 10 row groups reads one of them.
// The nodes' connector I/O (GET /v1/status io.connectorReadBytes, GET /metrics) grows by the bytes read.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestCluster } from '../../cluster/cluster-fixture.js';
import { ServerProcess } from '../../support/server-process.js';
import { getJson, query, runStatement } from '../../support/statement-http.js';
import { duckDbRows, lakeConfigFile } from './lake-fixture.js';

const SELECTIVE = (from: string) => `SELECT count(*), sum(v) FROM ${from} WHERE id BETWEEN 25000 AND 25999`;

/** Sums `name = n` over every scan line of an EXPLAIN ANALYZE (one per fragment that scans). */
function metricOfPlan(plan: string, name: string): number {
  return [...plan.matchAll(new RegExp(`\\b${name} = (\\d+)`, 'g'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Every operator summary of the query's tasks, at any stage depth. */
function operatorSummaries(stage: unknown): Record<string, unknown>[] {
  if (stage === null || typeof stage !== 'object') return [];
  const s = stage as { tasks?: { stats?: { pipelines?: { operatorSummaries: Record<string, unknown>[] }[] } }[]; subStages?: unknown[] };
  const own = (s.tasks ?? []).flatMap((t) => (t.stats?.pipelines ?? []).flatMap((p) => p.operatorSummaries));
  return [...own, ...(s.subStages ?? []).flatMap(operatorSummaries)];
}

/** The nodes' connectorReadBytes of GET /v1/status, summed; each node's /metrics says the same. */
async function connectorReadBytes(nodes: readonly string[]): Promise<number> {
  let total = 0;
  for (const node of nodes) {
    const status = (await getJson<{ io: { connectorReadBytes: number } }>(`${node}/v1/status`)).body;
    const metrics = await (await fetch(`${node}/metrics`)).text();
    expect(Number(/^engine_connector_read_bytes(?:_total)? (\d+)$/m.exec(metrics)?.[1]), metrics).to.equal(status.io.connectorReadBytes);
    total += status.io.connectorReadBytes;
  }
  return total;
}

async function checkReadStats(uri: string, dir: string, nodes: readonly string[]): Promise<void> {
  const path = join(dir, 'data', 'events', 'a.parquet');
  mkdirSync(join(dir, 'data', 'events'), { recursive: true });
  await duckDbRows(
    `COPY (SELECT i::BIGINT AS id, (i * 7) % 1000 AS v, 'label ' || i AS label FROM range(100000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`,
  );
  await query(uri, `CREATE TABLE lake.default.events WITH (external_location = 'file://${join(dir, 'data', 'events')}/')`);
  const [[count, sum]] = await duckDbRows(SELECTIVE(`read_parquet('${path}')`));
  expect(await query(uri, SELECTIVE('lake.default.events'))).to.deep.equal([[Number(count), Number(sum)]]);

  const plan = String((await query(uri, `EXPLAIN ANALYZE ${SELECTIVE('lake.default.events')}`))[0][0]);
  expect(
    [metricOfPlan(plan, 'filesRead'), metricOfPlan(plan, 'rowGroupsRead'), metricOfPlan(plan, 'rowGroupsSkipped')],
    plan,
  ).to.deep.equal([1, 1, 9]);
  expect(metricOfPlan(plan, 'bytesSkipped'), plan).to.be.greaterThan(metricOfPlan(plan, 'bytesRead'));

  const before = await connectorReadBytes(nodes);
  const run = await runStatement(uri, SELECTIVE('lake.default.events'));
  const info = (
    await getJson<{ queryStats: { connectorMetrics: Record<string, number> }; outputStage: unknown }>(`${uri}/v1/query/${run.final.id}`)
  ).body;
  const metrics = info.queryStats.connectorMetrics;
  expect({ ...metrics, bytesRead: undefined, bytesSkipped: undefined }).to.deep.equal({
    splitsRead: 1,
    filesRead: 1,
    rowGroupsRead: 1,
    rowGroupsSkipped: 9,
    bytesRead: undefined,
    bytesSkipped: undefined,
  });
  expect(metrics.bytesSkipped).to.be.greaterThan(metrics.bytesRead);
  // The nodes count what their scans read (the footers the plan's statistics need were read by the queries before).
  expect((await connectorReadBytes(nodes)) - before).to.equal(metrics.bytesRead);
  const scans = operatorSummaries(info.outputStage).filter((o) => o.connectorMetrics !== undefined);
  const fromSummaries = scans.reduce((sum, o) => sum + ((o.connectorMetrics as Record<string, number>).rowGroupsSkipped ?? 0), 0);
  expect(fromSummaries, JSON.stringify(scans)).to.equal(9);
}

describe('lake: read statistics in EXPLAIN ANALYZE and the query info', function () {
  this.timeout(180_000);
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-read-stats-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('on one node', async () => {
    const server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    try {
      await checkReadStats(server.uri, dir, [server.uri]);
    } finally {
      await server.stop();
    }
  });

  it('on a coordinator and 2 workers', async () => {
    const config = lakeConfigFile(dir, join(dir, 'catalog'));
    const cluster = await TestCluster.start(2, { config });
    try {
      await cluster.waitForActiveWorkers(2);
      await checkReadStats(cluster.coordinator.uri, dir, [cluster.coordinator.uri, ...[...cluster.workers.values()].map((w) => w.uri)]);
    } finally {
      await cluster.stop();
    }
  });
});
