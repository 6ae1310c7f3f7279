import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { getJson, query } from '../support/statement-http.js';

// Patterns that took a backtracking matcher from a minute to forever: through a real server they
// answer, and the node keeps answering /v1/info meanwhile.
const STATEMENTS: ReadonlyArray<[sql: string, expected: unknown[][]]> = [
  ["SELECT regexp_like(rpad('a', 100000, 'a') || 'b', '(a+)+$')", [[false]]],
  ["SELECT regexp_like(rpad('a', 100000, 'a') || 'b', '(a+)+b')", [[true]]],
  ["SELECT rpad('a', 100000, 'a') LIKE '%a%a%a%b'", [[false]]],
  ["SELECT rpad('a', 100000, 'a') || 'b' LIKE '%a%a%a%b'", [[true]]],
  ["SELECT count(*) FROM (VALUES rpad('a', 100000, 'a'), 'xaaab') AS t(x) WHERE x LIKE '%a%a%a%b'", [[1]]],
];

describe('pattern matching through the server', function () {
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  it('answers catastrophic LIKE and regexp patterns while /v1/info keeps answering', async () => {
    let running = true;
    const results = Promise.all(STATEMENTS.map(([sql]) => query(server.uri, sql))).finally(() => (running = false));
    const infoStatuses: number[] = [];
    do {
      const info = await getJson<Record<string, unknown>>(`${server.uri}/v1/info`, { signal: AbortSignal.timeout(30_000) });
      infoStatuses.push(info.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (running);
    const rows = await results;
    expect(rows).to.deep.equal(STATEMENTS.map(([, expected]) => expected));
    expect(infoStatuses).to.not.be.empty;
    expect(infoStatuses.every((status) => status === 200)).to.equal(true);
  });
});
