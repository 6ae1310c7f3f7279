// Against a second S3 implementation, s3rver (on disk; its own listing continuation tokens, its
// own parsing of keys, multipart uploads and DeleteObjects), which knows one access key: every kind
// of request the file system makes works there, and an unknown access key fails naming it.
// (s3rver@3.7.1 does not check V4 signatures, only that the access key exists: signatures are
// checked in s3-credentials.test.ts.)

import { expect } from 'chai';
import { S3Emulator, S3RVER_CREDENTIALS } from '../../support/s3/s3-emulator.js';
import { MIB, bytes, engineRejection, listAll, s3FileSystem, writeFile } from './s3-test-helpers.js';
import type { S3FileSystem } from '../../../src/connectors/hive/file-system/s3-file-system.js';

const SECRET = 'a-wrong-secret';

describe('S3 file system (s3rver)', function () {
  this.timeout(120_000);
  let emulator: S3Emulator;
  let fs: S3FileSystem;

  before(async () => {
    emulator = await S3Emulator.start('s3rver', ['lake']);
    fs = s3FileSystem(emulator.endpoint, {
      's3.aws-access-key': S3RVER_CREDENTIALS.accessKey,
      's3.aws-secret-key': S3RVER_CREDENTIALS.secretKey,
      's3.streaming.part-size': '5MB',
    });
  });
  after(() => emulator?.stop());

  it('writes, looks up, reads ranges of and deletes files with odd keys', async () => {
    const location = "s3://lake/signed/a b+c!(x)*'é/日本.bin";
    const data = bytes(5000);
    await writeFile(fs, location, data);
    expect((await fs.stat(location))?.size).to.equal(5000);
    expect(Buffer.from(await fs.readRange(location, 1000, 2000))).to.deep.equal(data.subarray(1000, 3000));
    expect((await listAll(fs, 's3://lake/signed/')).map((e) => e.location)).to.deep.equal([location]);
    await fs.deleteFile(location);
    expect(await fs.stat(location)).to.equal(undefined);
  });

  it('writes a large file as a multipart upload', async () => {
    const data = bytes(11 * MIB);
    await writeFile(fs, 's3://lake/multipart/large.bin', data, 3 * MIB);
    expect((await fs.stat('s3://lake/multipart/large.bin'))?.size).to.equal(data.length);
    expect(Buffer.from(await fs.readRange('s3://lake/multipart/large.bin', 6 * MIB, MIB))).to.deep.equal(data.subarray(6 * MIB, 7 * MIB));
  });

  it('lists across pages with its continuation tokens, and deletes in batches', async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `s3://lake/many/f${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((key) => writeFile(fs, key, Buffer.from('x'))));
    expect((await listAll(fs, 's3://lake/many/')).map((e) => e.location)).to.deep.equal(keys);
    await fs.deleteDirectory('s3://lake/many/');
    expect(await listAll(fs, 's3://lake/many/')).to.deep.equal([]);
  });

  it('an unknown access key fails naming it and s3.aws-access-key', async () => {
    const wrong = s3FileSystem(emulator.endpoint, { 's3.aws-access-key': 'NOBODY', 's3.aws-secret-key': SECRET });
    const error = await engineRejection(writeFile(wrong, 's3://lake/y.bin', Buffer.from('y')));
    expect(error.message).to.equal(`S3 at ${emulator.endpoint} does not know the access key 'NOBODY' (s3.aws-access-key) used for s3://lake/y.bin`);
  });
});
