import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { getJson, postStatement, type StatementResponse } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';
import { RESPONSES_AHEAD } from '../../src/coordinator/result-buffer.js';

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
        // The producer runs at most RESPONSES_AHEAD responses (plus one page) ahead of what the client took.
        const detail = await getJson<{ queryStats: { outputPositions: number } }>(current.infoUri);
        expect(detail.body.queryStats.outputPositions - received).to.be.at.most(RESPONSES_AHEAD * MAX_ROWS + 65_536);
        bufferChecks++;
      }
    }
    expect(current.stats.state).to.equal('FINISHED');
    expect(received).to.equal(1_000_000);
    expect(seen.every((s) => s === 1)).to.equal(true);
    expect(responses).to.be.at.least(100);
    expect(bufferChecks).to.be.at.least(4);
  });

  it('bounds responses by the padded size of char(n) values, not their stored size', async () => {
    // 1500 customers of about 10 kB each once padded: some 15 MB, which must come in many responses.
    let current: StatementResponse = (await postStatement(server.uri, 'SELECT CAST(c_name AS char(10000)) FROM tpch.tiny.customer')).body;
    let received = 0;
    let responses = 0;
    while (current.nextUri) {
      const text = await (await fetch(current.nextUri)).text();
      current = JSON.parse(text) as StatementResponse;
      expect(current.error, current.error?.message).to.equal(undefined);
      expect(text.length).to.be.below(2 * 1024 * 1024);
      for (const [name] of (current.data ?? []) as string[][]) expect(name).to.have.length(10_000);
      received += current.data?.length ?? 0;
      if (current.data !== undefined) responses++;
    }
    expect(received).to.equal(1500);
    expect(responses).to.be.at.least(8);
  });
});
