// The sqllogictest runner against a real engine server process on a loopback port.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSqlLogicTestFiles, type Summary } from '../../scripts/sqllogictest/runner.js';
import { startEngineServer, type EngineServerProcess } from '../../scripts/sqllogictest/server-process.js';
import { executeStatement } from '../../scripts/sqllogictest/statement-client.js';

const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const TEST_FILE = `# a small file using every record kind
statement ok
CREATE TABLE t1(a INTEGER, b VARCHAR(10))

statement ok
INSERT INTO t1 VALUES (3, 'c'), (1, ''), (2, NULL)

query IT rowsort
SELECT a, b FROM t1
----
1
(empty)
2
NULL
3
c

hash-threshold 2

query I nosort label-sum
SELECT a FROM t1 ORDER BY a
----
3 values hashing to c0710d6b4f15dfa88f600b0e6b624077

query I valuesort label-sum
SELECT a FROM t1
----
1
2
3

query R nosort
SELECT a / 2.0 FROM t1 WHERE a = 3
----
1.500

statement error
SELECT * FROM no_such_table

skipif engine
statement ok
THIS IS NOT SQL

onlyif sqlite
statement ok
THIS IS NOT SQL EITHER

query I nosort
SELECT count(*) FROM t1
----
4

halt

statement ok
THIS WOULD FAIL
`;

describe('sqllogictest runner against a server', function () {
  let server: EngineServerProcess;
  let directory: string;
  let summary: Summary;

  before(async () => {
    server = await startEngineServer({ cliPath: CLI_PATH });
    directory = mkdtempSync(join(tmpdir(), 'slt-'));
    const file = join(directory, 'sample.test');
    writeFileSync(file, TEST_FILE);
    summary = await runSqlLogicTestFiles(server.url, [file]);
  });

  after(async () => {
    await server?.stop();
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  it('counts passed, failed and skipped records, stopping at halt', () => {
    expect(summary).to.deep.include({ passed: 7, failed: 1, skipped: 2 });
    expect(summary.files[0].setupError).to.equal(undefined);
  });

  it('reports a failure with its line, SQL, expected and actual result', () => {
    expect(summary.files[0].failures).to.deep.equal([
      { file: summary.files[0].file, line: 48, sql: 'SELECT count(*) FROM t1', expected: '4', actual: '3' },
    ]);
  });

  it('drops the schema it created for the file', async () => {
    const outcome = await executeStatement(
      server.url,
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'slt_%'",
      { user: 'test', source: 'test', catalog: 'memory' },
      { timeoutMillis: 30_000 },
    );
    expect(outcome.error).to.equal(undefined);
    expect(outcome.rows).to.deep.equal([]);
  });
});
