// The query history survives a restart (issue 18): a coordinator with queryHistory.directory writes
// every query that ends; started again on the same folder, it lists them in the web interface and in
// system.runtime.queries, and answers GET /v1/query/{queryId} with the detail written at the end —
// under the same access rules. The history keeps to its bounds (count, age, bytes), oldest first.

import { expect } from 'chai';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryHistory } from '../../src/coordinator/query-history.js';
import type { QuerySummary } from '../../src/coordinator/query-summary.js';
import { createLogger } from '../../src/log/logger.js';
import { ServerProcess } from '../support/server-process.js';
import { getJson, query, runStatement } from '../support/statement-http.js';
import { UiClient } from '../support/ui-client.js';

const ALICE = { 'X-Engine-User': 'alice' };

describe('the query history on disk', function () {
  this.timeout(60_000);
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'engine-history-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("lists an earlier run's queries after a restart, with their detail and plan, to their users only", async () => {
    const args = ['--query-history-directory', directory, '--admin-users', 'admin'];
    const first = await ServerProcess.start(args);
    let finished: string;
    let failed: string;
    try {
      finished = (await runStatement(first.uri, 'SELECT n_regionkey, count(*) FROM tpch.tiny.nation GROUP BY 1', ALICE)).final.id;
      const failure = await runStatement(first.uri, 'SELECT * FROM memory.default.nope', ALICE);
      failed = failure.final.id;
      expect(failure.final.error!.errorName).to.equal('TABLE_NOT_FOUND');
      await runStatement(first.uri, 'SELECT 3', { 'X-Engine-User': 'bob' });
    } finally {
      await first.stop();
    }

    const second = await ServerProcess.start(args);
    try {
      // system.runtime.queries: the earlier run's queries beside this run's own (the query reading the table).
      const rows = await query(
        second.uri,
        "SELECT query_id, state, error_code, query FROM system.runtime.queries WHERE query LIKE '%nation%' OR query LIKE '%nope%' ORDER BY created",
        ALICE,
      );
      const earlier = rows.filter((r) => r[0] === finished || r[0] === failed);
      expect(earlier).to.deep.equal([
        [finished, 'FINISHED', null, 'SELECT n_regionkey, count(*) FROM tpch.tiny.nation GROUP BY 1'],
        [failed, 'FAILED', 'TABLE_NOT_FOUND', 'SELECT * FROM memory.default.nope'],
      ]);
      const bobsView = await query(second.uri, 'SELECT query_id FROM system.runtime.queries', { 'X-Engine-User': 'bob' });
      expect(bobsView.map((r) => r[0])).to.not.include(finished);

      // The web interface lists them; the detail is what the query answered when it ended, plan included.
      const ui = await UiClient.signIn(second.uri, 'alice');
      const list = (
        await ui.get<{ queries: Array<{ queryId: string; state: string; errorType: string | null }> }>(
          '/ui/api/queries?state=finished,failed',
        )
      ).body.queries;
      expect(list.map((q) => q.queryId)).to.include.members([finished, failed]);
      expect(list.find((q) => q.queryId === failed)!.errorType).to.equal('USER_ERROR');
      const detail = (
        await ui.get<{
          state: string;
          query: string;
          plan: Array<{ nodes: Array<{ kind: string }> }>;
          outputStage: { subStages: unknown[] };
        }>(`/ui/api/queries/${finished}`)
      ).body;
      expect(detail.state).to.equal('FINISHED');
      expect(detail.plan.flatMap((f) => f.nodes.map((n) => n.kind))).to.include.members(['TableScan', 'Aggregate']);
      expect(detail.outputStage.subStages).to.not.be.empty;

      const rest = await getJson<{ queryId: string; state: string }>(`${second.uri}/v1/query/${finished}`, { headers: ALICE });
      expect(rest.status).to.equal(200);
      expect(rest.body.state).to.equal('FINISHED');
      expect((await getJson(`${second.uri}/v1/query/${finished}`, { headers: { 'X-Engine-User': 'bob' } })).status).to.equal(404);
      expect((await getJson(`${second.uri}/v1/query/${finished}`, { headers: { 'X-Engine-User': 'admin' } })).status).to.equal(200);
    } finally {
      await second.stop();
    }
  });

  it('keeps at most maxCount queries, dropping the oldest with their files, also across a restart', async () => {
    const logger = createLogger('silent');
    const options = { directory, maxCount: 3, maxAgeMillis: 86_400_000, maxBytes: 1024 ** 3 };
    const history = await QueryHistory.open(options, logger);
    const now = Date.now();
    for (let i = 0; i < 5; i++) history.record(summaryAt(i, now - 1000 + i), { queryId: queryId(i), stages: [] });
    await history.flush();
    expect(history.list().map((s) => s.queryId)).to.deep.equal([queryId(2), queryId(3), queryId(4)]);
    expect(await readdir(join(directory, 'queries'))).to.have.members([2, 3, 4].map((i) => `${queryId(i)}.json.gz`));
    expect(await history.detail(queryId(4))).to.deep.equal({ queryId: queryId(4), stages: [] });
    expect(await history.detail(queryId(0))).to.equal(undefined);

    const reopened = await QueryHistory.open({ ...options, maxCount: 2 }, logger);
    expect(reopened.list().map((s) => s.queryId)).to.deep.equal([queryId(3), queryId(4)]);
  });

  it('drops queries older than maxAge and keeps within maxBytes', async () => {
    const logger = createLogger('silent');
    const now = Date.now();
    const aged = await QueryHistory.open({ directory, maxCount: 100, maxAgeMillis: 60_000, maxBytes: 1024 ** 3 }, logger);
    aged.record(summaryAt(0, now - 120_000), { old: true });
    aged.record(summaryAt(1, now), { old: false });
    await aged.flush();
    expect(aged.list().map((s) => s.queryId)).to.deep.equal([queryId(1)]);

    const small = await QueryHistory.open({ directory, maxCount: 100, maxAgeMillis: 86_400_000, maxBytes: 2000 }, logger);
    for (let i = 2; i < 12; i++) small.record(summaryAt(i, now + i), { padding: 'x'.repeat(100) });
    await small.flush();
    expect(small.bytes).to.be.at.most(2000);
    expect(small.list().length).to.be.within(1, 9);
    expect(small.list().at(-1)!.queryId).to.equal(queryId(11));
  });
});

function queryId(i: number): string {
  return `20260101_000000_${String(i).padStart(5, '0')}_hist0`;
}

function summaryAt(i: number, endTime: number): QuerySummary {
  return {
    queryId: queryId(i),
    state: 'FINISHED',
    user: 'alice',
    source: null,
    query: `SELECT ${i}`,
    resourceGroupId: null,
    createTime: endTime - 10,
    executionStartTime: endTime - 9,
    endTime,
    elapsedMillis: 10,
    queuedMillis: 1,
    cpuMillis: 1,
    peakMemoryBytes: 0,
    processedRows: 0,
    processedBytes: 0,
    outputRows: 1,
    totalSplits: 0,
    completedSplits: 0,
    progress: 100,
    errorName: null,
    errorType: null,
    errorMessage: null,
  };
}
