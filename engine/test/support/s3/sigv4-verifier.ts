// Checks an S3 request's AWS Signature V4 the way S3 does, written from AWS's description of the
// algorithm (and tested against the worked examples of its S3 documentation), for tests: no S3
// emulator that runs here checks V4 signatures (s3rver@3.7.1, also measured, checks only that the access key
// exists; fauxqs checks nothing).

import { createHash, createHmac } from 'node:crypto';

export interface SignedRequest {
  method: string;
  /** The path and query as sent (`/bucket/a%20b?list-type=2&prefix=x`). */
  target: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Uint8Array;
}

export interface Verdict {
  ok: boolean;
  /** S3's error code when not ok. */
  code?: 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'XAmzContentSHA256Mismatch' | 'AuthorizationHeaderMalformed';
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

export function verifySignature(request: SignedRequest, secrets: ReadonlyMap<string, string>, region: string): Verdict {
  const authorization = header(request, 'authorization');
  if (authorization === undefined) return { ok: false, code: 'AccessDenied' };
  const match = AUTHORIZATION.exec(authorization);
  if (!match) return { ok: false, code: 'AuthorizationHeaderMalformed' };
  const [, accessKey, date, signedRegion, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
  const secret = secrets.get(accessKey);
  if (secret === undefined) return { ok: false, code: 'InvalidAccessKeyId' };
  if (signedRegion !== region) return { ok: false, code: 'AuthorizationHeaderMalformed' };
  const payloadHash = header(request, 'x-amz-content-sha256');
  if (payloadHash === undefined) return { ok: false, code: 'AccessDenied' };
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(request.body))
    return { ok: false, code: 'XAmzContentSHA256Mismatch' };
  const expected = computeSignature(request, { secret, date, region, signedHeaders: signedHeaders.split(';'), payloadHash });
  return expected === signature ? { ok: true } : { ok: false, code: 'SignatureDoesNotMatch' };
}

export interface SigningInputs {
  secret: string;
  /** yyyymmdd of the credential scope. */
  date: string;
  region: string;
  signedHeaders: readonly string[];
  payloadHash: string;
}

export function computeSignature(request: SignedRequest, inputs: SigningInputs): string {
  const datetime = header(request, 'x-amz-date') ?? '';
  const scope = `${inputs.date}/${inputs.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', datetime, scope, sha256Hex(Buffer.from(canonicalRequest(request, inputs)))].join('\n');
  let key: Buffer = hmac(`AWS4${inputs.secret}`, inputs.date);
  for (const part of [inputs.region, 's3', 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex');
}

export function canonicalRequest(request: SignedRequest, inputs: Pick<SigningInputs, 'signedHeaders' | 'payloadHash'>): string {
  const [rawPath = '/', rawQuery = ''] = splitOnce(request.target, '?');
  // S3 neither normalizes the path nor encodes it twice: each segment, decoded, URI-encoded once.
  const path = rawPath
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
  const query = rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const [name, value = ''] = splitOnce(pair, '=');
      return [queryPart(name), queryPart(value)] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = inputs.signedHeaders.map((name) => `${name}:${(header(request, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  return [request.method, path, query, headers, inputs.signedHeaders.join(';'), inputs.payloadHash].join('\n');
}

function queryPart(text: string): string {
  return uriEncode(decodeURIComponent(text.replace(/\+/g, ' ')));
}

/** RFC 3986: everything but unreserved characters percent-encoded, in upper-case hex. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function header(request: SignedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
