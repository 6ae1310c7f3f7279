// The S3 catalog properties (Trino's names) and s3:// locations, read as the server starts.

import { expect } from 'chai';
import { ConfigError } from '../../../src/config/config-error.js';
import { EngineError } from '../../../src/errors/engine-error.js';
import { S3_PROPERTY_NAMES, s3Config } from '../../../src/connectors/hive/file-system/s3/s3-config.js';
import { parseS3Location } from '../../../src/connectors/hive/file-system/s3/s3-location.js';

function configError(properties: Record<string, string>, environment: Record<string, string> = {}): string {
  try {
    s3Config('lake', properties, environment);
  } catch (e) {
    expect(e).to.be.instanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('S3 configuration', () => {
  it('reads the properties of the issue example, with defaults for the rest', () => {
    const config = s3Config(
      'lake',
      {
        'hive.metastore': 'file',
        's3.endpoint': 'http://127.0.0.1:9000/',
        's3.region': 'us-east-1',
        's3.path-style-access': 'TRUE',
        's3.aws-access-key': 'minio',
        's3.aws-secret-key': 'minio-secret',
      },
      {},
    );
    expect(config).to.deep.equal({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      pathStyleAccess: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
      maxConnections: 500,
      maxErrorRetries: 10,
      connectTimeoutMs: 5000,
      socketTimeoutMs: 30_000,
      partSize: 32 * 1024 * 1024,
    });
  });

  it('reads the tuning properties', () => {
    const config = s3Config(
      'lake',
      {
        's3.max-connections': '8',
        's3.max-error-retries': '0',
        's3.socket-connect-timeout': '250ms',
        's3.socket-timeout': '2m',
        's3.streaming.part-size': '16MB',
      },
      {},
    );
    expect(config).to.include({
      maxConnections: 8,
      maxErrorRetries: 0,
      connectTimeoutMs: 250,
      socketTimeoutMs: 120_000,
      partSize: 16 * 1024 * 1024,
      region: 'us-east-1',
    });
    expect(config.endpoint).to.equal(undefined);
    expect(config.pathStyleAccess).to.equal(false);
  });

  it('takes credentials from the AWS environment variables when the properties have none', () => {
    expect(
      s3Config('lake', {}, { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' }).credentials,
    ).to.deep.equal({
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
    expect(s3Config('lake', {}, {}).credentials).to.equal(undefined);
  });

  it('names what is wrong, never echoing a secret', () => {
    expect(configError({ 's3.endpoint': 'localhost:9000' })).to.equal(
      "Catalog 'lake': s3.endpoint must be an http:// or https:// URL of a host (and port), got 'localhost:9000'",
    );
    expect(configError({ 's3.path-style-access': 'yes' })).to.equal(
      "Catalog 'lake': s3.path-style-access must be true or false, got 'yes'",
    );
    expect(configError({ 's3.max-connections': '0' })).to.equal("Catalog 'lake': s3.max-connections must be an integer >= 1, got '0'");
    expect(configError({ 's3.socket-timeout': '10' })).to.equal(
      "Catalog 'lake': s3.socket-timeout must be a positive duration such as 10s, got '10'",
    );
    expect(configError({ 's3.streaming.part-size': '4MB' })).to.equal(
      "Catalog 'lake': s3.streaming.part-size must be a size between 5MB and 256MB, got '4MB'",
    );
    expect(configError({ 's3.aws-secret-key': 'hush' })).to.equal("Catalog 'lake': s3.aws-secret-key is set but s3.aws-access-key is not");
    expect(configError({ 's3.aws-access-key': 'id' })).to.equal("Catalog 'lake': s3.aws-access-key is set but s3.aws-secret-key is not");
    expect(configError({ 's3.sse.type': 'KMS', 's3.region': 'eu-west-1' })).to.equal(
      `Catalog 'lake': unsupported S3 properties: s3.sse.type (supported: ${S3_PROPERTY_NAMES.join(', ')})`,
    );
  });
});

describe('S3 locations', () => {
  it('splits bucket and key, for s3, s3a and s3n', () => {
    expect(parseS3Location('s3://bucket/a/b.parquet')).to.deep.equal({ scheme: 's3', bucket: 'bucket', key: 'a/b.parquet' });
    expect(parseS3Location('s3a://bucket/dir/')).to.deep.equal({ scheme: 's3a', bucket: 'bucket', key: 'dir/' });
    expect(parseS3Location('s3n://bucket')).to.deep.equal({ scheme: 's3n', bucket: 'bucket', key: '' });
    expect(parseS3Location('s3://bucket/')).to.deep.equal({ scheme: 's3', bucket: 'bucket', key: '' });
  });

  it('refuses what is not an s3 location', () => {
    for (const location of ['file:///tmp/x', 's3:///key', 's3:/bucket/key', 'bucket/key']) {
      expect(() => parseS3Location(location), location).to.throw(
        EngineError,
        `Invalid S3 location '${location}': expected s3://bucket/key`,
      );
    }
  });
});
