// A lake catalog whose metastore and tables live in a bucket of a real S3 server (Ceph's RADOS
// Gateway, which checks signatures and honours If-None-Match: the commits' compare-and-set): schemas
// and tables are created there, CTAS and INSERT commit, partitions are listed as folders, what is
// written reads back equal, concurrent INSERTs both land, and DROP TABLE removes the files; table
// statistics come from the footers of Parquet objects; an object rewritten in place at the same size
// is read as its new version (listings and HEAD report each version's ETag).

import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HiveConnector } from '../../../src/connectors/hive/hive-connector.js';
import { lakeConfig } from '../../../src/connectors/hive/hive-config.js';
import { S3Client } from '../../../src/connectors/hive/file-system/s3/s3-client.js';
import { s3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';
import { S3FileSystem } from '../../../src/connectors/hive/file-system/s3-file-system.js';
import { CephRgw, ensureCephInstalled } from '../../support/s3/ceph-rgw.js';
import { EngineHarness } from '../../support/engine-harness.js';
import { duckDbRows } from './lake-fixture.js';

describe('lake catalog on S3 (Ceph RADOS Gateway)', function () {
  this.timeout(300_000);
  let rgw: CephRgw;
  let harness: EngineHarness;
  let properties: Record<string, string>;

  before(async function () {
    const missing = ensureCephInstalled();
    if (missing !== undefined) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    rgw = await CephRgw.start();
    properties = {
      'hive.metastore': 'file',
      'hive.metastore.catalog.dir': 's3://warehouse/catalog/',
      'fs.native-s3.enabled': 'true',
      's3.endpoint': rgw.endpoint,
      's3.path-style-access': 'true',
      's3.aws-access-key': rgw.accessKey,
      's3.aws-secret-key': rgw.secretKey,
    };
    const client = new S3Client(s3Config('lake', properties, {}));
    await client.send({ method: 'PUT', bucket: 'warehouse', key: '', location: 's3://warehouse/' });
    harness = new EngineHarness();
    harness.catalogs.register('lake', new HiveConnector('lake', lakeConfig('lake', properties)));
  });
  after(async () => {
    await rgw?.stop();
  });

  const rows = async (sql: string) => (await harness.rows(sql)).map((r) => r.map((v) => (typeof v === 'bigint' ? v.toString() : v)));

  it('creates schemas and tables in the bucket, commits CTAS and INSERTs, lists partitions, reads back equal', async () => {
    await harness.run("CREATE SCHEMA lake.sales WITH (location = 's3://warehouse/sales/')");
    await harness.run(
      "CREATE TABLE lake.sales.orders WITH (format = 'CSV', partitioned_by = ARRAY['o_orderpriority']) AS SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_orderpriority FROM tpch.tiny.orders",
    );
    const expected = await rows('SELECT o_orderpriority, count(*), sum(o_totalprice) FROM tpch.tiny.orders GROUP BY 1 ORDER BY 1');
    expect(await rows('SELECT o_orderpriority, count(*), sum(o_totalprice) FROM lake.sales.orders GROUP BY 1 ORDER BY 1')).to.deep.equal(
      expected,
    );
    expect(await rows("SELECT count(*) FROM lake.sales.orders WHERE o_orderpriority = '1-URGENT'")).to.deep.equal([[expected[0][1]]]);

    // Two INSERTs at once: both land, nothing lost or doubled.
    await Promise.all([
      harness.run(
        'INSERT INTO lake.sales.orders SELECT o_orderkey + 1000000, o_custkey, o_totalprice, o_orderdate, o_orderpriority FROM tpch.tiny.orders WHERE o_orderkey < 1000',
      ),
      harness.run(
        'INSERT INTO lake.sales.orders SELECT o_orderkey + 2000000, o_custkey, o_totalprice, o_orderdate, o_orderpriority FROM tpch.tiny.orders WHERE o_orderkey < 1000',
      ),
    ]);
    const added = (await rows('SELECT count(*) FROM tpch.tiny.orders WHERE o_orderkey < 1000'))[0][0] as string;
    expect(await rows('SELECT count(*), count(DISTINCT o_orderkey) FROM lake.sales.orders')).to.deep.equal([
      [String(15000 + 2 * Number(added)), String(15000 + 2 * Number(added))],
    ]);

    const fs = new S3FileSystem(s3Config('lake', properties, {}));
    const partitions = await fs.listDirectories('s3://warehouse/sales/orders/');
    expect(partitions.filter((p) => !p.split('/').at(-2)!.startsWith('.'))).to.have.length(5);

    await harness.run('DROP TABLE lake.sales.orders');
    const left: string[] = [];
    for await (const file of fs.listFiles('s3://warehouse/sales/orders/')) left.push(file.location);
    expect(left).to.deep.equal([]);
  });

  it('table statistics from the footers of Parquet objects, as DuckDB finds them in the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-lake-s3-stats-'));
    try {
      const path = join(dir, 'a.parquet');
      await duckDbRows(
        `COPY (SELECT i::BIGINT AS id, CASE WHEN i % 4 = 0 THEN NULL ELSE DATE '2024-01-01' + (i % 300)::INTEGER END AS d FROM range(5000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)`,
      );
      const fs = new S3FileSystem(s3Config('lake', properties, {}));
      const out = await fs.create('s3://warehouse/external/stats/a.parquet');
      await out.write(readFileSync(path));
      await out.close();
      await harness.run("CREATE SCHEMA lake.ext WITH (location = 's3://warehouse/ext/')");
      await harness.run("CREATE TABLE lake.ext.stats WITH (external_location = 's3://warehouse/external/stats/')");
      const [[count, nulls, low, high]] = await duckDbRows(
        `SELECT count(*), count(*) - count(d), CAST(min(d) AS VARCHAR), CAST(max(d) AS VARCHAR) FROM read_parquet('${path}')`,
      );
      expect(await rows('SHOW STATS FOR lake.ext.stats')).to.deep.equal([
        ['id', null, null, 0, null, '0', '4999'],
        ['d', null, null, Number(nulls) / Number(count), null, low, high],
        [null, null, null, null, Number(count), null, null],
      ]);
      // The same bounds prune row groups of a query (S3 bodies are Node Buffers: their bytes decode as themselves).
      expect(await rows('SELECT count(*), min(id) FROM lake.ext.stats WHERE id BETWEEN 1500 AND 1599')).to.deep.equal([['100', '1500']]);
      const plan = String((await harness.rows('EXPLAIN ANALYZE SELECT count(*) FROM lake.ext.stats WHERE id BETWEEN 1500 AND 1599'))[0][0]);
      const [[groups]] = await duckDbRows(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${path}')`);
      expect(plan).to.include(`rowGroupsRead = 1, rowGroupsSkipped = ${Number(groups) - 1}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('reads an object rewritten within the same second at the same size as its new version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-lake-s3-etag-'));
    const fs = new S3FileSystem(s3Config('lake', properties, {}));
    const write = async (path: string, first: number) =>
      duckDbRows(`COPY (SELECT (${first} + i)::BIGINT AS id FROM range(100) r(i)) TO '${path}' (FORMAT PARQUET, COMPRESSION uncompressed)`);
    const upload = async (location: string, path: string) => {
      const out = await fs.create(location);
      await out.write(readFileSync(path));
      await out.close();
      return (await fs.stat(location))!;
    };
    try {
      const [low, high] = [join(dir, 'low.parquet'), join(dir, 'high.parquet')];
      await write(low, 0);
      await write(high, 1000);
      expect(readFileSync(low).length, 'both versions have the same size').to.equal(readFileSync(high).length);
      await harness.run("CREATE SCHEMA lake.versions WITH (location = 's3://warehouse/versions/')");
      // Last-Modified has one-second resolution: try again until both versions land in one second.
      for (let attempt = 0; ; attempt++) {
        const folder = `s3://warehouse/external/versions-${attempt}/`;
        const table = `lake.versions.t${attempt}`;
        const before = await upload(`${folder}data.parquet`, low);
        await harness.run(`CREATE TABLE ${table} (id bigint) WITH (external_location = '${folder}')`);
        // Read once: the footer (ids 0..99) is cached, and its statistics would skip a search for 1000.
        expect(await rows(`SELECT count(*) FROM ${table} WHERE id >= 1000`)).to.deep.equal([['0']]);
        const after = await upload(`${folder}data.parquet`, high);
        if (after.lastModified !== before.lastModified) {
          expect(attempt, 'two uploads within one second').to.be.lessThan(5);
          continue;
        }
        expect(after.etag).to.be.a('string').and.not.equal(before.etag);
        expect(await rows(`SELECT count(*), min(id) FROM ${table} WHERE id >= 1000`)).to.deep.equal([['100', '1000']]);
        break;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
