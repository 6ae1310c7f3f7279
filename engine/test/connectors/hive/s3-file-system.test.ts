// The S3 file system against fauxqs (a real emulator process on loopback) behind a test proxy
// that checks every request's signature as S3 does and gives fauxqs the If-None-Match semantics it
// lacks; and what happens with a store that ignores conditional writes (fauxqs itself).

import { expect } from 'chai';
import { S3Emulator } from '../../support/s3/s3-emulator.js';
import { S3Proxy } from '../../support/s3/s3-proxy.js';
import { s3FileSystemSuite, type StoreUnderTest } from './s3-file-system-suite.js';
import { engineRejection, listAll, s3FileSystem } from './s3-test-helpers.js';
import { s3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';

const CREDENTIALS = { 's3.aws-access-key': 'test-key', 's3.aws-secret-key': 'test-secret' };
const SIGNATURES = { secrets: new Map([['test-key', 'test-secret']]), region: 'us-east-1' };

describe('S3 file system (fauxqs)', function () {
  this.timeout(120_000);
  let emulator: S3Emulator;
  let store: StoreUnderTest;

  before(async () => {
    emulator = await S3Emulator.start(['lake', 'other']);
    const proxy = await S3Proxy.start(emulator.endpoint, { conditionalWrites: true, signatures: SIGNATURES });
    const properties = { 's3.endpoint': proxy.endpoint, 's3.path-style-access': 'true', 's3.streaming.part-size': '5MB', ...CREDENTIALS };
    store = { proxy, config: s3Config('lake', properties, {}) };
  });
  after(async () => {
    await store?.proxy.stop();
    await emulator?.stop();
  });

  s3FileSystemSuite(() => store);

  describe('a store that ignores If-None-Match', () => {
    it('refuses a store that ignores If-None-Match rather than risking two winners', async () => {
      const direct = s3FileSystem(emulator.endpoint, CREDENTIALS);
      const error = await engineRejection(direct.createExclusive('s3://other/commits/00001', Buffer.from('x')));
      expect(error.errorName).to.equal('NOT_SUPPORTED');
      expect(error.message).to.equal(
        `The S3 store at ${emulator.endpoint} ignores conditional writes (PUT with If-None-Match: *), which commits to s3://other/commits/00001 need to be safe against concurrent writers`,
      );
      expect(await listAll(direct, 's3://other/')).to.deep.equal([]);
    });
  });
});
