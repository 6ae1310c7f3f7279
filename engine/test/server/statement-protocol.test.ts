import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, runStatement, type StatementResponse } from '../support/statement-http.js';
import { QUERY_ID, expectFields, expectQueryStats, expectStatementStats, expectTask } from './shapes.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

const TRINO = { 'X-Trino-User': 'tester', 'X-Trino-Source': 'protocol-test', 'X-Trino-Catalog': 'memory', 'X-Trino-Schema': 'default' };

describe('statement protocol', function () {
  let server: ServerProcess;
  let base: string;

  before(async () => {
    server = await ServerProcess.start();
    base = server.uri;
  });
  after(async () => {
    await server.stop();
  });

  it('answers POST with id, infoUri, partialCancelUri, nextUri, columns and stats, without rows', async () => {
    const first = await postStatement(base, "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z", TRINO);
    expect(first.status).to.equal(200);
    expect(first.headers.get('content-type')).to.match(/^application\/json/);
    const body = first.body;
    expect(body.id).to.match(QUERY_ID);
    expect(body.infoUri).to.equal(`${base}/v1/query/${body.id}`);
    expect(body.partialCancelUri).to.equal(`${base}/v1/stage/${body.id}.0`);
    expect(body.nextUri).to.match(new RegExp(`^${base}/v1/statement/${body.id}/1\\.[0-9a-f]{32}$`));
    expect(body.columns!.map((c) => c.name)).to.deep.equal(['x', 'y', 'z']);
    expect(body).not.to.have.property('data');
    expect(body.warnings).to.deep.equal([]);
    expectStatementStats(body.stats);
    await follow(first);
  });

  it('returns rows with Trino type names and type signatures, and a final response without nextUri', async () => {
    const run = await runStatement(base, "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z, CAST(NULL AS bigint) AS n", TRINO);
    expect(run.columns).to.deep.equal([
      { name: 'x', type: 'integer', typeSignature: { rawType: 'integer', arguments: [] } },
      { name: 'y', type: 'varchar(1)', typeSignature: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 1 }] } },
      {
        name: 'z',
        type: 'decimal(3,2)',
        typeSignature: {
          rawType: 'decimal',
          arguments: [
            { kind: 'LONG', value: 3 },
            { kind: 'LONG', value: 2 },
          ],
        },
      },
      { name: 'n', type: 'bigint', typeSignature: { rawType: 'bigint', arguments: [] } },
    ]);
    expect(run.rows).to.deep.equal([[1, 'a', '1.50', null]]);
    expect(run.final).not.to.have.property('nextUri');
    expect(run.final.stats.state).to.equal('FINISHED');
    expect(run.final.stats.rootStage).to.include({ stageId: '0', state: 'FINISHED', done: true });
    expectStatementStats(run.final.stats);
    for (const exchange of run.exchanges) expect(exchange.body.id).to.equal(run.final.id);
  });

  it('sends char(n) values padded to n, typed char(n); a char cast to varchar unpadded', async () => {
    const run = await runStatement(
      base,
      "SELECT CAST('ab' AS char(4)) AS c, CAST(NULL AS char(2)) AS n, CAST('a' AS char(3)) || CAST('b' AS char(2)) AS cc, CAST(CAST('ab' AS char(4)) AS varchar) AS v",
      TRINO,
    );
    const charOf = (name: string, length: number) => ({
      name,
      type: `char(${length})`,
      typeSignature: { rawType: 'char', arguments: [{ kind: 'LONG', value: length }] },
    });
    expect(run.columns).to.deep.equal([
      charOf('c', 4),
      charOf('n', 2),
      charOf('cc', 5),
      { name: 'v', type: 'varchar', typeSignature: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 2147483647 }] } },
    ]);
    expect(run.rows).to.deep.equal([['ab  ', null, 'a  b ', 'ab']]);
  });

  it('writes 64-bit integers with their exact digits', async () => {
    let next = (
      await postStatement(
        base,
        "SELECT 9223372036854775807 AS max, BIGINT '-9223372036854775808' AS min, BIGINT '9007199254740993' AS odd, 42 AS small",
        TRINO,
      )
    ).body.nextUri;
    const texts: string[] = [];
    while (next) {
      const text = await (await fetch(next)).text();
      texts.push(text);
      next = (JSON.parse(text) as StatementResponse).nextUri;
    }
    expect(texts.join('')).to.contain('"data":[[9223372036854775807,-9223372036854775808,9007199254740993,42]]');
  });

  it('creates, fills and reads a memory table', async () => {
    const create = await runStatement(base, 'CREATE TABLE memory.default.protocol_t (a bigint, b varchar)', TRINO);
    expect(create.final.error).to.equal(undefined);
    expect(create.final.updateType).to.equal('CREATE TABLE');
    expect(create.rows).to.deep.equal([]);
    const insert = await runStatement(base, "INSERT INTO memory.default.protocol_t VALUES (1, 'x'), (2, 'y'), (3, NULL)", TRINO);
    expect(insert.final.error).to.equal(undefined);
    expect(insert.final.updateType).to.equal('INSERT');
    expect(insert.final.updateCount).to.equal(3);
    expect(await query(base, 'SELECT a, b FROM protocol_t ORDER BY a', TRINO)).to.deep.equal([
      [1, 'x'],
      [2, 'y'],
      [3, null],
    ]);
  });

  it('returns the same response again for the current token, 410 for an older one and 404 for a later one', async () => {
    const first = await postStatement(base, 'SELECT 42', TRINO);
    const next = first.body.nextUri!;
    const a = await getJson<StatementResponse>(next);
    const b = await getJson<StatementResponse>(next);
    expect(a.status).to.equal(200);
    expect(b.body).to.deep.equal(a.body);
    const withSequence = (sequence: string) => next.replace(/\/1\.([0-9a-f]{32})$/, `/${sequence}.$1`);
    const older = await getJson<{ error: { message: string } }>(withSequence('0'));
    expect(older.status).to.equal(410);
    expect(older.body.error.message).to.contain('no longer available');
    const later = await getJson<{ error: { message: string } }>(withSequence('7'));
    expect(later.status).to.equal(404);
    expect(later.body.error.message).to.contain('does not exist');
    const bogus = await getJson<{ error: { message: string } }>(withSequence('abc'));
    expect(bogus.status).to.equal(404);
    const rows = await follow({ status: 200, headers: new Headers(), body: a.body });
    expect([...(a.body.data ?? []), ...rows.rows]).to.deep.equal([[42]]);
  });

  it('answers unknown queries with a 404 JSON error', async () => {
    for (const [method, path] of [
      ['GET', '/v1/statement/20200101_000000_00000_zzzzz/1'],
      ['DELETE', '/v1/statement/20200101_000000_00000_zzzzz/1'],
      ['GET', '/v1/query/20200101_000000_00000_zzzzz'],
      ['DELETE', '/v1/query/20200101_000000_00000_zzzzz'],
    ] as const) {
      const response = await getJson<{ error: { message: string } }>(`${base}${path}`, { method });
      expect(response.status, `${method} ${path}`).to.equal(404);
      expect(response.body.error.message).to.equal('Query not found: 20200101_000000_00000_zzzzz');
    }
  });

  it('reports a missing table with its message, error code and position', async () => {
    const run = await runStatement(base, 'SELECT * FROM memory.default.nope', TRINO);
    const error = run.final.error!;
    expect(run.final.stats.state).to.equal('FAILED');
    expect(run.final).not.to.have.property('nextUri');
    expect(error).to.deep.include({
      message: "line 1:15: Table 'memory.default.nope' does not exist",
      errorCode: 46,
      errorName: 'TABLE_NOT_FOUND',
      errorType: 'USER_ERROR',
      errorLocation: { lineNumber: 1, columnNumber: 15 },
    });
    expect(error.failureInfo).to.deep.include({
      message: error.message,
      suppressed: [],
      errorLocation: { lineNumber: 1, columnNumber: 15 },
    });
    expect(error.failureInfo.type).to.be.a('string');
    expect(error.failureInfo.stack).to.be.an('array');
  });

  it('reports a syntax error with its position', async () => {
    const run = await runStatement(base, 'SELECT 1 +', TRINO);
    expect(run.final.error).to.deep.include({
      message: "line 1:11: mismatched input '<EOF>'. Expecting: <expression>",
      errorName: 'SYNTAX_ERROR',
      errorCode: 1,
      errorType: 'USER_ERROR',
      errorLocation: { lineNumber: 1, columnNumber: 11 },
    });
  });

  it('reports a statement or clause the engine does not run as NOT_SUPPORTED naming it, with its position', async () => {
    const update = await runStatement(base, 'ANALYZE memory.default.t', TRINO);
    expect(update.final.error).to.deep.include({
      message: 'line 1:1: ANALYZE is not supported',
      errorName: 'NOT_SUPPORTED',
      errorCode: 13,
      errorType: 'USER_ERROR',
      errorLocation: { lineNumber: 1, columnNumber: 1 },
    });
    const versioned = await runStatement(base, 'SELECT *\nFROM tpch.tiny.nation FOR VERSION AS OF 5', TRINO);
    expect(versioned.final.error).to.deep.include({
      message: 'line 2:23: FOR VERSION AS OF is not supported',
      errorName: 'NOT_SUPPORTED',
      errorLocation: { lineNumber: 2, columnNumber: 23 },
    });
  });

  it('answers USE with Set-Catalog and Set-Schema in the spelling of the request', async () => {
    await query(base, 'CREATE SCHEMA memory.use_s', TRINO);
    await query(base, 'CREATE TABLE memory.use_s.u AS SELECT 7 AS v', TRINO);
    for (const prefix of ['X-Trino-', 'X-Presto-', 'X-Engine-']) {
      const run = await runStatement(base, 'USE memory.use_s', { [`${prefix}User`]: 'tester' });
      expect(run.final.error).to.equal(undefined);
      expect(run.final.updateType).to.equal('USE');
      const last = run.exchanges[run.exchanges.length - 1]!.headers;
      expect(last.get(`${prefix}Set-Catalog`)).to.equal('memory');
      expect(last.get(`${prefix}Set-Schema`)).to.equal('use_s');
    }
    const noPrefix = await runStatement(base, 'USE memory.use_s');
    expect(noPrefix.exchanges[noPrefix.exchanges.length - 1]!.headers.get('X-Engine-Set-Schema')).to.equal('use_s');
    expect(await query(base, 'SELECT v FROM u', { ...TRINO, 'X-Trino-Schema': 'use_s' })).to.deep.equal([[7]]);
  });

  it('answers SET SESSION with Set-Session and RESET SESSION with Clear-Session, and applies the Session header', async () => {
    const set = await runStatement(base, "SET SESSION query_max_execution_time = '1h'", TRINO);
    expect(set.final.error).to.equal(undefined);
    expect(set.final.updateType).to.equal('SET SESSION');
    expect(set.exchanges[set.exchanges.length - 1]!.headers.get('X-Trino-Set-Session')).to.equal('query_max_execution_time=1h');
    const reset = await runStatement(base, 'RESET SESSION query_max_execution_time', TRINO);
    expect(reset.exchanges[reset.exchanges.length - 1]!.headers.get('X-Trino-Clear-Session')).to.equal('query_max_execution_time');
    const shown = await query(base, 'SHOW SESSION', { ...TRINO, 'X-Trino-Session': 'query_max_execution_time=2h' });
    const row = shown.find((r) => r[0] === 'query_max_execution_time');
    expect(row![1]).to.equal('2h');
    const bad = await runStatement(base, 'SELECT 1', { ...TRINO, 'X-Trino-Session': 'no_such_property=1' });
    expect(bad.final.error?.errorName).to.equal('INVALID_SESSION_PROPERTY');
  });

  it('fails a query whose Session header names a property that does not exist, also of a catalog', async () => {
    const errorOf = async (session: string) => (await runStatement(base, 'SELECT 1', { ...TRINO, 'X-Trino-Session': session })).final.error;
    expect(await errorOf('spill_enabled=false')).to.deep.include({
      errorName: 'INVALID_SESSION_PROPERTY',
      message: "Session property 'spill_enabled' does not exist",
    });
    expect(await errorOf('memory.splits_per_node=4')).to.deep.include({
      errorName: 'INVALID_SESSION_PROPERTY',
      message: "Session property 'memory.splits_per_node' does not exist",
    });
    expect(await errorOf('nope.x=1')).to.deep.include({ errorName: 'CATALOG_NOT_FOUND', message: "Catalog 'nope' not found" });
    expect(await errorOf('task_concurrency=four')).to.deep.include({
      errorName: 'INVALID_SESSION_PROPERTY',
      message: "Invalid value for session property 'task_concurrency': 'four' is not an integer",
    });
  });

  it("shows the node's real default of query_max_memory: memory.queryMaxMemory, 20GB unless configured", async () => {
    const shown = await query(base, "SHOW SESSION LIKE 'query_max_memory'", TRINO);
    expect(shown.map((r) => r.slice(0, 3))).to.deep.equal([['query_max_memory', '20GB', '20GB']]);
  });

  it('fails a query that runs longer than its query_max_execution_time with EXCEEDED_TIME_LIMIT', async () => {
    // A million rows that the client does not read: the result buffer holds the query RUNNING until it is read.
    const headers = { ...TRINO, 'X-Trino-Session': 'query_max_execution_time=1s' };
    const first = await postStatement(base, MILLION_ROWS_SQL, headers);
    let state = '';
    for (let attempt = 0; attempt < 120 && state !== 'FAILED'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = (await getJson<{ state: string }>(`${base}/v1/query/${first.body.id}`, { headers })).body.state;
    }
    const run = await follow(first, headers);
    expect(run.final.error).to.deep.include({
      errorName: 'EXCEEDED_TIME_LIMIT',
      errorType: 'INSUFFICIENT_RESOURCES',
      message: 'Query exceeded the maximum execution time limit of 1.00s',
    });
  });

  it('round-trips prepared statements through Added-Prepare and the Prepared-Statement header', async () => {
    const prepare = await runStatement(base, 'PREPARE my_query FROM SELECT ? + 1, ?', TRINO);
    expect(prepare.final.error).to.equal(undefined);
    const added = prepare.exchanges[prepare.exchanges.length - 1]!.headers.get('X-Trino-Added-Prepare');
    expect(added).to.equal(`my_query=${encodeURIComponent('SELECT ? + 1, ?')}`);
    const headers = { ...TRINO, 'X-Trino-Prepared-Statement': added! };
    expect(await query(base, "EXECUTE my_query USING 41, 'x'", headers)).to.deep.equal([[42, 'x']]);
    const deallocate = await runStatement(base, 'DEALLOCATE PREPARE my_query', headers);
    expect(deallocate.exchanges[deallocate.exchanges.length - 1]!.headers.get('X-Trino-Deallocated-Prepare')).to.equal('my_query');
    const missing = await runStatement(base, 'EXECUTE my_query USING 1, 2', TRINO);
    expect(missing.final.error?.errorName).to.equal('NOT_FOUND');
  });

  it('cancels through DELETE /v1/query/{queryId}: the query ends FAILED with USER_CANCELED', async () => {
    const first = await postStatement(base, MILLION_ROWS_SQL, TRINO);
    const cancel = await fetch(`${base}/v1/query/${first.body.id}`, { method: 'DELETE', headers: TRINO });
    expect(cancel.status).to.equal(204);
    const run = await follow(first);
    expect(run.final.stats.state).to.equal('FAILED');
    expect(run.final.error).to.deep.include({ errorName: 'USER_CANCELED', errorCode: 3, message: 'Query was canceled' });
    const detail = await getJson<Record<string, unknown>>(first.body.infoUri, { headers: TRINO });
    expect(detail.body.state).to.equal('FAILED');
    expect(detail.body.errorCode).to.deep.equal({ code: 3, name: 'USER_CANCELED', type: 'USER_ERROR' });
  });

  it('cancels through DELETE nextUri while rows are being read', async () => {
    const first = await postStatement(base, MILLION_ROWS_SQL, TRINO);
    const page = await getJson<StatementResponse>(first.body.nextUri!);
    expect(page.body.stats.state).to.equal('RUNNING');
    const cancel = await fetch(page.body.nextUri!, { method: 'DELETE' });
    expect(cancel.status).to.equal(204);
    const run = await follow({ status: 200, headers: page.headers, body: page.body });
    expect(run.final.error?.errorName).to.equal('USER_CANCELED');
  });

  it('lists queries and details each one with its stage and task', async () => {
    const ok = await runStatement(base, 'SELECT 1 AS one', { ...TRINO, 'User-Agent': 'detail-test' });
    const failed = await runStatement(base, 'SELECT * FROM memory.default.nope', TRINO);
    const list = await getJson<Array<Record<string, unknown>>>(`${base}/v1/query`, { headers: TRINO });
    expect(list.status).to.equal(200);
    const item = list.body.find((q) => q.queryId === ok.final.id)!;
    expectFields(
      item,
      { queryId: 'string', state: 'string', query: 'string', session: 'object', queryStats: 'object', self: 'string' },
      'list item',
    );
    expect(item).to.include({ state: 'FINISHED', query: 'SELECT 1 AS one' });
    expect(item.session).to.include({ user: 'tester', source: 'protocol-test' });
    expect(item.resourceGroupId).to.deep.equal(['global', 'tester']);
    expectFields(
      item.queryStats,
      { createTime: 'timestamp', endTime: 'timestamp', elapsedTime: 'duration', queuedTime: 'duration' },
      'list item.queryStats',
    );
    const failedItem = list.body.find((q) => q.queryId === failed.final.id)!;
    expect(failedItem.errorCode).to.deep.equal({ code: 46, name: 'TABLE_NOT_FOUND', type: 'USER_ERROR' });
    const finished = await getJson<Array<Record<string, unknown>>>(`${base}/v1/query?state=finished`, { headers: TRINO });
    expect(finished.body.every((q) => q.state === 'FINISHED')).to.equal(true);
    expect((await getJson(`${base}/v1/query?state=sleeping`)).status).to.equal(400);

    const detail = (await getJson<Record<string, unknown>>(ok.final.infoUri, { headers: TRINO })).body;
    expectFields(
      detail,
      {
        queryId: 'string',
        session: 'object',
        state: 'string',
        self: 'string',
        fieldNames: 'array',
        query: 'string',
        queryStats: 'object',
        outputStage: 'object',
      },
      'detail',
    );
    expect(detail).to.include({ queryId: ok.final.id, state: 'FINISHED', self: ok.final.infoUri, query: 'SELECT 1 AS one' });
    expect(detail.fieldNames).to.deep.equal(['one']);
    expect(detail.resourceGroupId).to.deep.equal(['global', 'tester']);
    expectFields(
      detail.session,
      {
        user: 'string',
        source: 'string',
        catalog: 'string',
        schema: 'string',
        remoteUserAddress: 'string',
        userAgent: 'string',
        startTime: 'integer',
      },
      'detail.session',
    );
    expect(detail.session).to.include({
      user: 'tester',
      source: 'protocol-test',
      catalog: 'memory',
      schema: 'default',
      userAgent: 'detail-test',
    });
    expectQueryStats(detail.queryStats, true);
    expect(detail.queryStats).to.include({ outputPositions: 1, totalTasks: 1, completedTasks: 1 });
    const stage = detail.outputStage as Record<string, unknown>;
    expectFields(stage, { stageId: 'string', state: 'string', tasks: 'array', subStages: 'array' }, 'outputStage');
    expect(stage).to.include({ stageId: `${ok.final.id}.0`, state: 'FINISHED' });
    const tasks = stage.tasks as Array<Record<string, unknown>>;
    expect(tasks).to.have.length(1);
    expectTask(tasks[0], 'outputStage.tasks[0]');
    expect(tasks[0]).to.include({ taskId: `${ok.final.id}.0.0`, state: 'FINISHED' });

    const failedDetail = (await getJson<Record<string, unknown>>(failed.final.infoUri, { headers: TRINO })).body;
    expect(failedDetail.state).to.equal('FAILED');
    expect(failedDetail.errorCode).to.deep.equal({ code: 46, name: 'TABLE_NOT_FOUND', type: 'USER_ERROR' });
    expect(failedDetail.failureInfo).to.include({ message: "line 1:15: Table 'memory.default.nope' does not exist" });
  });
});
