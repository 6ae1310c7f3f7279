import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function engineSql(args: string[], stdin?: string): Promise<CliRun> {
  const child = spawn(process.execPath, [ENGINE_MAIN, 'sql', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'engine-home-')) },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin ?? '');
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** A port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const listener = createServer().listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const port = (listener.address() as AddressInfo).port;
  listener.close();
  await once(listener, 'close');
  return port;
}

const SELECT = "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z, CAST(NULL AS varchar) AS n, DOUBLE '1' AS d";

describe('engine sql', function () {
  let server: ServerProcess;
  let connect: string[];

  before(async () => {
    server = await ServerProcess.start();
    connect = ['--server', server.uri, '--catalog', 'memory', '--schema', 'default'];
  });
  after(async () => {
    await server.stop();
  });

  // What Trino's CLI prints for the same row (its printers' rules; the double as Java's Double.toString).
  const expected: Record<string, string> = {
    ALIGNED: [' x | y |  z   |  n   |  d  ', '---+---+------+------+-----', ' 1 | a | 1.50 | NULL | 1.0 ', '(1 row)', ''].join('\n'),
    AUTO: [' x | y |  z   |  n   |  d  ', '---+---+------+------+-----', ' 1 | a | 1.50 | NULL | 1.0 ', '(1 row)', ''].join('\n'),
    VERTICAL: ['-[ RECORD 1 ]', 'x | 1', 'y | a', 'z | 1.50', 'n | NULL', 'd | 1.0', ''].join('\n'),
    CSV: '"1","a","1.50","","1.0"\n',
    CSV_HEADER: '"x","y","z","n","d"\n"1","a","1.50","","1.0"\n',
    CSV_UNQUOTED: '1,a,1.50,,1.0\n',
    CSV_HEADER_UNQUOTED: 'x,y,z,n,d\n1,a,1.50,,1.0\n',
    TSV: '1\ta\t1.50\t\t1.0\n',
    TSV_HEADER: 'x\ty\tz\tn\td\n1\ta\t1.50\t\t1.0\n',
    JSON: '{"x":1,"y":"a","z":"1.50","n":null,"d":1.0}\n',
    MARKDOWN: ['| x | y |    z | n    |   d |', '| -:| - | ----:| ---- | ---:|', '| 1 | a | 1.50 | NULL | 1.0 |', ''].join('\n'),
    NULL: '',
  };
  for (const [format, output] of Object.entries(expected)) {
    it(`prints --execute results as ${format}`, async () => {
      const run = await engineSql([...connect, '--execute', SELECT, '--output-format', format]);
      expect(run).to.deep.equal({ code: 0, stdout: output, stderr: '' });
    });
  }

  it('prints 64-bit integers beyond 2^53 exactly, as the server sends them', async () => {
    const sql = 'SELECT 9223372036854775807 AS big, -9007199254740993 AS small';
    const csv = await engineSql([...connect, '--execute', sql]);
    expect(csv.stdout).to.equal('"9223372036854775807","-9007199254740993"\n');
    const json = await engineSql([...connect, '--execute', sql, '--output-format', 'JSON']);
    expect(json.stdout).to.equal('{"big":9223372036854775807,"small":-9007199254740993}\n');
  });

  it('prints CSV of text and integral columns as Trino does: quotes doubled, escapes decoded, nulls empty', async () => {
    // Such rows go from the response's JSON bytes straight to CSV (csv-from-json.ts).
    const text = `'line' || chr(10) || 'two é 😀 \\ ' || chr(9) || 'end'`;
    const sql = `SELECT * FROM (VALUES (1, 'say "hi"', true, DECIMAL '-1.50', DATE '2001-02-03'), (-9007199254740993, ${text}, false, NULL, NULL), (NULL, NULL, NULL, DECIMAL '0.00', DATE '1970-01-01')) AS t (n, s, b, d, day) ORDER BY day NULLS LAST`;
    const quoted = await engineSql([...connect, '--execute', sql, '--output-format', 'CSV_HEADER']);
    expect(quoted).to.deep.equal({
      code: 0,
      stdout: [
        '"n","s","b","d","day"',
        '"","","","0.00","1970-01-01"',
        '"1","say ""hi""","true","-1.50","2001-02-03"',
        '"-9007199254740993","line\ntwo é 😀 \\ \tend","false","",""',
        '',
      ].join('\n'),
      stderr: '',
    });
    const unquoted = await engineSql([...connect, '--execute', sql, '--output-format', 'CSV_UNQUOTED']);
    expect(unquoted.stdout).to.equal(
      ',,,0.00,1970-01-01\n1,say "hi",true,-1.50,2001-02-03\n-9007199254740993,line\ntwo é 😀 \\ \tend,false,,\n',
    );
  });

  it('prints CSV by default with --execute', async () => {
    expect((await engineSql([...connect, '--execute', 'SELECT 2'])).stdout).to.equal('"2"\n');
  });

  it('runs a multi-statement --file, reporting updates on stderr', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'engine-sql-')), 'script.sql');
    writeFileSync(
      file,
      "-- a script\nCREATE TABLE cli_t (id bigint, name varchar);\nINSERT INTO cli_t VALUES (1, 'one'), (2, 'it''s; two');\nSELECT * FROM cli_t ORDER BY id;\n/* done */\n",
    );
    const run = await engineSql([...connect, '--file', file, '--output-format', 'CSV_HEADER']);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.equal('"id","name"\n"1","one"\n"2","it\'s; two"\n');
    expect(run.stderr).to.equal('CREATE TABLE\nINSERT: 2 rows\n');
  });

  it('prints a failure with its message and a caret under the position, and exits 1', async () => {
    const run = await engineSql([...connect, '--execute', 'SELECT 1; SELECT * FROM memory.default.nope; SELECT 3']);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal('"1"\n');
    expect(run.stderr).to.match(
      /^Query \d{8}_\d{6}_\d{5}_[a-z0-9]{5} failed: line 1:15: Table 'memory\.default\.nope' does not exist\nLINE 1: SELECT \* FROM memory\.default\.nope\n {22}\^\n$/,
    );
  });

  it('keeps the session across statements: USE, SET SESSION and PREPARE', async () => {
    const run = await engineSql([
      '--server',
      server.uri,
      '--execute',
      "CREATE SCHEMA memory.cli_s; USE memory.cli_s; CREATE TABLE v AS SELECT 5 AS five; SELECT five FROM v; SET SESSION query_max_execution_time = '7h'; SHOW SESSION LIKE 'query_max_execution_time'; PREPARE p FROM SELECT five * ? FROM v; EXECUTE p USING 3",
    ]);
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).to.equal('"5"');
    expect(lines[1]).to.match(/^"query_max_execution_time","7h"/);
    expect(lines[2]).to.equal('"15"');
  });

  it('reports a piped statement left without its semicolon', async () => {
    const run = await engineSql(connect, 'SELECT 1 AS a;\nSELECT 2');
    expect(run).to.deep.equal({ code: 1, stdout: '"1"\n', stderr: "Statement not run (missing ';' at the end): SELECT 2\n" });
  });

  it('runs piped statements in the batch format, CSV unless --output-format says otherwise, as Trino does', async () => {
    const statements = "SELECT 1 AS a;\nSELECT\n  'x' AS b\n;\nquit\nSELECT 'after quit';\n";
    expect(await engineSql(connect, statements)).to.deep.equal({ code: 0, stdout: '"1"\n"x"\n', stderr: '' });
    const aligned = await engineSql([...connect, '--output-format', 'ALIGNED', '--output-format-interactive', 'JSON'], statements);
    expect(aligned).to.deep.equal({
      code: 0,
      stdout: [' a ', '---', ' 1 ', '(1 row)', ' b ', '---', ' x ', '(1 row)', ''].join('\n'),
      stderr: '',
    });
  });

  it('reports a failing piped statement and continues with the next one', async () => {
    const run = await engineSql(connect, 'SELECT * FROM nope;\nSELECT 2 AS two;\n');
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal('"2"\n');
    expect(run.stderr).to.match(/failed: line 1:15: Table 'memory\.default\.nope' does not exist\nLINE 1: SELECT \* FROM nope\n {22}\^\n$/);
  });

  it('prints the rows that arrived before a failure, with the footer, then the failure, as Trino does', async () => {
    // A server that sends a row and then fails the query, as a query failing in its second page does.
    const columns = [{ name: 'n', type: 'bigint', typeSignature: { rawType: 'bigint', arguments: [] } }];
    const failing = createHttpServer((request, response) => {
      const uri = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
      const body =
        request.method === 'POST'
          ? { id: 'q1', infoUri: `${uri}/q1`, nextUri: `${uri}/v1/statement/q1/1`, columns, data: [[1]], stats: { state: 'RUNNING' } }
          : {
              id: 'q1',
              infoUri: `${uri}/q1`,
              columns,
              stats: { state: 'FAILED' },
              error: { message: 'Division by zero', errorCode: 8, errorName: 'DIVISION_BY_ZERO', errorType: 'USER_ERROR' },
            };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    }).listen(0, '127.0.0.1');
    await once(failing, 'listening');
    try {
      const run = await engineSql([
        '--server',
        `127.0.0.1:${(failing.address() as AddressInfo).port}`,
        '--output-format',
        'ALIGNED',
        '--execute',
        'SELECT n FROM t',
      ]);
      expect(run).to.deep.equal({
        code: 1,
        stdout: [' n ', '---', ' 1 ', '(1 row)', ''].join('\n'),
        stderr: 'Query q1 failed: Division by zero\n',
      });
    } finally {
      failing.close();
    }
  });

  it('explains bad flags and unreachable servers', async () => {
    const flag = await engineSql(['--bogus']);
    expect(flag.code).to.equal(2);
    expect(flag.stderr).to.equal("engine sql: Unknown option '--bogus'\nRun 'engine sql --help' for the options.\n");
    const format = await engineSql(['--execute', 'SELECT 1', '--output-format', 'XML']);
    expect(format.code).to.equal(2);
    expect(format.stderr).to.contain(
      "unknown --output-format 'XML'; expected one of AUTO, ALIGNED, VERTICAL, TSV, TSV_HEADER, CSV, CSV_HEADER, CSV_UNQUOTED, CSV_HEADER_UNQUOTED, JSON, MARKDOWN, NULL",
    );
    const interactive = await engineSql(['--output-format-interactive', 'TABLE']);
    expect(interactive.code).to.equal(2);
    expect(interactive.stderr).to.contain("unknown --output-format-interactive 'TABLE'");
    const closedPort = await freePort();
    const down = await engineSql(['--server', `127.0.0.1:${closedPort}`, '--execute', 'SELECT 1']);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.contain(`Error running command: Cannot reach http://127.0.0.1:${closedPort}: `);
  });
});
