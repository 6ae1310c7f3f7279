// The lake catalog of a real server process: tables survive a restart, a query over a bad file
// fails naming it while the server goes on serving, a DELETE reports no update count (as Trino's), and an unknown catalog property stops the
// server at startup, naming it.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../../support/server-process.js';
import { query, runStatement } from '../../support/statement-http.js';
import { lakeConfigFile } from './lake-fixture.js';

describe('lake: in a server process', function () {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-server-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its tables across a restart, and goes on serving after a query over a bad file fails', async () => {
    const config = lakeConfigFile(dir, join(dir, 'lake'));
    let server = await ServerProcess.start(['--config', config]);
    try {
      expect(
        await query(server.uri, "CREATE TABLE lake.default.nation WITH (format = 'CSV') AS SELECT * FROM tpch.tiny.nation"),
      ).to.deep.equal([[25]]);
      await query(server.uri, 'INSERT INTO lake.default.nation SELECT * FROM tpch.tiny.nation WHERE n_regionkey = 1');
    } finally {
      await server.stop();
    }
    server = await ServerProcess.start(['--config', config]);
    try {
      expect(await query(server.uri, 'SELECT count(*), sum(n_nationkey) FROM lake.default.nation')).to.deep.equal([
        [30, 300 + 1 + 2 + 3 + 17 + 24],
      ]);
      mkdirSync(join(dir, 'bad'));
      writeFileSync(join(dir, 'bad', 'a.csv'), '1\nnot a number\n');
      await query(server.uri, `CREATE TABLE lake.default.bad (id bigint) WITH (format = 'CSV', external_location = 'file://${dir}/bad/')`);
      const failed = await runStatement(server.uri, 'SELECT * FROM lake.default.bad');
      expect(failed.final.error?.errorName).to.equal('HIVE_BAD_DATA');
      expect(failed.final.error?.message).to.equal(`file://${dir}/bad/a.csv:2:1: column 'id': Cannot cast 'not a number' to BIGINT`);
      expect(await query(server.uri, 'SELECT count(*) FROM lake.default.nation')).to.deep.equal([[30]]);
      // A DELETE of whole partitions (here the whole table) reports no count, as Trino's Hive connector.
      const deleted = await runStatement(server.uri, 'DELETE FROM lake.default.nation');
      expect(deleted.rows).to.deep.equal([[null]]);
      expect([deleted.final.updateType, deleted.final.updateCount]).to.deep.equal(['DELETE', undefined]);
      expect(await query(server.uri, 'SELECT count(*) FROM lake.default.nation')).to.deep.equal([[0]]);
    } finally {
      await server.stop();
    }
  });

  it('does not start with a catalog property it does not know, naming it', async () => {
    const config = lakeConfigFile(dir, join(dir, 'lake'), '      hive.metastore.uri: thrift://metastore:9083\n');
    const child = spawn(process.execPath, [ENGINE_MAIN, 'server', '--port', '0', '--host', '127.0.0.1', '--config', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.not.equal(0);
    expect(stderr).to.contain("Catalog 'lake': unknown hive connector properties: hive.metastore.uri");
  });
});
