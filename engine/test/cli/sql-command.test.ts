import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function engineSql(args: string[], stdin?: string): Promise<CliRun> {
  const child = spawn(process.execPath, [ENGINE_MAIN, 'sql', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'engine-home-')) } });
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

const SELECT = "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z, CAST(NULL AS varchar) AS n";

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

  const expected: Record<string, string> = {
    ALIGNED: [' x | y |  z   |  n   ', '---+---+------+------', ' 1 | a | 1.50 | NULL ', '(1 row)', ''].join('\n'),
    CSV: '"1","a","1.50",""\n',
    CSV_HEADER: '"x","y","z","n"\n"1","a","1.50",""\n',
    TSV: '1\ta\t1.50\t\n',
    TSV_HEADER: 'x\ty\tz\tn\n1\ta\t1.50\t\n',
    JSON: '{"x":1,"y":"a","z":"1.50","n":null}\n',
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
    expect(run).to.deep.equal({ code: 1, stdout: [' a ', '---', ' 1 ', '(1 row)', ''].join('\n'), stderr: "Statement not run (missing ';' at the end): SELECT 2\n" });
  });

  it('runs piped statements and prints them ALIGNED', async () => {
    const run = await engineSql(connect, "SELECT 1 AS a;\nSELECT\n  'x' AS b\n;\nquit\nSELECT 'after quit';\n");
    expect(run).to.deep.equal({ code: 0, stdout: [' a ', '---', ' 1 ', '(1 row)', ' b ', '---', ' x ', '(1 row)', ''].join('\n'), stderr: '' });
  });

  it('reports a failing piped statement and continues with the next one', async () => {
    const run = await engineSql(connect, 'SELECT * FROM nope;\nSELECT 2 AS two;\n');
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal([' two ', '-----', '   2 ', '(1 row)', ''].join('\n'));
    expect(run.stderr).to.match(/failed: line 1:15: Table 'memory\.default\.nope' does not exist\nLINE 1: SELECT \* FROM nope\n {22}\^\n$/);
  });

  it('explains bad flags and unreachable servers', async () => {
    const flag = await engineSql(['--bogus']);
    expect(flag.code).to.equal(2);
    expect(flag.stderr).to.equal("engine sql: Unknown option '--bogus'\nRun 'engine sql --help' for the options.\n");
    const format = await engineSql(['--execute', 'SELECT 1', '--output-format', 'XML']);
    expect(format.code).to.equal(2);
    expect(format.stderr).to.contain("unknown --output-format 'XML'");
    const closedPort = await freePort();
    const down = await engineSql(['--server', `127.0.0.1:${closedPort}`, '--execute', 'SELECT 1']);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.contain(`Error running command: Cannot reach http://127.0.0.1:${closedPort}: `);
  });
});
