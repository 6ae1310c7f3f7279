// The sqllogictest runner's hard per-statement deadline, against real servers made to hang: a server
// stopped with SIGSTOP answers nothing, as one whose event loop is held. The run must still finish:
// the statement and the rest of its file fail, the report says where, the hung servers are killed
// and fresh ones run the next files. A statement past its deadline on a server that still answers
// is only a failed statement.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportText } from '../../scripts/sqllogictest/report.js';
import { runSqlLogicTestFiles, type FileResult, type Summary } from '../../scripts/sqllogictest/runner.js';
import { startCluster, startEngineServer, type EngineServerProcess } from '../../scripts/sqllogictest/server-process.js';
import { StartedServers } from '../../scripts/sqllogictest/servers.js';

const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Far above what these statements take on a loaded machine; below the cluster's 10 s to declare a silent worker gone. */
const DEADLINE_MILLIS = 6000;

const TABLE_FILE = `statement ok
CREATE TABLE t(a INTEGER)

statement ok
INSERT INTO t VALUES (1), (2), (3)

query I nosort
SELECT sum(a) FROM t
----
6
`;

/** Many records, so that it is still running when the server is stopped beside it. */
const LONG_FILE = `statement ok
CREATE TABLE t(a INTEGER)
${Array.from({ length: 150 }, (_, i) => `\nstatement ok\nINSERT INTO t VALUES (${i})\n`).join('')}
query I nosort
SELECT count(*) FROM t
----
150
`;

/** Read on the workers too (a memory table is read where it is stored, on the coordinator). */
const NATION_QUERY = `query I nosort
SELECT count(*) FROM tpch.tiny.nation
----
25
`;

function repeated(record: string, times: number): string {
  return Array.from({ length: times }, () => record).join('\n');
}

/** Never finishes before the deadline; the server keeps answering while it runs. */
const SLOW_FILE = `query I nosort
SELECT count(*) FROM tpch.tiny.lineitem a, tpch.tiny.lineitem b
----
0

${TABLE_FILE}`;

function recordsOf(result: FileResult): number {
  return result.passed + result.failed + result.skipped;
}

function isRunning(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('sqllogictest runner: a hard deadline per statement', function () {
  this.timeout(240_000);
  let directory: string;
  const file = (name: string, text: string): string => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  };

  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'slt-deadline-'));
  });

  after(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  /** Runs `files` (2 at a time) on servers from `start`, stopping node `stopped` of them with SIGSTOP once the first file is done. */
  async function runStoppingAfterFirst(
    start: () => Promise<EngineServerProcess[]>,
    stopped: number,
    files: string[],
  ): Promise<{ summary: Summary; hungPid: number | undefined; servers: StartedServers }> {
    const servers = await StartedServers.start(start);
    const hungPid = servers.pids()[stopped];
    try {
      const summary = await runSqlLogicTestFiles(servers, files, {
        jobs: 2,
        timeoutMillis: DEADLINE_MILLIS,
        onFileDone: (result) => {
          if (result.file === files[0] && hungPid !== undefined) process.kill(hungPid, 'SIGSTOP');
        },
      });
      return { summary, hungPid, servers };
    } catch (e) {
      await servers.stop();
      throw e;
    }
  }

  it('a single server that hangs mid-run is killed and replaced; the files on it fail, the next file passes', async () => {
    const files = [file('a.test', TABLE_FILE), file('b-long.test', LONG_FILE), file('c.test', TABLE_FILE), file('d.test', TABLE_FILE)];
    const { summary, hungPid, servers } = await runStoppingAfterFirst(
      async () => [await startEngineServer({ cliPath: CLI_PATH, processGroup: true })],
      0,
      files,
    );
    try {
      const [a, long, c, d] = summary.files;
      expect(a).to.deep.include({ passed: 3, failed: 0 });
      // The long file was running when its server stopped; file c began on the stopped server.
      for (const hung of [long, c]) {
        expect(hung.hang, hung.file).to.not.equal(undefined);
        expect(hung.passed + hung.failed).to.equal(recordsOf(hung));
        expect(hung.hang?.notRun).to.be.at.most(recordsOf(hung));
      }
      expect(long.failed).to.be.greaterThan(0);
      const reasons = [long.hang?.reason, c.hang?.reason].join('\n');
      expect(reasons).to.match(/did not answer GET \/v1\/info within 5 s: killed .* and started fresh servers/);
      // One replacement for both files, and the stopped process is gone.
      expect(servers.current().generation).to.equal(1);
      expect(isRunning(hungPid)).to.equal(false);
      expect(d).to.deep.include({ passed: 3, failed: 0 });
      expect(d.hang).to.equal(undefined);
      expect(reportText(summary, [])).to.match(/server hangs: 2\n/);
    } finally {
      await servers.stop();
    }
  });

  it('a cluster whose worker hangs is replaced whole; the next file passes on the fresh cluster', async () => {
    const short = repeated(NATION_QUERY, 3);
    const files = [file('a.test', short), file('b-long.test', repeated(NATION_QUERY, 100)), file('c.test', short), file('d.test', short)];
    const { summary, hungPid, servers } = await runStoppingAfterFirst(() => startCluster(CLI_PATH, 1, { processGroup: true }), 1, files);
    try {
      const [a, , , d] = summary.files;
      expect(a).to.deep.include({ passed: 3, failed: 0 });
      const hangs = summary.files.flatMap((f) => (f.hang === undefined ? [] : [f.hang.reason]));
      expect(hangs.join('\n')).to.match(/did not answer GET \/v1\/info within 5 s: killed .* and started fresh servers/);
      expect(servers.current().generation).to.equal(1);
      expect(isRunning(hungPid)).to.equal(false);
      expect(servers.pids().every(isRunning)).to.equal(true);
      expect(d).to.deep.include({ passed: 3, failed: 0 });
      expect(d.hang).to.equal(undefined);
    } finally {
      await servers.stop();
    }
  });

  it('a statement past its deadline on a server that still answers fails alone, and the file goes on', async () => {
    const servers = await StartedServers.start(async () => [await startEngineServer({ cliPath: CLI_PATH, processGroup: true })]);
    try {
      const summary = await runSqlLogicTestFiles(servers, [file('slow.test', SLOW_FILE)], { timeoutMillis: DEADLINE_MILLIS });
      const [slow] = summary.files;
      expect(slow).to.deep.include({ passed: 3, failed: 1 });
      expect(slow.hang).to.equal(undefined);
      expect(slow.failures[0].actual).to.match(/^error: Statement timed out after 6000 ms and was cancelled/);
      expect(servers.current().generation).to.equal(0);
    } finally {
      await servers.stop();
    }
  });
});
