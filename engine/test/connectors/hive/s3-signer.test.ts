// Our AWS Signature V4 signer reproduces the four worked examples of the S3 documentation
// ("Examples: Signature Calculations" for the Authorization header, with AWS's example credentials):
// a ranged GET, a PUT with a body and a `$` in the key, a subresource query, a listing query.

import { expect } from 'chai';
import { S3Signer, sha256Hex, uriEncode } from '../../../src/connectors/hive/file-system/s3/s3-signer.js';

const CREDENTIALS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const HOST = 'examplebucket.s3.amazonaws.com';
const WHEN = new Date('2013-05-24T00:00:00Z');
const EMPTY_HASH = sha256Hex('');

function authorization(
  path: string,
  query: Record<string, string>,
  headers: Record<string, string>,
  payloadHash: string,
  method = 'GET',
): string {
  const signer = new S3Signer(CREDENTIALS, 'us-east-1');
  const signed = { ...headers };
  signer.sign({ method, host: HOST, path, query, headers: signed, payloadHash }, WHEN);
  expect(signed['x-amz-date']).to.equal('20130524T000000Z');
  expect(signed['x-amz-content-sha256']).to.equal(payloadHash);
  return signed['authorization']!;
}

const CREDENTIAL = 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request';

describe('S3 signer (AWS Signature V4)', () => {
  it('GET Object with a Range header', () => {
    expect(authorization('/test.txt', {}, { range: 'bytes=0-9' }, EMPTY_HASH)).to.equal(
      `${CREDENTIAL}, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41`,
    );
  });

  it('PUT Object with a body, a Date header and a `$` in the key', () => {
    const body = 'Welcome to Amazon S3.';
    expect(sha256Hex(body)).to.equal('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const headers = {
      date: 'Fri, 24 May 2013 00:00:00 GMT',
      'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      'content-length': String(body.length),
    };
    expect(authorization(`/${uriEncode('test$file.text')}`, {}, headers, sha256Hex(body), 'PUT')).to.equal(
      `${CREDENTIAL}, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd`,
    );
  });

  it('GET Bucket Lifecycle (a subresource without a value)', () => {
    expect(authorization('/', { lifecycle: '' }, {}, EMPTY_HASH)).to.equal(
      `${CREDENTIAL}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543`,
    );
  });

  it('GET Bucket (List Objects) with query parameters', () => {
    expect(authorization('/', { prefix: 'J', 'max-keys': '2' }, {}, EMPTY_HASH)).to.equal(
      `${CREDENTIAL}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7`,
    );
  });

  it('signs a session token as a header of its own', () => {
    const signer = new S3Signer({ ...CREDENTIALS, sessionToken: 'token' }, 'us-east-1');
    const headers: Record<string, string> = {};
    signer.sign({ method: 'GET', host: HOST, path: '/', query: {}, headers, payloadHash: EMPTY_HASH }, WHEN);
    expect(headers['x-amz-security-token']).to.equal('token');
    expect(headers['authorization']).to.contain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
  });
});
