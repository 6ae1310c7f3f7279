// How the S3 file system meets failures: transient ones (5xx, throttling, dropped connections,
// silent or cut-short answers) are retried with backoff and the work completes; refusals (4xx) are
// not retried; an endpoint that cannot be reached fails at once, naming it; an aborted signal
// stops a request, or the pause between attempts, at once. Faults are injected by a proxy in front
// of fauxqs (a real emulator process).

import { expect } from 'chai';
import { freePort } from '../../support/free-port.js';
import { S3Emulator } from '../../support/s3/s3-emulator.js';
import { S3Proxy, type FaultAction } from '../../support/s3/s3-proxy.js';
import { MIB, bytes, engineRejection, listAll, rejection, s3FileSystem, writeFile } from './s3-test-helpers.js';
import type { S3FileSystem } from '../../../src/connectors/hive/file-system/s3-file-system.js';

const CREDENTIALS = { 's3.aws-access-key': 'test-key', 's3.aws-secret-key': 'test-secret' };
const isObject = (key: string) => (url: URL) => url.pathname === `/lake/${key}`;

async function untilRequests(proxy: S3Proxy, count: number): Promise<void> {
  while (proxy.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('S3 file system failures', function () {
  this.timeout(120_000);
  let emulator: S3Emulator;
  let proxy: S3Proxy;
  let fs: S3FileSystem;
  const data = bytes(100_000);

  before(async () => {
    emulator = await S3Emulator.start(['lake']);
    proxy = await S3Proxy.start(emulator.endpoint);
    fs = s3FileSystem(proxy.endpoint, { ...CREDENTIALS, 's3.streaming.part-size': '5MB', 's3.socket-timeout': '500ms' });
    await writeFile(fs, 's3://lake/data.bin', data);
  });
  after(async () => {
    await proxy?.stop();
    await emulator?.stop();
  });
  beforeEach(() => {
    proxy.requests.length = 0;
  });
  afterEach(() => proxy.clearFaults());

  describe('retried', () => {
    it('throttling (503 SlowDown) until it passes', async () => {
      proxy.inject({ method: 'GET', matches: isObject('data.bin'), times: 2, action: { kind: 'respond', status: 503, code: 'SlowDown' } });
      expect(Buffer.from(await fs.readRange('s3://lake/data.bin', 10, 20))).to.deep.equal(data.subarray(10, 30));
      expect(proxy.count('GET')).to.equal(3);
    });

    it('a connection reset', async () => {
      proxy.inject({ method: 'HEAD', times: 1, action: { kind: 'reset' } });
      expect((await fs.stat('s3://lake/data.bin'))?.size).to.equal(data.length);
      expect(proxy.count('HEAD')).to.equal(2);
    });

    it('an answer cut short', async () => {
      proxy.inject({ method: 'GET', times: 1, action: { kind: 'truncate' } });
      expect(Buffer.from(await fs.readRange('s3://lake/data.bin', 0, data.length))).to.deep.equal(data);
      expect(proxy.count('GET')).to.equal(2);
    });

    it('an answer that never comes (s3.socket-timeout)', async () => {
      proxy.inject({ method: 'GET', times: 1, action: { kind: 'hang' } });
      expect(Buffer.from(await fs.readRange('s3://lake/data.bin', 5, 5))).to.deep.equal(data.subarray(5, 10));
      expect(proxy.count('GET')).to.equal(2);
    });

    it('a listing page, a multipart part and a lost completion answer', async () => {
      proxy.inject({
        method: 'GET',
        matches: (u) => u.searchParams.has('list-type'),
        times: 1,
        action: { kind: 'respond', status: 500, code: 'InternalError' },
      });
      expect((await listAll(fs, 's3://lake/')).map((e) => e.location)).to.deep.equal(['s3://lake/data.bin']);
      const large = bytes(11 * MIB);
      proxy.inject({
        method: 'PUT',
        matches: (u) => u.searchParams.get('partNumber') === '2',
        times: 1,
        action: { kind: 'respond', status: 503, code: 'SlowDown' },
      });
      // The store completes the upload but the answer is lost: the retry finds the upload gone and the object whole.
      proxy.inject({ method: 'POST', matches: (u) => u.searchParams.has('uploadId'), times: 1, action: { kind: 'reset-after-store' } });
      await writeFile(fs, 's3://lake/large.bin', large, MIB);
      expect(proxy.count('PUT', (u) => u.searchParams.get('partNumber') === '2')).to.equal(2);
      expect(proxy.count('POST', (u) => u.searchParams.has('uploadId'))).to.equal(2);
      expect(Buffer.from(await fs.readRange('s3://lake/large.bin', 0, large.length))).to.deep.equal(large);
    });
  });

  describe('not retried', () => {
    it('a refusal (403) fails at once, naming the location and the access key, never the secret', async () => {
      proxy.inject({ method: 'GET', times: 1, action: { kind: 'respond', status: 403, code: 'AccessDenied' } });
      const error = await engineRejection(fs.readRange('s3://lake/data.bin', 0, 1));
      expect(error.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
      expect(error.message).to.equal(
        `Access denied to s3://lake/data.bin by S3 at ${proxy.endpoint}: the credentials of access key 'test-key' are wrong or not allowed to GET there (AccessDenied: injected by the test)`,
      );
      expect(proxy.count('GET')).to.equal(1);
    });

    it('transient failures beyond s3.max-error-retries fail, saying how many attempts were made', async () => {
      const fewRetries = s3FileSystem(proxy.endpoint, { ...CREDENTIALS, 's3.max-error-retries': '2' });
      proxy.inject({ method: 'GET', times: 3, action: { kind: 'respond', status: 500, code: 'InternalError' } });
      const error = await engineRejection(fewRetries.readRange('s3://lake/data.bin', 0, 1));
      expect(error.message).to.equal(
        `S3 GET of s3://lake/data.bin failed at ${proxy.endpoint}: InternalError: injected by the test (after 3 attempts)`,
      );
      expect(proxy.count('GET')).to.equal(3);
    });
  });

  describe('s3.max-connections', () => {
    it('bounds the requests in flight; the rest wait their turn', async () => {
      const two = s3FileSystem(proxy.endpoint, { ...CREDENTIALS, 's3.max-connections': '2' });
      proxy.inject({ method: 'GET', times: 8, action: { kind: 'delay', ms: 100 } });
      proxy.maxInFlight = 0;
      const reads = await Promise.all(Array.from({ length: 8 }, (_, i) => two.readRange('s3://lake/data.bin', i * 10, 10)));
      expect(reads.map((r) => Buffer.from(r))).to.deep.equal(Array.from({ length: 8 }, (_, i) => data.subarray(i * 10, i * 10 + 10)));
      expect(proxy.count('GET')).to.equal(8);
      expect(proxy.maxInFlight).to.equal(2);
    });
  });

  describe('an endpoint that cannot be reached', () => {
    it('fails at once with connection refused, naming the endpoint and the location', async () => {
      const endpoint = `http://127.0.0.1:${await freePort()}`;
      const unreachable = s3FileSystem(endpoint, CREDENTIALS);
      const error = await engineRejection(unreachable.readRange('s3://lake/data.bin', 0, 1));
      expect(error.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
      expect(error.message).to.equal(`Cannot reach S3 at ${endpoint} for s3://lake/data.bin: connection refused`);
      expect((await engineRejection(listAll(unreachable, 's3://lake/t/'))).message).to.equal(
        `Cannot reach S3 at ${endpoint} for s3://lake/t/: connection refused`,
      );
    });

    it('fails at once when the host name does not resolve', async () => {
      const unreachable = s3FileSystem('http://no-such-host.invalid:9000', CREDENTIALS);
      const error = await engineRejection(unreachable.stat('s3://lake/data.bin'));
      expect(error.message).to.match(
        /^Cannot reach S3 at http:\/\/no-such-host\.invalid:9000 for s3:\/\/lake\/data\.bin: host 'no-such-host\.invalid' (not found|could not be resolved)$/,
      );
    });
  });

  describe('an aborted signal', () => {
    /** A read whose signal aborts once the proxy holds its first request: what it rejected with, and why. */
    async function abortedRead(action: FaultAction, times: number) {
      proxy.inject({ method: 'GET', times, action });
      const controller = new AbortController();
      const read = rejection(fs.readRange('s3://lake/data.bin', 0, 1, controller.signal));
      await untilRequests(proxy, 1);
      const reason = new Error('query cancelled');
      controller.abort(reason);
      return { rejected: await read, reason, signal: controller.signal };
    }

    it('stops a request in flight', async () => {
      const { rejected, reason } = await abortedRead({ kind: 'hang' }, 1);
      expect(rejected).to.equal(reason);
      expect(proxy.count('GET')).to.equal(1);
    });

    it('stops a request that is being retried, and one not yet sent', async () => {
      const { rejected, reason, signal } = await abortedRead({ kind: 'respond', status: 503, code: 'SlowDown' }, 1000);
      expect(rejected).to.equal(reason);
      expect(await rejection(fs.stat('s3://lake/data.bin', signal))).to.equal(reason);
      expect(proxy.count('HEAD')).to.equal(0);
    });
  });
});
