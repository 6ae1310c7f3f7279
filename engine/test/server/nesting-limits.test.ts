// Through a real server process (HTTP handler, coordinator, tasks): statements nested 1,000 levels
// deep and a UNION ALL of 1,000 SELECTs run with Node's default stack; one level more, or far more,
// fails with a syntax error naming the limit, and the server goes on answering.

import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { runStatement } from '../support/statement-http.js';

const TRINO = { 'X-Trino-User': 'tester', 'X-Trino-Catalog': 'memory', 'X-Trino-Schema': 'default' };
const TOO_DEEP =
  'Statement is nested too deeply: more than 1000 levels of parentheses, function calls, CASE, operators, NOT, signs or subqueries; at most 1000 are supported';

describe('nesting limits through the server', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  it('runs 1,000 nested parentheses, 1,000 nested calls and 1,000 nested CASE', async () => {
    // 999 parentheses around an operator: 1,000 levels.
    expect((await runStatement(server.uri, `SELECT ${'('.repeat(999)}41 + 1${')'.repeat(999)}`, TRINO)).rows).to.deep.equal([[42]]);
    expect((await runStatement(server.uri, `SELECT ${'('.repeat(1000)}42${')'.repeat(1000)}`, TRINO)).rows).to.deep.equal([[42]]);
    // 999 calls around a sign: 1,000 levels.
    expect((await runStatement(server.uri, `SELECT ${'abs('.repeat(999)}-7${')'.repeat(999)}`, TRINO)).rows).to.deep.equal([[7]]);
    expect(
      (await runStatement(server.uri, `SELECT ${'CASE WHEN true THEN '.repeat(1000)}'x'${' END'.repeat(1000)}`, TRINO)).rows,
    ).to.deep.equal([['x']]);
  });

  it('runs a UNION ALL of 1,000 SELECTs', async () => {
    const sql = Array.from({ length: 1000 }, (_, i) => `SELECT ${i} AS i`).join(' UNION ALL ');
    const rows = (await runStatement(server.uri, `SELECT count(*), sum(i) FROM (${sql})`, TRINO)).rows;
    expect(rows).to.deep.equal([[1000, (999 * 1000) / 2]]);
  });

  it('refuses 1,001 levels and 100,000 levels with a syntax error at the token opening level 1,001', async () => {
    for (const n of [1001, 100_000]) {
      const run = await runStatement(server.uri, `SELECT ${'('.repeat(n)}1${')'.repeat(n)}`, TRINO);
      expect(run.final.error, String(n)).to.deep.include({
        errorName: 'SYNTAX_ERROR',
        errorType: 'USER_ERROR',
        message: `line 1:1008: ${TOO_DEEP}`,
      });
      expect(run.final.error?.errorLocation).to.deep.equal({ lineNumber: 1, columnNumber: 1008 });
      const calls = await runStatement(server.uri, `SELECT ${'abs('.repeat(n)}1${')'.repeat(n)}`, TRINO);
      expect(calls.final.error, String(n)).to.deep.include({ errorName: 'SYNTAX_ERROR', message: `line 1:4008: ${TOO_DEEP}` });
    }
    const union = await runStatement(server.uri, `SELECT 1${' UNION ALL SELECT 1'.repeat(10_000)}`, TRINO);
    expect(union.final.error?.message).to.match(
      /^line 1:\d+: UNION ALL has more than 10000 inputs; at most 10000 are supported in one chain of the same set operator$/,
    );
    expect((await runStatement(server.uri, 'SELECT 1', TRINO)).rows).to.deep.equal([[1]]);
  });
});
