// What every S3 store must do for the lake, run against each store the tests have (fauxqs
// behind a proxy that checks signatures and gives it conditional writes; Ceph's RADOS Gateway):
// listing with paging, lookups, ranged reads, single and multipart writes, aborts, deletes in
// batches, and the exclusive create commits rely on. A recording proxy sits in front of each, so
// the tests also see which requests were made.

import { expect } from 'chai';
import type { S3Proxy } from '../../support/s3/s3-proxy.js';
import { MIB, bytes, engineRejection, listAll, writeFile } from './s3-test-helpers.js';
import { S3FileSystem } from '../../../src/connectors/hive/file-system/s3-file-system.js';
import { S3Client } from '../../../src/connectors/hive/file-system/s3/s3-client.js';
import type { S3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';

/** A store with a bucket `lake`, reached through `proxy` with `config` (part size 5 MiB). */
export interface StoreUnderTest {
  config: S3Config;
  proxy: S3Proxy;
}

export function s3FileSystemSuite(store: () => StoreUnderTest): void {
  let proxy: S3Proxy;
  let fs: S3FileSystem;

  before(() => {
    proxy = store().proxy;
    fs = new S3FileSystem(store().config);
  });
  beforeEach(() => {
    proxy.requests.length = 0;
  });

  describe('listFiles', () => {
    const COUNT = 1005; // more than one page of 1,000
    const keys = Array.from({ length: COUNT }, (_, i) => `paged/part-${String(i).padStart(5, '0')}.csv`);

    before(async () => {
      for (let i = 0; i < COUNT; i += 50) {
        await Promise.all(keys.slice(i, i + 50).map((key, j) => writeFile(fs, `s3://lake/${key}`, Buffer.from(`row ${i + j}\n`))));
      }
      await writeFile(fs, 's3://lake/paged/nested/deep/file.json', Buffer.from('{}\n'));
      await writeFile(fs, 's3://lake/paged-sibling/not-below.csv', Buffer.from('x'));
      // A folder marker (a zero-byte key ending in '/', as consoles write them) is no file.
      await new S3Client(store().config).send({
        method: 'PUT',
        bucket: 'lake',
        key: 'paged/folder-marker/',
        location: 's3://lake/paged/folder-marker/',
        headers: { 'content-type': 'application/x-directory' },
      });
    });

    it('lists every file below a directory, at any depth, in key order, across pages', async () => {
      const entries = await listAll(fs, 's3://lake/paged/');
      const expected = [...keys, 'paged/nested/deep/file.json'].sort().map((key) => `s3://lake/${key}`);
      expect(entries.map((e) => e.location)).to.deep.equal(expected);
      expect(entries.find((e) => e.location === 's3://lake/paged/part-01004.csv')!.size).to.equal('row 1004\n'.length);
      expect(entries.every((e) => typeof e.lastModified === 'number' && e.lastModified > 0)).to.equal(true);
      // Two pages: the second asked for with the first's continuation token.
      expect(proxy.count('GET', (u) => u.searchParams.get('list-type') === '2')).to.equal(2);
      expect(proxy.count('GET', (u) => u.searchParams.has('continuation-token'))).to.equal(1);
    });

    it('is lazy: taking the first file asks for one page only', async () => {
      for await (const entry of fs.listFiles('s3://lake/paged/')) {
        expect(entry.location).to.equal('s3://lake/paged/nested/deep/file.json');
        break;
      }
      expect(proxy.count('GET', (u) => u.searchParams.get('list-type') === '2')).to.equal(1);
    });

    it('treats a directory without its trailing slash the same, keeps an s3a:// scheme, and lists nothing where nothing is', async () => {
      const entries = await listAll(fs, 's3a://lake/paged/nested');
      expect(entries.map((e) => e.location)).to.deep.equal(['s3a://lake/paged/nested/deep/file.json']);
      expect(await listAll(fs, 's3://lake/no-such-directory/')).to.deep.equal([]);
    });

    it('fails naming the bucket when the bucket does not exist', async () => {
      const error = await engineRejection(listAll(fs, 's3://no-such-bucket/t/'));
      expect(error.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
      expect(error.message).to.equal(`S3 bucket 'no-such-bucket' does not exist at ${proxy.endpoint} (s3://no-such-bucket/t/)`);
    });
  });

  describe('stat and readRange', () => {
    const data = bytes(300_001);
    before(() => writeFile(fs, 's3://lake/read/data.bin', data, 65_536));

    it('stat reports size and time, or nothing for a missing file', async () => {
      const entry = await fs.stat('s3://lake/read/data.bin');
      expect(entry?.size).to.equal(data.length);
      expect(entry?.lastModified).to.be.a('number');
      expect(await fs.stat('s3://lake/read/missing.bin')).to.equal(undefined);
    });

    it('reads byte ranges with ranged GETs, fewer bytes only past the end', async () => {
      expect(Buffer.from(await fs.readRange('s3://lake/read/data.bin', 0, 10))).to.deep.equal(data.subarray(0, 10));
      expect(Buffer.from(await fs.readRange('s3://lake/read/data.bin', 123_456, 100_000))).to.deep.equal(data.subarray(123_456, 223_456));
      expect(Buffer.from(await fs.readRange('s3://lake/read/data.bin', 300_000, 10))).to.deep.equal(data.subarray(300_000));
      expect((await fs.readRange('s3://lake/read/data.bin', 300_001, 10)).length).to.equal(0);
      expect(proxy.requests.filter((r) => r.method === 'GET').map((r) => r.headers.range)).to.deep.equal([
        'bytes=0-9',
        'bytes=123456-223455',
        'bytes=300000-300009',
        'bytes=300001-300010',
      ]);
    });

    it('reads nothing from an empty file', async () => {
      await writeFile(fs, 's3://lake/read/empty.bin', new Uint8Array(0));
      expect((await fs.stat('s3://lake/read/empty.bin'))?.size).to.equal(0);
      expect((await fs.readRange('s3://lake/read/empty.bin', 0, 100)).length).to.equal(0);
    });

    it('fails naming a file that is not there', async () => {
      const error = await engineRejection(fs.readRange('s3://lake/read/missing.bin', 0, 10));
      expect(error.errorName).to.equal('HIVE_FILE_NOT_FOUND');
      expect(error.message).to.equal('File not found: s3://lake/read/missing.bin');
    });

    it('rejects a location that names no file', async () => {
      const error = await engineRejection(fs.readRange('https://lake/read/data.bin', 0, 10));
      expect(error.message).to.equal("Invalid S3 location 'https://lake/read/data.bin': expected s3://bucket/key");
      expect((await engineRejection(fs.stat('s3://lake/read/'))).message).to.equal(
        "S3 location 's3://lake/read/' names a directory, not a file",
      );
    });

    it('keeps keys with spaces, unicode and reserved characters intact', async () => {
      const location = "s3://lake/odd/a b+c!(x)*'é€/日本 %41.txt";
      await writeFile(fs, location, Buffer.from('odd'));
      expect((await listAll(fs, 's3://lake/odd/')).map((e) => e.location)).to.deep.equal([location]);
      expect(Buffer.from(await fs.readRange(location, 0, 3)).toString()).to.equal('odd');
    });
  });

  describe('create', () => {
    it('writes a file smaller than a part with one PUT', async () => {
      const data = bytes(1000);
      await writeFile(fs, 's3://lake/write/small.bin', data, 7);
      expect(proxy.requests.map((r) => r.method)).to.deep.equal(['PUT']);
      expect(Buffer.from(await fs.readRange('s3://lake/write/small.bin', 0, 2000))).to.deep.equal(data);
    });

    it('writes a large file as a multipart upload of 5 MiB parts that appears only when closed', async () => {
      const data = bytes(12 * MIB + 12_345);
      const output = await fs.create('s3://lake/write/large.bin');
      for (let at = 0; at < data.length; at += 1_000_000) await output.write(data.subarray(at, at + 1_000_000));
      expect(await fs.stat('s3://lake/write/large.bin')).to.equal(undefined);
      await output.close();
      const parts = proxy.requests.filter((r) => r.method === 'PUT' && r.url.searchParams.has('partNumber'));
      expect(parts.map((r) => r.url.searchParams.get('partNumber'))).to.deep.equal(['1', '2', '3']);
      expect(proxy.count('POST', (u) => u.searchParams.has('uploads'))).to.equal(1);
      expect(proxy.count('POST', (u) => u.searchParams.has('uploadId'))).to.equal(1);
      expect((await fs.stat('s3://lake/write/large.bin'))?.size).to.equal(data.length);
      expect(Buffer.from(await fs.readRange('s3://lake/write/large.bin', 0, data.length))).to.deep.equal(data);
      expect(Buffer.from(await fs.readRange('s3://lake/write/large.bin', 5 * MIB - 10, 20))).to.deep.equal(
        data.subarray(5 * MIB - 10, 5 * MIB + 10),
      );
    });

    it('abort leaves no file and aborts the multipart upload', async () => {
      const output = await fs.create('s3://lake/write/aborted.bin');
      await output.write(bytes(6 * MIB));
      await output.abort();
      expect(proxy.count('DELETE', (u) => u.searchParams.has('uploadId'))).to.equal(1);
      expect(await fs.stat('s3://lake/write/aborted.bin')).to.equal(undefined);
    });

    it('a part the store refuses fails the write, aborts the upload and leaves no file', async () => {
      proxy.inject({
        method: 'PUT',
        matches: (u) => u.searchParams.get('partNumber') === '2',
        times: 1,
        action: { kind: 'respond', status: 400, code: 'InvalidArgument' },
      });
      const output = await fs.create('s3://lake/write/refused.bin');
      const written = (async () => {
        for (let i = 0; i < 3; i++) await output.write(bytes(5 * MIB));
        await output.close();
      })();
      const error = await engineRejection(written);
      expect(error.message).to.match(
        /^S3 PUT of s3:\/\/lake\/write\/refused\.bin failed at http:\/\/127\.0\.0\.1:\d+: InvalidArgument: injected by the test$/,
      );
      expect(proxy.count('DELETE', (u) => u.searchParams.has('uploadId'))).to.equal(1);
      expect(await fs.stat('s3://lake/write/refused.bin')).to.equal(undefined);
    });

    it('replaces an existing file', async () => {
      await writeFile(fs, 's3://lake/write/replaced.txt', Buffer.from('first version'));
      await writeFile(fs, 's3://lake/write/replaced.txt', Buffer.from('second'));
      expect(Buffer.from(await fs.readRange('s3://lake/write/replaced.txt', 0, 100)).toString()).to.equal('second');
    });
  });

  describe('createExclusive', () => {
    it('creates a file only when none is there', async () => {
      expect(await fs.createExclusive('s3://lake/commits/00001', Buffer.from('first'))).to.equal(true);
      expect(await fs.createExclusive('s3://lake/commits/00001', Buffer.from('second'))).to.equal(false);
      expect(Buffer.from(await fs.readRange('s3://lake/commits/00001', 0, 100)).toString()).to.equal('first');
      const conditional = proxy.requests.filter((r) => r.method === 'PUT' && r.headers['if-none-match'] === '*');
      expect(conditional.map((r) => r.url.pathname)).to.include('/lake/commits/00001');
    });

    it('lets exactly one of several racing writers win', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => fs.createExclusive('s3://lake/commits/00002', Buffer.from(`writer ${i}`))),
      );
      expect(results.filter(Boolean)).to.have.length(1);
      const winner = results.indexOf(true);
      expect(Buffer.from(await fs.readRange('s3://lake/commits/00002', 0, 100)).toString()).to.equal(`writer ${winner}`);
    });

    it('counts a write whose answer was lost as its own (it reads the file back)', async () => {
      proxy.inject({
        method: 'PUT',
        matches: (u) => u.pathname === '/lake/commits/00003',
        times: 1,
        action: { kind: 'reset-after-store' },
      });
      expect(await fs.createExclusive('s3://lake/commits/00003', Buffer.from('mine'))).to.equal(true);
      proxy.inject({ method: 'PUT', matches: (u) => u.pathname === '/lake/commits/00003', times: 1, action: { kind: 'reset' } });
      expect(await fs.createExclusive('s3://lake/commits/00003', Buffer.from('someone else'))).to.equal(false);
    });
  });

  describe('deletes', () => {
    it('deleteFile removes a file (and a missing one is no error)', async () => {
      await writeFile(fs, 's3://lake/delete/one.txt', Buffer.from('1'));
      await fs.deleteFile('s3://lake/delete/one.txt');
      expect(await fs.stat('s3://lake/delete/one.txt')).to.equal(undefined);
      await fs.deleteFile('s3://lake/delete/one.txt');
    });

    it('deleteDirectory removes everything below, in batches of 1,000, and nothing beside', async () => {
      const count = 2003;
      for (let i = 0; i < count; i += 100) {
        await Promise.all(
          Array.from({ length: Math.min(100, count - i) }, (_, j) =>
            writeFile(fs, `s3://lake/table/part=${(i + j) % 3}/f${i + j}`, Buffer.from('x')),
          ),
        );
      }
      await writeFile(fs, 's3://lake/table-other/keep.txt', Buffer.from('keep'));
      proxy.requests.length = 0;
      await fs.deleteDirectory('s3://lake/table/');
      const batches = proxy.requests.filter((r) => r.method === 'POST' && r.url.searchParams.has('delete'));
      expect(batches).to.have.length(3);
      expect(await listAll(fs, 's3://lake/table/')).to.deep.equal([]);
      expect((await listAll(fs, 's3://lake/table-other/')).map((e) => e.location)).to.deep.equal(['s3://lake/table-other/keep.txt']);
      await fs.deleteDirectory('s3://lake/table/');
    });
  });
}
