// The test proxy's AWS Signature V4 check must be right before it can prove our signing right:
// it reproduces the four worked examples of the S3 documentation ("Examples: Signature
// Calculations", AWS's example credentials), and refuses what S3 refuses.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { computeSignature, verifySignature, type SignedRequest } from '../../support/s3/sigv4-verifier.js';

const ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const EMPTY_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HOST = 'examplebucket.s3.amazonaws.com';

function example(method: string, target: string, headers: Record<string, string>, body = ''): SignedRequest {
  return { method, target, headers: { host: HOST, 'x-amz-date': '20130524T000000Z', ...headers }, body: Buffer.from(body) };
}

function signed(request: SignedRequest, signedHeaders: string[], secret = SECRET): SignedRequest {
  const payloadHash = String(request.headers['x-amz-content-sha256']);
  const signature = computeSignature(request, { secret, date: '20130524', region: 'us-east-1', signedHeaders, payloadHash });
  const authorization = `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/20130524/us-east-1/s3/aws4_request,SignedHeaders=${signedHeaders.join(';')},Signature=${signature}`;
  return { ...request, headers: { ...request.headers, authorization } };
}

const SECRETS = new Map([[ACCESS_KEY, SECRET]]);

describe('SigV4 verifier (test support) on the S3 documentation examples', () => {
  const getObject = example('GET', '/test.txt', { range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_HASH });
  const getObjectHeaders = ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'];
  const body = 'Welcome to Amazon S3.';
  const putObject = example(
    'PUT',
    '/test$file.text',
    {
      date: 'Fri, 24 May 2013 00:00:00 GMT',
      'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
    },
    body,
  );
  const putObjectHeaders = ['date', 'host', 'x-amz-content-sha256', 'x-amz-date', 'x-amz-storage-class'];
  const plainHeaders = ['host', 'x-amz-content-sha256', 'x-amz-date'];

  it('computes the documented signatures', () => {
    const inputs = { secret: SECRET, date: '20130524', region: 'us-east-1' };
    expect(computeSignature(getObject, { ...inputs, signedHeaders: getObjectHeaders, payloadHash: EMPTY_HASH })).to.equal(
      'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(
      computeSignature(putObject, {
        ...inputs,
        signedHeaders: putObjectHeaders,
        payloadHash: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
      }),
    ).to.equal('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
    const lifecycle = example('GET', '/?lifecycle', { 'x-amz-content-sha256': EMPTY_HASH });
    expect(computeSignature(lifecycle, { ...inputs, signedHeaders: plainHeaders, payloadHash: EMPTY_HASH })).to.equal(
      'fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543',
    );
    const list = example('GET', '/?max-keys=2&prefix=J', { 'x-amz-content-sha256': EMPTY_HASH });
    expect(computeSignature(list, { ...inputs, signedHeaders: plainHeaders, payloadHash: EMPTY_HASH })).to.equal(
      '34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
    );
  });

  it('accepts a correctly signed request and refuses what S3 refuses', () => {
    expect(verifySignature(signed(getObject, getObjectHeaders), SECRETS, 'us-east-1')).to.deep.equal({ ok: true });
    expect(verifySignature(signed(putObject, putObjectHeaders), SECRETS, 'us-east-1')).to.deep.equal({ ok: true });
    expect(verifySignature(signed(getObject, getObjectHeaders, 'wrong'), SECRETS, 'us-east-1').code).to.equal('SignatureDoesNotMatch');
    expect(verifySignature(signed(getObject, getObjectHeaders), new Map([['OTHER', SECRET]]), 'us-east-1').code).to.equal(
      'InvalidAccessKeyId',
    );
    expect(verifySignature(signed(getObject, getObjectHeaders), SECRETS, 'eu-west-1').code).to.equal('AuthorizationHeaderMalformed');
    expect(verifySignature(getObject, SECRETS, 'us-east-1').code).to.equal('AccessDenied');
    const tampered = { ...signed(putObject, putObjectHeaders), body: Buffer.from('Welcome to Amazon S4.') };
    expect(verifySignature(tampered, SECRETS, 'us-east-1').code).to.equal('XAmzContentSHA256Mismatch');
    const otherRange = signed(getObject, getObjectHeaders);
    expect(verifySignature({ ...otherRange, headers: { ...otherRange.headers, range: 'bytes=0-99' } }, SECRETS, 'us-east-1').code).to.equal(
      'SignatureDoesNotMatch',
    );
  });
});
