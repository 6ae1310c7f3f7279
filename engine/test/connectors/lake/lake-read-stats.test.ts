// What a lake scan read and skipped reaches EXPLAIN ANALYZE and GET /v1/query/{id} (the query's
// connector metrics and its tasks' operator summaries), on one node and on a coordinator with 2
// workers: a selective query over a Parquet file DuckDB wrote in 10 row groups reads one of them.

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

async function checkReadStats(uri: string, dir: string): Promise<void> {
  const path = join(dir, 'data', 'events', 'a.parquet');
  mkdirSync(join(dir, 'data', 'events'), { recursive: true });
  await duckDbRows(`COPY (SELECT i::BIGINT AS id, (i * 7) % 1000 AS v, 'label ' || i AS label FROM range(100000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`);
  await query(uri, `CREATE TABLE lake.default.events WITH (external_location = 'file://${join(dir, 'data', 'events')}/')`);
  const [[count, sum]] = await duckDbRows(SELECTIVE(`read_parquet('${path}')`));
  expect(await query(uri, SELECTIVE('lake.default.events'))).to.deep.equal([[Number(count), Number(sum)]]);

  const plan = String((await query(uri, `EXPLAIN ANALYZE ${SELECTIVE('lake.default.events')}`))[0][0]);
  expect([metricOfPlan(plan, 'filesRead'), metricOfPlan(plan, 'rowGroupsRead'), metricOfPlan(plan, 'rowGroupsSkipped')], plan).to.deep.equal([1, 1, 9]);
  expect(metricOfPlan(plan, 'bytesSkipped'), plan).to.be.greaterThan(metricOfPlan(plan, 'bytesRead'));

  const run = await runStatement(uri, SELECTIVE('lake.default.events'));
  const info = (await getJson<{ queryStats: { connectorMetrics: Record<string, number> }; outputStage: unknown }>(`${uri}/v1/query/${run.final.id}`)).body;
  const metrics = info.queryStats.connectorMetrics;
  expect({ ...metrics, bytesRead: undefined, bytesSkipped: undefined }).to.deep.equal({ splitsRead: 1, filesRead: 1, rowGroupsRead: 1, rowGroupsSkipped: 9, bytesRead: undefined, bytesSkipped: undefined });
  expect(metrics.bytesSkipped).to.be.greaterThan(metrics.bytesRead);
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
      await checkReadStats(server.uri, dir);
    } finally {
      await server.stop();
    }
  });

  it('on a coordinator and 2 workers', async () => {
    const config = lakeConfigFile(dir, join(dir, 'catalog'));
    const cluster = await TestCluster.start(2, { coordinatorArgs: ['--config', config], workerArgs: ['--config', config] });
    try {
      await cluster.waitForActiveWorkers(2);
      await checkReadStats(cluster.coordinator.uri, dir);
    } finally {
      await cluster.stop();
    }
  });
});
