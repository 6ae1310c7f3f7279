import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, runStatement } from '../support/statement-http.js';
import { numbers } from './sql-fixtures.js';

interface ErrorJson {
  error: { message: string; errorName?: string };
}

describe('bad input over HTTP', function () {
  let server: ServerProcess;
  let base: string;

  before(async () => {
    server = await ServerProcess.start();
    base = server.uri;
  });
  after(async () => {
    await server.stop();
  });
  afterEach(async () => {
    // Whatever the request did, the server still answers queries.
    expect(await query(base, 'SELECT 1 + 1')).to.deep.equal([[2]]);
  });

  it('answers an empty statement with 400', async () => {
    const response = await getJson<ErrorJson>(`${base}/v1/statement`, { method: 'POST', body: '' });
    expect(response.status).to.equal(400);
    expect(response.body.error.message).to.equal('SQL statement is empty');
  });

  it('fails a 10 MB statement with QUERY_TEXT_TOO_LARGE', async () => {
    const sql = `SELECT '${'x'.repeat(10 * 1024 * 1024)}'`;
    const run = await runStatement(base, sql);
    expect(run.final.error).to.deep.include({
      errorName: 'QUERY_TEXT_TOO_LARGE',
      message: `Query text length (${sql.length}) exceeds the maximum length (1000000)`,
    });
  });

  it('answers a body over the request limit with 413', async () => {
    const response = await getJson<ErrorJson>(`${base}/v1/statement`, { method: 'POST', body: 'x'.repeat(17 * 1024 * 1024) });
    expect(response.status).to.equal(413);
    expect(response.body.error.message).to.equal(`Request body of ${17 * 1024 * 1024} bytes exceeds the limit of 16MB`);
  });

  it('answers invalid UTF-8 with 400', async () => {
    const response = await postStatement(base, new Uint8Array([0x53, 0x45, 0x4c, 0xff, 0xfe, 0x31]));
    expect(response.status).to.equal(400);
    expect((response.body as unknown as ErrorJson).error.message).to.equal('Request body is not valid UTF-8');
  });

  it('answers malformed protocol headers with 400', async () => {
    const response = await postStatement(base, 'SELECT 1', { 'X-Trino-Session': 'no_equals_sign' });
    expect(response.status).to.equal(400);
    expect((response.body as unknown as ErrorJson).error.message).to.equal(
      "Invalid X-Trino-Session header: 'no_equals_sign' is not name=value",
    );
  });

  it('answers an unknown time zone with 400 instead of running the query in UTC', async () => {
    const response = await postStatement(base, 'SELECT current_timezone()', { 'X-Presto-Time-Zone': 'Foo/Bar' });
    expect(response.status).to.equal(400);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect((response.body as unknown as ErrorJson).error).to.deep.equal({
      message: 'Time zone not supported: Foo/Bar (X-Presto-Time-Zone header)',
      errorName: 'NOT_SUPPORTED',
    });
    const offset = await runStatement(base, 'SELECT current_timezone()', { 'X-Trino-Time-Zone': '+05:30' });
    expect(offset.rows).to.deep.equal([['+05:30']]);
  });

  it('answers a wrong method with 405 and the allowed ones, and an unknown path with 404, both in JSON', async () => {
    const wrong = await getJson<ErrorJson>(`${base}/v1/statement`, { method: 'GET' });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.equal('POST');
    expect(wrong.body.error.message).to.equal('Method GET is not allowed for /v1/statement (allowed: POST)');
    const wrongInfo = await getJson<ErrorJson>(`${base}/v1/info`, { method: 'DELETE' });
    expect(wrongInfo.status).to.equal(405);
    const unknown = await getJson<ErrorJson>(`${base}/v2/nothing`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.message).to.equal('Not found: GET /v2/nothing');
    expect(unknown.headers.get('content-type')).to.match(/^application\/json/);
  });

  it('answers a 50,000-item IN list', async () => {
    const items = Array.from({ length: 50_000 }, (_, i) => i * 2).join(', ');
    const rows = await query(base, `SELECT count(*) FROM ${numbers(10, 't', 'x')} WHERE x IN (${items})`);
    expect(rows).to.deep.equal([[5]]);
  });

  it('answers a 200,000-item IN list', async () => {
    expect(await query(base, `SELECT 1 WHERE 1 IN (${'0,'.repeat(199_999)}1)`)).to.deep.equal([[1]]);
  });

  it('serves 50 concurrent clients, each its own answer', async () => {
    const runs = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const rows = await query(base, `SELECT ${i} * x FROM ${numbers(100, 't', 'x')} ORDER BY x`);
        return rows.map((r) => r[0]);
      }),
    );
    runs.forEach((values, i) => expect(values).to.deep.equal(Array.from({ length: 100 }, (_, x) => i * x)));
  });

  it('keeps serving after a client abandons a query mid-stream and after failures', async () => {
    const first = await postStatement(base, `SELECT a.x FROM ${numbers(1000, 'a', 'x')} CROSS JOIN ${numbers(1000, 'b', 'y')}`);
    await getJson(first.body.nextUri!);
    const failures = await Promise.all(
      ['SELECT 1/0', 'SELECT nope()', "SELECT CAST('x' AS integer)", 'SELEC 1'].map((sql) => runStatement(base, sql)),
    );
    expect(failures.map((f) => f.final.error?.errorName)).to.deep.equal([
      'DIVISION_BY_ZERO',
      'FUNCTION_NOT_FOUND',
      'INVALID_CAST_ARGUMENT',
      'SYNTAX_ERROR',
    ]);
    await fetch(`${base}/v1/query/${first.body.id}`, { method: 'DELETE' });
  });
});

describe('query memory limit', function () {
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start(['--query-max-memory-per-node', '1MB']);
  });
  after(async () => {
    await server.stop();
  });

  it('fails a query over the limit with EXCEEDED_LOCAL_MEMORY_LIMIT and keeps serving', async () => {
    const sql = `SELECT a.x * 1000 + b.y AS v FROM ${numbers(1000, 'a', 'x')} CROSS JOIN ${numbers(1000, 'b', 'y')} ORDER BY v DESC`;
    const run = await follow(await postStatement(server.uri, sql));
    expect(run.final.error?.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(run.final.error?.errorType).to.equal('INSUFFICIENT_RESOURCES');
    expect(run.final.error?.message).to.match(/^Query exceeded per-node memory limit of 1\.00MB \[Allocated: .+\]$/);
    expect(await query(server.uri, 'SELECT 40 + 2')).to.deep.equal([[42]]);
    const status = await getJson<{ memoryInfo: { pools: { general: { reservedBytes: number } } } }>(`${server.uri}/v1/status`);
    expect(status.body.memoryInfo.pools.general.reservedBytes).to.equal(0);
  });
});
