import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { getJson, postStatement, type StatementResponse } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

describe('result streaming', function () {
  let server: ServerProcess;
  const MAX_ROWS = 10_000;

  before(async () => {
    server = await ServerProcess.start(['--results-max-rows', String(MAX_ROWS), '--results-max-bytes', '1MB']);
  });
  after(async () => {
    await server.stop();
  });

  it('pages a million rows across many bounded responses while holding only a bounded buffer', async () => {
    const first = await postStatement(server.uri, MILLION_ROWS_SQL);
    const seen = new Uint8Array(1_000_000);
    let received = 0;
    let responses = 0;
    let bufferChecks = 0;
    let current: StatementResponse = first.body;
    while (current.nextUri) {
      const response = await fetch(current.nextUri);
      const text = await response.text();
      current = JSON.parse(text) as StatementResponse;
      expect(current.error, current.error?.message).to.equal(undefined);
      const data = current.data ?? [];
      expect(data.length).to.be.at.most(MAX_ROWS);
      expect(text.length).to.be.below(2 * 1024 * 1024);
      for (const [v] of data as number[][]) {
        expect(seen[v!], `row ${v} twice`).to.equal(0);
        seen[v!] = 1;
      }
      received += data.length;
      responses++;
      if (responses % 20 === 5 && current.nextUri) {
        // The producer runs at most one response (plus one page) ahead of what the client took.
        const detail = await getJson<{ queryStats: { outputPositions: number } }>(current.infoUri);
        expect(detail.body.queryStats.outputPositions - received).to.be.at.most(MAX_ROWS + 65_536);
        bufferChecks++;
      }
    }
    expect(current.stats.state).to.equal('FINISHED');
    expect(received).to.equal(1_000_000);
    expect(seen.every((s) => s === 1)).to.equal(true);
    expect(responses).to.be.at.least(100);
    expect(bufferChecks).to.be.at.least(4);
  });
});
