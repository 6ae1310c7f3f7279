// tpch.column-naming, as in Trino: STANDARD (o_orderkey, the embedded default) or SIMPLIFIED
// (orderkey, Trino's default), through a real server; a wrong value stops the server naming it.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';
import { query } from '../support/statement-http.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-tpch-naming-'));

function configFile(name: string, catalogs: string): string {
  const file = join(dir, name);
  writeFileSync(file, `catalogs:\n${catalogs}`);
  return file;
}

describe('tpch.column-naming', function () {
  let server: ServerProcess;

  before(async () => {
    const file = configFile(
      'two.yaml',
      '  - name: tpch\n    connector: tpch\n  - name: tpch_simple\n    connector: tpch\n    properties:\n      tpch.column-naming: SIMPLIFIED\n',
    );
    server = await ServerProcess.start(['--config', file]);
  });
  after(async () => {
    await server.stop();
  });

  it('names columns with their TPC-H prefixes by default (STANDARD)', async () => {
    const columns = await query(server.uri, 'DESCRIBE tpch.tiny.orders');
    expect(columns.map((c) => c[0])).to.deep.equal([
      'o_orderkey',
      'o_custkey',
      'o_orderstatus',
      'o_totalprice',
      'o_orderdate',
      'o_orderpriority',
      'o_clerk',
      'o_shippriority',
      'o_comment',
    ]);
  });

  it('names columns without prefixes with SIMPLIFIED, and queries them (key ranges and comments included)', async () => {
    const columns = await query(server.uri, 'DESCRIBE tpch_simple.tiny.lineitem');
    expect(columns.map((c) => c[0])).to.deep.equal([
      'orderkey',
      'partkey',
      'suppkey',
      'linenumber',
      'quantity',
      'extendedprice',
      'discount',
      'tax',
      'returnflag',
      'linestatus',
      'shipdate',
      'commitdate',
      'receiptdate',
      'shipinstruct',
      'shipmode',
      'comment',
    ]);
    const simple = await query(
      server.uri,
      'SELECT orderkey, linenumber, quantity, comment FROM tpch_simple.tiny.lineitem WHERE orderkey BETWEEN 1 AND 3 ORDER BY orderkey, linenumber',
    );
    const standard = await query(
      server.uri,
      'SELECT l_orderkey, l_linenumber, l_quantity, l_comment FROM tpch.tiny.lineitem WHERE l_orderkey BETWEEN 1 AND 3 ORDER BY l_orderkey, l_linenumber',
    );
    expect(simple).to.have.lengthOf(13);
    expect(simple).to.deep.equal(standard);
    const counts = await query(
      server.uri,
      'SELECT (SELECT count(*) FROM tpch_simple.tiny.orders o JOIN tpch_simple.tiny.customer c ON o.custkey = c.custkey), (SELECT count(*) FROM tpch.tiny.orders)',
    );
    expect(counts).to.deep.equal([[15000, 15000]]);
    const failure = await query(server.uri, 'SELECT o_orderkey FROM tpch_simple.tiny.orders').catch((e: Error) => e.message);
    expect(failure).to.match(/Column 'o_orderkey' cannot be resolved/);
  });

  it('stops the server on a wrong value or an unknown property, naming it', async () => {
    const start = async (file: string) => {
      const child = spawn(process.execPath, [ENGINE_MAIN, 'server', '--port', '0', '--host', '127.0.0.1', '--config', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, stderr };
    };
    const wrong = await start(
      configFile('wrong.yaml', '  - name: t2\n    connector: tpch\n    properties:\n      tpch.column-naming: SHORT\n'),
    );
    expect(wrong).to.deep.equal({ code: 2, stderr: "Catalog 't2': tpch.column-naming must be one of STANDARD, SIMPLIFIED, got 'SHORT'\n" });
    const unknown = await start(
      configFile('unknown.yaml', '  - name: t3\n    connector: tpch\n    properties:\n      tpch.splits-per-node: 4\n'),
    );
    expect(unknown).to.deep.equal({
      code: 2,
      stderr: "Catalog 't3': unknown tpch connector properties: tpch.splits-per-node (known: tpch.column-naming)\n",
    });
  });
});
