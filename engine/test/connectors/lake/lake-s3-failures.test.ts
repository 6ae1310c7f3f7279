// A lake table on S3 whose reads meet failures mid-query (faults injected by a proxy in front of
// fauxqs, a real emulator process): throttling and dropped connections while a Parquet file is read
// are retried and the query answers as DuckDB does on the same file; an error that persists fails
// the query naming the object; an object deleted between its footer read and its column read fails
// with HIVE_FILE_NOT_FOUND naming it; the engine goes on answering. And reads are concurrent: one
// split has several range requests in flight, and s3.max-connections bounds those of the whole node.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { HiveConnector } from '../../../src/connectors/hive/hive-connector.js';
import { lakeConfig } from '../../../src/connectors/hive/hive-config.js';
import { EngineHarness } from '../../support/engine-harness.js';
import { S3Emulator } from '../../support/s3/s3-emulator.js';
import { S3Proxy } from '../../support/s3/s3-proxy.js';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

describe('lake on S3: failures while reading', function () {
  this.timeout(120_000);
  let emulator: S3Emulator;
  let proxy: S3Proxy;
  let harness: EngineHarness;
  let local: LakeFixture;
  let parquet: Buffer;
  let expected: unknown[][];
  const rows = async (sql: string) => (await harness.rows(sql)).map((r) => r.map((v) => (typeof v === 'bigint' ? v.toString() : v)));

  /** Puts the Parquet file at `key` of bucket lake and makes table `name` over its folder; the object's URL test. */
  async function tableOverObject(name: string): Promise<(url: URL) => boolean> {
    const put = await fetch(`${emulator.endpoint}/lake/${name}/a.parquet`, { method: 'PUT', body: new Uint8Array(parquet) });
    expect(put.ok).to.equal(true);
    await harness.query(`CREATE TABLE lake.default.${name} (id bigint, v varchar) WITH (external_location = 's3://lake/${name}/')`);
    return (url) => url.pathname === `/lake/${name}/a.parquet`;
  }

  before(async () => {
    emulator = await S3Emulator.start(['lake']);
    proxy = await S3Proxy.start(emulator.endpoint, { conditionalWrites: true });
    local = LakeFixture.create();
    const path = local.path('a.parquet');
    await duckDbRows(`COPY (SELECT i AS id, 'v' || i AS v FROM range(20000) r(i)) TO '${path}' (FORMAT PARQUET)`);
    parquet = readFileSync(path);
    expected = await duckDbRows(`SELECT count(*), sum(id), max(v) FROM read_parquet('${path}')`);
    const properties = {
      'hive.metastore.catalog.dir': 's3://lake/catalog/',
      'fs.native-s3.enabled': 'true',
      's3.endpoint': proxy.endpoint,
      's3.path-style-access': 'true',
      's3.aws-access-key': 'test-key',
      's3.aws-secret-key': 'test-secret',
      's3.max-error-retries': '3',
    };
    harness = new EngineHarness();
    harness.catalogs.register('lake', new HiveConnector('lake', lakeConfig('lake', properties)));
  });
  after(async () => {
    await proxy?.stop();
    await emulator?.stop();
    local?.remove();
  });
  afterEach(() => proxy.clearFaults());

  it('retries throttling (503 SlowDown), a 500 and a reset connection while reading a file, and answers right', async () => {
    const object = await tableOverObject('retried');
    const getsOfARead = async (): Promise<number> => {
      const before = proxy.count('GET', object);
      expect(await rows('SELECT count(*), sum(id), max(v) FROM lake.default.retried')).to.deep.equal(expected);
      return proxy.count('GET', object) - before;
    };
    // The first query also reads the footer (then cached): count a later one.
    await getsOfARead();
    const clean = await getsOfARead();
    // A later read finds the file's footer decoded already (footer-cache.ts): its GETs read data, and
    // the faults hit them one after the other.
    proxy.inject({ method: 'GET', matches: object, times: 1, action: { kind: 'respond', status: 503, code: 'SlowDown' } });
    proxy.inject({ method: 'GET', matches: object, times: 1, action: { kind: 'respond', status: 500, code: 'InternalError' } });
    proxy.inject({ method: 'GET', matches: object, times: 1, action: { kind: 'reset' } });
    expect(await getsOfARead()).to.equal(clean + 3);
  });

  it('fails naming the object when an error persists past s3.max-error-retries; the engine goes on answering', async () => {
    const object = await tableOverObject('persistent');
    proxy.inject({ method: 'GET', matches: object, skip: 1, times: 100, action: { kind: 'respond', status: 503, code: 'SlowDown' } });
    const failure = await harness.failure('SELECT sum(id) FROM lake.default.persistent');
    expect(failure.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
    expect(failure.message).to.match(
      /^S3 GET of s3:\/\/lake\/persistent\/a\.parquet failed at http:\/\/127\.0\.0\.1:\d+: .*SlowDown.* \(after 4 attempts\)$/,
    );
    proxy.clearFaults();
    expect(await rows('SELECT count(*), sum(id), max(v) FROM lake.default.persistent')).to.deep.equal(expected);
  });

  it('an object deleted after its footer was read fails with HIVE_FILE_NOT_FOUND naming it', async () => {
    const object = await tableOverObject('vanishing');
    const deleteObject = async (): Promise<void> => {
      const response = await fetch(`${emulator.endpoint}/lake/vanishing/a.parquet`, { method: 'DELETE' });
      expect(response.status).to.equal(204);
    };
    proxy.inject({ method: 'GET', matches: object, skip: 1, times: 1, action: { kind: 'before', run: deleteObject } });
    const failure = await harness.failure('SELECT sum(id) FROM lake.default.vanishing');
    expect(failure.errorName).to.equal('HIVE_FILE_NOT_FOUND');
    expect(failure.message).to.equal('File not found: s3://lake/vanishing/a.parquet');
    expect(await rows('SELECT count(*) FROM lake.default.vanishing')).to.deep.equal([['0']]);
  });

  describe('requests in flight: several per split, at most s3.max-connections on the node across its worker threads', () => {
    /** The most requests the proxy had in flight while a query read 8 Parquet files on worker threads. */
    async function mostInFlight(maxConnections: number): Promise<number> {
      const table = `files${maxConnections}`;
      for (let i = 0; i < 8; i++) {
        const put = await fetch(`${emulator.endpoint}/lake/${table}/part-${i}.parquet`, { method: 'PUT', body: new Uint8Array(parquet) });
        expect(put.ok).to.equal(true);
      }
      // Its own catalog and endpoint spelling, so that worker threads make its file systems afresh.
      const properties = {
        'hive.metastore.catalog.dir': `s3://lake/catalog${maxConnections}/`,
        'fs.native-s3.enabled': 'true',
        's3.endpoint': proxy.endpoint.replace('127.0.0.1', 'localhost'),
        's3.path-style-access': 'true',
        's3.aws-access-key': 'test-key',
        's3.aws-secret-key': 'test-secret',
        's3.max-connections': String(maxConnections),
      };
      const catalog = `lake${maxConnections}`;
      harness.catalogs.register(catalog, new HiveConnector(catalog, lakeConfig(catalog, properties)));
      await harness.query(`CREATE TABLE ${catalog}.default.t (id bigint, v varchar) WITH (external_location = 's3://lake/${table}/')`);
      await harness.query('SET SESSION parallel_min_splits = 1');
      // Every object GET is held a while, so that reads of several splits overlap when they may.
      proxy.inject({
        method: 'GET',
        matches: (url) => url.pathname.startsWith(`/lake/${table}/`),
        times: 1000,
        action: { kind: 'delay', ms: 40 },
      });
      proxy.maxInFlight = 0;
      const [[count, sum]] = await rows(`SELECT count(*), sum(id) FROM ${catalog}.default.t`);
      expect([count, sum]).to.deep.equal([String(8 * Number(expected[0][0])), String(8 * Number(expected[0][1]))]);
      await harness.query('RESET SESSION parallel_min_splits');
      return proxy.maxInFlight;
    }

    it('one split keeps several range requests in flight: the column chunks it reads, apart in the file', async () => {
      const path = local.path('wide.parquet');
      await duckDbRows(
        `COPY (SELECT i AS a, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS b, i * 3 AS c FROM range(50000) r(i)) TO '${path}' (FORMAT PARQUET)`,
      );
      const put = await fetch(`${emulator.endpoint}/lake/wide/a.parquet`, { method: 'PUT', body: new Uint8Array(readFileSync(path)) });
      expect(put.ok).to.equal(true);
      await harness.query("CREATE TABLE lake.default.wide (a bigint, b varchar, c bigint) WITH (external_location = 's3://lake/wide/')");
      await harness.query('SET SESSION parallel_min_splits = 0');
      proxy.inject({
        method: 'GET',
        matches: (url) => url.pathname === '/lake/wide/a.parquet',
        times: 1000,
        action: { kind: 'delay', ms: 40 },
      });
      proxy.maxInFlight = 0;
      const sql = (from: string) => `SELECT count(*), sum(a), sum(c) FROM ${from}`;
      expect(await rows(sql('lake.default.wide'))).to.deep.equal(await duckDbRows(sql(`read_parquet('${path}')`)));
      await harness.query('RESET SESSION parallel_min_splits');
      expect(proxy.maxInFlight).to.be.at.least(2);
    });

    it('one at a time with s3.max-connections = 1; several at once with more', async () => {
      expect(await mostInFlight(1)).to.equal(1);
      expect(await mostInFlight(8)).to.be.above(1);
    });
  });
});
