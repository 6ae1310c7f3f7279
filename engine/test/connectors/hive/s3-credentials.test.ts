// Wrong or missing credentials, against a store that checks AWS Signature V4 as S3 does (fauxqs
// behind the test proxy's check, itself tested on the S3 documentation's examples): each fails
// naming the location, the endpoint and the property to check, never showing the secret, and is
// not retried.

import { expect } from 'chai';
import { S3Emulator } from '../../support/s3/s3-emulator.js';
import { S3Proxy } from '../../support/s3/s3-proxy.js';
import { engineRejection, listAll, s3FileSystem, writeFile } from './s3-test-helpers.js';

const WRONG_SECRET = 'a-wrong-secret-that-must-not-show';

describe('S3 file system credentials', function () {
  this.timeout(60_000);
  let emulator: S3Emulator;
  let proxy: S3Proxy;

  before(async () => {
    emulator = await S3Emulator.start(['lake']);
    proxy = await S3Proxy.start(emulator.endpoint, {
      signatures: { secrets: new Map([['lake-user', 'lake-secret']]), region: 'eu-west-1' },
    });
  });
  after(async () => {
    await proxy?.stop();
    await emulator?.stop();
  });
  beforeEach(() => {
    proxy.requests.length = 0;
  });

  const withCredentials = (accessKey: string, secretKey: string, region = 'eu-west-1') =>
    s3FileSystem(proxy.endpoint, { 's3.aws-access-key': accessKey, 's3.aws-secret-key': secretKey, 's3.region': region });

  it('the right ones are accepted for every kind of request', async () => {
    const fs = withCredentials('lake-user', 'lake-secret');
    await writeFile(fs, 's3://lake/ok/a.txt', Buffer.from('a'));
    expect((await listAll(fs, 's3://lake/ok/')).map((e) => e.location)).to.deep.equal(['s3://lake/ok/a.txt']);
    expect(Buffer.from(await fs.readRange('s3://lake/ok/a.txt', 0, 1)).toString()).to.equal('a');
    await fs.deleteDirectory('s3://lake/ok/');
  });

  it('a wrong secret fails naming s3.aws-secret-key, not the secret, at once', async () => {
    const fs = withCredentials('lake-user', WRONG_SECRET);
    const error = await engineRejection(fs.readRange('s3://lake/x.bin', 0, 1));
    expect(error.errorName).to.equal('HIVE_FILESYSTEM_ERROR');
    expect(error.message).to.equal(
      `S3 at ${proxy.endpoint} refused the request for s3://lake/x.bin: the secret key (s3.aws-secret-key) does not match the access key 'lake-user'`,
    );
    expect(proxy.requests).to.have.length(1);
    const writing = await engineRejection(writeFile(fs, 's3://lake/x.bin', Buffer.from('x')));
    expect(writing.message).to.contain('s3.aws-secret-key').and.not.contain(WRONG_SECRET);
  });

  it('a HEAD refused (no body to say why) says what to check', async () => {
    const error = await engineRejection(withCredentials('lake-user', WRONG_SECRET).stat('s3://lake/x.bin'));
    expect(error.message).to.equal(
      `Access denied to s3://lake/x.bin by S3 at ${proxy.endpoint}: the credentials of access key 'lake-user' are wrong or not allowed to HEAD there (HTTP 403)`,
    );
  });

  it('an unknown access key fails naming it and s3.aws-access-key', async () => {
    const error = await engineRejection(listAll(withCredentials('nobody', WRONG_SECRET), 's3://lake/t/'));
    expect(error.message).to.equal(
      `S3 at ${proxy.endpoint} does not know the access key 'nobody' (s3.aws-access-key) used for s3://lake/t/`,
    );
  });

  it('no credentials at all fails saying none are configured', async () => {
    const error = await engineRejection(s3FileSystem(proxy.endpoint, { 's3.region': 'eu-west-1' }).readRange('s3://lake/x.bin', 0, 1));
    expect(error.message).to.equal(
      `Access denied to s3://lake/x.bin by S3 at ${proxy.endpoint}: no credentials are configured (s3.aws-access-key, s3.aws-secret-key) (AccessDenied: the request signature was checked by the test proxy)`,
    );
  });

  it('a wrong region fails with the store’s reason', async () => {
    const error = await engineRejection(withCredentials('lake-user', 'lake-secret', 'us-east-1').readRange('s3://lake/x.bin', 0, 1));
    expect(error.message).to.equal(
      `S3 GET of s3://lake/x.bin failed at ${proxy.endpoint}: AuthorizationHeaderMalformed: the request signature was checked by the test proxy`,
    );
  });
});
