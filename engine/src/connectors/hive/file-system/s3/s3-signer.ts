// AWS Signature Version 4 for S3 requests (the Authorization header), with node:crypto's
// synchronous HMAC: S3's rules (each path segment URI-encoded once, never normalized; the payload's
// SHA-256 in x-amz-content-sha256), every header sent signed but Content-Length. The signing key is
// derived once a day and region. Tested on the worked examples of the S3 documentation.

import { createHash, createHmac } from 'node:crypto';
import type { S3Credentials } from './s3-config.js';

export interface RequestToSign {
  method: string;
  /** `host[:port]`, as the Host header sends it. */
  host: string;
  /** The path as sent, each segment already uriEncode'd. */
  path: string;
  query: Readonly<Record<string, string>>;
  /** Header names in lower case; host and the signature's headers are added to them. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body. */
  payloadHash: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED_HEADERS = new Set(['content-length', 'user-agent', 'expect', 'connection']);

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986: all but the unreserved characters percent-encoded, in upper-case hex. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export class S3Signer {
  private signingKey: { scope: string; key: Buffer } | undefined;

  constructor(
    private readonly credentials: S3Credentials,
    private readonly region: string,
  ) {}

  /** Adds x-amz-date, x-amz-content-sha256, the session token if any, and Authorization. */
  sign(request: RequestToSign, now: Date = new Date()): void {
    const datetime = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
    const date = datetime.slice(0, 8);
    const { headers } = request;
    headers['x-amz-date'] = datetime;
    headers['x-amz-content-sha256'] = request.payloadHash;
    if (this.credentials.sessionToken) headers['x-amz-security-token'] = this.credentials.sessionToken;
    headers['host'] = request.host;
    const signedHeaders = Object.keys(headers)
      .filter((name) => !UNSIGNED_HEADERS.has(name))
      .sort();
    const canonical = [
      request.method,
      request.path,
      queryString(request.query),
      signedHeaders.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
      signedHeaders.join(';'),
      request.payloadHash,
    ].join('\n');
    const scope = `${date}/${this.region}/s3/aws4_request`;
    const stringToSign = `${ALGORITHM}\n${datetime}\n${scope}\n${sha256Hex(canonical)}`;
    const signature = createHmac('sha256', this.key(date, scope)).update(stringToSign).digest('hex');
    headers['authorization'] =
      `${ALGORITHM} Credential=${this.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`;
  }

  private key(date: string, scope: string): Buffer {
    if (this.signingKey?.scope !== scope) {
      let key = hmac(`AWS4${this.credentials.secretAccessKey}`, date);
      for (const part of [this.region, 's3', 'aws4_request']) key = hmac(key, part);
      this.signingKey = { scope, key };
    }
    return this.signingKey.key;
  }
}

/** The query as S3 canonicalizes it (and as it is sent): names and values uriEncode'd, sorted. */
export function queryString(query: Readonly<Record<string, string>>): string {
  return Object.entries(query)
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
