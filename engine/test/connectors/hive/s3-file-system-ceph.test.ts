// The S3 file system against a real S3 server: Ceph's RADOS Gateway (a throwaway one-node cluster,
// see ceph-rgw.ts), which checks AWS Signature V4 itself and honours If-None-Match on PUT, so the
// exclusive create commits rely on is proven here without help. A recording proxy (that changes
// nothing) sits in front for the suite; the credential tests talk to the gateway directly.

import { expect } from 'chai';
import { CephRgw, ensureCephInstalled } from '../../support/s3/ceph-rgw.js';
import { S3Proxy } from '../../support/s3/s3-proxy.js';
import { s3FileSystemSuite, type StoreUnderTest } from './s3-file-system-suite.js';
import { engineRejection, listAll, s3FileSystem, writeFile } from './s3-test-helpers.js';
import { S3Client } from '../../../src/connectors/hive/file-system/s3/s3-client.js';
import { s3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';

const WRONG_SECRET = 'a-wrong-secret-that-must-not-show';

describe('S3 file system (Ceph RADOS Gateway)', function () {
  this.timeout(300_000);
  let rgw: CephRgw;
  let store: StoreUnderTest;

  before(async function () {
    const missing = ensureCephInstalled();
    if (missing !== undefined) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    rgw = await CephRgw.start();
    const credentials = { 's3.aws-access-key': rgw.accessKey, 's3.aws-secret-key': rgw.secretKey };
    const direct = new S3Client(s3Config('lake', { 's3.endpoint': rgw.endpoint, 's3.path-style-access': 'true', ...credentials }, {}));
    for (const bucket of ['lake', 'other']) await direct.send({ method: 'PUT', bucket, key: '', location: `s3://${bucket}/` });
    const proxy = await S3Proxy.start(rgw.endpoint);
    const properties = { 's3.endpoint': proxy.endpoint, 's3.path-style-access': 'true', 's3.streaming.part-size': '5MB', ...credentials };
    store = { proxy, config: s3Config('lake', properties, {}) };
  });
  after(async () => {
    await store?.proxy.stop();
    await rgw?.stop();
  });

  s3FileSystemSuite(() => store);

  describe('credentials, checked by the gateway', () => {
    const withCredentials = (accessKey: string, secretKey: string) =>
      s3FileSystem(rgw.endpoint, { 's3.aws-access-key': accessKey, 's3.aws-secret-key': secretKey });

    it('a wrong secret fails naming s3.aws-secret-key, not the secret', async () => {
      const fs = withCredentials(rgw.accessKey, WRONG_SECRET);
      const error = await engineRejection(fs.readRange('s3://lake/x.bin', 0, 1));
      expect(error.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
      expect(error.message).to.equal(
        `S3 at ${rgw.endpoint} refused the request for s3://lake/x.bin: the secret key (s3.aws-secret-key) does not match the access key '${rgw.accessKey}'`,
      );
      const writing = await engineRejection(writeFile(fs, 's3://lake/x.bin', Buffer.from('x')));
      expect(writing.message).to.contain('s3.aws-secret-key').and.not.contain(WRONG_SECRET);
      expect((await engineRejection(listAll(fs, 's3://lake/'))).message).to.not.contain(WRONG_SECRET);
    });

    it('an unknown access key fails naming it', async () => {
      const error = await engineRejection(listAll(withCredentials('NOBODY', WRONG_SECRET), 's3://lake/'));
      expect(error.message).to.equal(`S3 at ${rgw.endpoint} does not know the access key 'NOBODY' (s3.aws-access-key) used for s3://lake/`);
    });

    it('no credentials fails saying none are configured', async () => {
      const error = await engineRejection(s3FileSystem(rgw.endpoint).readRange('s3://lake/x.bin', 0, 1));
      expect(error.message).to.match(
        new RegExp(
          `^Access denied to s3://lake/x\\.bin by S3 at ${rgw.endpoint}: no credentials are configured \\(s3\\.aws-access-key, s3\\.aws-secret-key\\) \\(AccessDenied: .*\\)$`,
        ),
      );
    });

    it('the exclusive create needs no help: the gateway refuses a second create', async () => {
      const fs = withCredentials(rgw.accessKey, rgw.secretKey);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => fs.createExclusive('s3://other/commits/00001', Buffer.from(`writer ${i}`))),
      );
      expect(results.filter(Boolean)).to.have.length(1);
      expect(Buffer.from(await fs.readRange('s3://other/commits/00001', 0, 100)).toString()).to.equal(`writer ${results.indexOf(true)}`);
    });
  });
});
