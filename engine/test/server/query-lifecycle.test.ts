import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, runStatement } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

interface QueryDetail {
  state: string;
  errorCode?: { name: string };
  failureInfo?: { message: string };
}

async function waitForQueryState(base: string, queryId: string, state: string): Promise<QueryDetail> {
  for (;;) {
    const detail = (await getJson<QueryDetail>(`${base}/v1/query/${queryId}`)).body;
    if (detail.state === state) return detail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('query lifecycle', function () {
  it('queues queries beyond query.maxRunning and refuses them beyond query.maxQueued', async () => {
    const server = await ServerProcess.start(['--query-max-running', '1', '--query-max-queued', '1']);
    try {
      const base = server.uri;
      const blocking = await postStatement(base, MILLION_ROWS_SQL);
      expect(blocking.body.stats.state).to.equal('RUNNING');
      const waiting = await postStatement(base, 'SELECT 1 AS queued');
      expect(waiting.body.stats.state).to.equal('QUEUED');
      expect(waiting.body.stats.queued).to.equal(true);
      const refused = await runStatement(base, 'SELECT 2');
      expect(refused.final.error).to.deep.include({
        errorName: 'QUERY_QUEUE_FULL',
        message: 'Too many queued queries for "global.anonymous"',
      });
      const status = await getJson<{ workload: { runningQueries: number; queuedQueries: number } }>(`${base}/v1/status`);
      expect(status.body.workload).to.include({ runningQueries: 1, queuedQueries: 1 });
      await fetch(`${base}/v1/query/${blocking.body.id}`, { method: 'DELETE' });
      const run = await follow(waiting);
      expect(run.rows).to.deep.equal([[1]]);
    } finally {
      await server.stop();
    }
  });

  it('fails a query whose client stops polling with ABANDONED_QUERY', async () => {
    const server = await ServerProcess.start(['--query-client-timeout', '1s']);
    try {
      const first = await postStatement(server.uri, MILLION_ROWS_SQL);
      const detail = await waitForQueryState(server.uri, first.body.id, 'FAILED');
      expect(detail.errorCode?.name).to.equal('ABANDONED_QUERY');
      expect(detail.failureInfo?.message).to.match(new RegExp(`^Query ${first.body.id} was abandoned by the client`));
    } finally {
      await server.stop();
    }
  });

  it('keeps at most query.maxHistory finished queries', async () => {
    const server = await ServerProcess.start(['--query-max-history', '2']);
    try {
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        const run = await runStatement(server.uri, `SELECT ${n}`);
        ids.push(run.final.id);
      }
      const listed = (await getJson<Array<{ queryId: string }>>(`${server.uri}/v1/query`)).body.map((q) => q.queryId);
      expect(listed).to.deep.equal(ids.slice(1));
      expect((await getJson(`${server.uri}/v1/query/${ids[0]}`)).status).to.equal(404);
      expect(await query(server.uri, 'SELECT 4')).to.deep.equal([[4]]);
    } finally {
      await server.stop();
    }
  });

  it('finishes a query early on a partial cancel, delivering what was produced', async () => {
    const server = await ServerProcess.start(['--results-max-rows', '1000']);
    try {
      const first = await postStatement(server.uri, MILLION_ROWS_SQL);
      const cancel = await fetch(first.body.partialCancelUri!, { method: 'DELETE' });
      expect(cancel.status).to.equal(204);
      const run = await follow(first);
      expect(run.final.stats.state).to.equal('FINISHED');
      expect(run.final.error).to.equal(undefined);
      expect(run.rows.length).to.be.above(0).and.below(1_000_000);
    } finally {
      await server.stop();
    }
  });
});
