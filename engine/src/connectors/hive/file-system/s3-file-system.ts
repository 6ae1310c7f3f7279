// The lake's files in a bucket of any S3-compatible store (`s3://bucket/key`), configured from
// Trino's native S3 properties (see s3/s3-config.ts). Listing pages through ListObjectsV2, reads
// are ranged GETs, writes are a PUT or a multipart upload, the commit's compare-and-set is a
// conditional PUT (If-None-Match: *), and directory deletes go in DeleteObjects batches of 1,000.
// Requests are bounded, retried and reported as s3/s3-client.ts says.

import { createHash, randomUUID } from 'node:crypto';
import { EngineError } from '../../../errors/engine-error.js';
import type { FileEntry, FileSystem, OutputStream } from './file-system.js';
import { S3Client, type S3Request, type S3Response } from './s3/s3-client.js';
import type { RequestSlots } from './s3/request-slots.js';
import type { S3Config } from './s3/s3-config.js';
import { directoryPrefix, formatS3Location, parseS3FileLocation, parseS3Location, type S3Location } from './s3/s3-location.js';
import { OBJECT_HEADERS, S3OutputStream } from './s3/s3-output-stream.js';
import { decodeXmlText, elementBodies, elementText, encodeXmlText, parseErrorBody } from './s3/s3-xml.js';

/** An object as ListObjectsV2 reports it. */
interface ListedObject {
  key: string;
  size: number;
  lastModified?: number;
  etag?: string;
}

/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

/**
 * Whether a store honours If-None-Match on PUT, by endpoint and bucket: asked once per process.
 * A store that ignores it would let two commits both "win"; that must fail instead.
 */
const conditionalWriteSupport = new Map<string, Promise<void>>();

export class S3FileSystem implements FileSystem {
  private readonly client: S3Client;

  /** `slots`: the node's bound on requests in flight (made from s3.max-connections when not given). */
  constructor(config: S3Config, slots?: RequestSlots) {
    this.client = new S3Client(config, slots);
  }

  async *listFiles(directory: string, signal?: AbortSignal): AsyncIterable<FileEntry> {
    const parsed = parseS3Location(directory);
    for await (const object of this.listObjects(parsed, directory, signal)) {
      // A key ending in `/` is a folder marker some tools write, not a file.
      if (object.key.endsWith('/')) continue;
      yield {
        location: formatS3Location(parsed.scheme, parsed.bucket, object.key),
        size: object.size,
        ...(object.lastModified === undefined ? {} : { lastModified: object.lastModified }),
        ...(object.etag === undefined ? {} : { etag: object.etag }),
      };
    }
  }

  /** The folders directly below a directory: a listing with delimiter `/`, its common prefixes, page by page. */
  async listDirectories(directory: string, signal?: AbortSignal): Promise<string[]> {
    const parsed = parseS3Location(directory);
    const folders: string[] = [];
    for await (const page of this.listPages(parsed, directory, { delimiter: '/' }, signal)) {
      for (const prefix of page.prefixes) folders.push(formatS3Location(parsed.scheme, parsed.bucket, prefix));
    }
    return folders;
  }

  async stat(location: string, signal?: AbortSignal): Promise<FileEntry | undefined> {
    const parsed = parseS3FileLocation(location);
    const response = await this.send({
      method: 'HEAD',
      bucket: parsed.bucket,
      key: parsed.key,
      location,
      accept: [404],
      ...signalOf(signal),
    });
    if (response.status === 404) return undefined;
    const modified = response.headers['last-modified'];
    const etag = response.headers['etag'];
    return {
      location,
      size: Number(response.headers['content-length']),
      ...(modified === undefined ? {} : { lastModified: Date.parse(modified) }),
      ...(typeof etag === 'string' ? { etag } : {}),
    };
  }

  async readRange(location: string, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const parsed = parseS3FileLocation(location);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new EngineError('GENERIC_INTERNAL_ERROR', `Invalid range [${offset}, ${offset}+${length}) of ${location}`);
    }
    if (length === 0) return new Uint8Array(0);
    const response = await this.send({
      method: 'GET',
      bucket: parsed.bucket,
      key: parsed.key,
      location,
      headers: { range: `bytes=${offset}-${offset + length - 1}` },
      // 416: the range starts at or past the end (an empty file has no byte to start at).
      accept: [416],
      ...signalOf(signal),
    });
    if (response.status === 416) return new Uint8Array(0);
    if (response.status === 200) return response.body.subarray(offset, offset + length); // a store that ignored the range
    const served = /^bytes (\d+)-/.exec(String(response.headers['content-range'] ?? ''));
    if (served === null || Number(served[1]) !== offset) {
      throw new EngineError(
        'HIVE_FILESYSTEM_ERROR',
        `S3 answered a read of ${location} at ${offset} with the range '${response.headers['content-range']}'`,
      );
    }
    return response.body;
  }

  async create(location: string): Promise<OutputStream> {
    return new S3OutputStream(this.client, parseS3FileLocation(location), location);
  }

  async createExclusive(location: string, data: Uint8Array): Promise<boolean> {
    const parsed = parseS3FileLocation(location);
    await this.requireConditionalWrites(parsed, location);
    const response = await this.send({
      method: 'PUT',
      bucket: parsed.bucket,
      key: parsed.key,
      location,
      headers: { ...OBJECT_HEADERS, 'if-none-match': '*' },
      body: data,
      accept: [412],
    });
    if (response.status !== 412) return true;
    // An earlier attempt may have written it before its answer was lost: then the object is ours.
    if (!response.earlierAttemptMayHaveApplied) return false;
    const existing = await this.send({ method: 'GET', bucket: parsed.bucket, key: parsed.key, location, accept: [404] });
    return existing.status !== 404 && Buffer.from(data).equals(existing.body);
  }

  async deleteFile(location: string): Promise<void> {
    const parsed = parseS3FileLocation(location);
    await this.send({ method: 'DELETE', bucket: parsed.bucket, key: parsed.key, location });
  }

  async deleteDirectory(directory: string): Promise<void> {
    const parsed = parseS3Location(directory);
    let batch: string[] = [];
    // Keys already listed stay behind the listing's continuation point, so deleting as it goes is safe.
    for await (const object of this.listObjects(parsed, directory)) {
      batch.push(object.key);
      if (batch.length === DELETE_BATCH) {
        await this.deleteObjects(parsed, directory, batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.deleteObjects(parsed, directory, batch);
  }

  /** Every object under a directory's prefix, in key order, a page (up to 1,000) at a time. */
  private async *listObjects(directory: S3Location, location: string, signal?: AbortSignal): AsyncIterable<ListedObject> {
    for await (const page of this.listPages(directory, location, {}, signal)) yield* page.objects;
  }

  /** The pages of a ListObjectsV2 of the directory's prefix, following continuation tokens. */
  private async *listPages(
    directory: S3Location,
    location: string,
    extra: Record<string, string>,
    signal?: AbortSignal,
  ): AsyncIterable<ListPage> {
    const prefix = directoryPrefix(directory);
    let continuationToken: string | undefined;
    do {
      const response = await this.send({
        method: 'GET',
        bucket: directory.bucket,
        key: '',
        location,
        query: {
          'list-type': '2',
          prefix,
          'encoding-type': 'url',
          ...extra,
          ...(continuationToken === undefined ? {} : { 'continuation-token': continuationToken }),
        },
        ...signalOf(signal),
      });
      const page = parseListPage(response.body.toString('utf8'));
      yield page;
      continuationToken = page.nextContinuationToken;
      if (page.truncated && continuationToken === undefined) {
        throw new EngineError('HIVE_FILESYSTEM_ERROR', `S3 cut the listing of ${location} short without saying where to go on`);
      }
    } while (continuationToken !== undefined);
  }

  private async deleteObjects(directory: S3Location, location: string, keys: readonly string[]): Promise<void> {
    const xml = `<Delete><Quiet>true</Quiet>${keys.map((key) => `<Object><Key>${encodeXmlText(key)}</Key></Object>`).join('')}</Delete>`;
    const body = Buffer.from(xml, 'utf8');
    const response = await this.send({
      method: 'POST',
      bucket: directory.bucket,
      key: '',
      location,
      query: { delete: '' },
      // S3 requires a checksum of a DeleteObjects body.
      headers: { 'content-md5': createHash('md5').update(body).digest('base64'), 'content-type': 'application/xml' },
      body,
    });
    const failed = elementBodies(response.body.toString('utf8'), 'Error')[0];
    if (failed !== undefined) {
      const key = elementText(failed, 'Key') ?? '';
      throw new EngineError(
        'HIVE_FILESYSTEM_ERROR',
        `S3 could not delete ${formatS3Location(directory.scheme, directory.bucket, key)} (deleting ${location}): ${elementText(failed, 'Code')}: ${elementText(failed, 'Message')}`,
      );
    }
  }

  /**
   * Proves once per endpoint and bucket that the store refuses a conditional PUT over an existing
   * object (some S3 emulators and older stores ignore the header and overwrite). The probe is a
   * hidden file beside the target, deleted again.
   */
  private requireConditionalWrites(target: S3Location, location: string): Promise<void> {
    const cacheKey = `${this.client.endpoint}\n${target.bucket}`;
    let probe = conditionalWriteSupport.get(cacheKey);
    if (probe === undefined) {
      probe = this.probeConditionalWrites(target, location);
      conditionalWriteSupport.set(cacheKey, probe);
      // A failed probe (unreachable, refused) is asked again next time.
      probe.catch(() => conditionalWriteSupport.delete(cacheKey));
    }
    return probe;
  }

  private async probeConditionalWrites(target: S3Location, location: string): Promise<void> {
    const key = `${target.key.slice(0, target.key.lastIndexOf('/') + 1)}.engine-conditional-write-probe-${randomUUID()}`;
    const probe: Omit<S3Request, 'method'> = { bucket: target.bucket, key, location, body: Buffer.from('probe') };
    await this.send({ ...probe, method: 'PUT', headers: OBJECT_HEADERS });
    let second: S3Response;
    try {
      // 501: a store that says it does not implement the header.
      second = await this.send({ ...probe, method: 'PUT', headers: { ...OBJECT_HEADERS, 'if-none-match': '*' }, accept: [412, 501] });
    } finally {
      await this.send({ bucket: target.bucket, key, location, method: 'DELETE' }).catch(() => {});
    }
    if (second.status !== 412) {
      throw new EngineError(
        'NOT_SUPPORTED',
        `The S3 store at ${this.client.endpoint} ignores conditional writes (PUT with If-None-Match: *), which commits to ${location} need to be safe against concurrent writers`,
      );
    }
  }

  private send(request: S3Request): Promise<S3Response> {
    return this.client.send(request);
  }
}

function signalOf(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

interface ListPage {
  objects: ListedObject[];
  /** With a delimiter: the keys' common prefixes (folders), each ending in the delimiter. */
  prefixes: string[];
  truncated: boolean;
  nextContinuationToken?: string;
}

function parseListPage(xml: string): ListPage {
  const error = parseErrorBody(xml);
  if (error !== undefined) throw new EngineError('HIVE_FILESYSTEM_ERROR', `S3 listing failed: ${error.code}: ${error.message}`);
  // Keys come URL-encoded only if the store honoured encoding-type=url (and says so).
  const urlEncoded = elementText(xml, 'EncodingType') === 'url';
  const objects = elementBodies(xml, 'Contents').map((contents): ListedObject => {
    const rawKey = decodeXmlText(elementBodies(contents, 'Key')[0] ?? '');
    const modified = elementText(contents, 'LastModified');
    const etag = elementText(contents, 'ETag');
    return {
      key: urlEncoded ? decodeURIComponent(rawKey.replace(/\+/g, ' ')) : rawKey,
      size: Number(elementText(contents, 'Size') ?? 0),
      ...(modified === undefined ? {} : { lastModified: Date.parse(modified) }),
      ...(etag === undefined ? {} : { etag }),
    };
  });
  const decodeKey = (raw: string) => (urlEncoded ? decodeURIComponent(raw.replace(/\+/g, ' ')) : raw);
  const prefixes = elementBodies(xml, 'CommonPrefixes').map((common) => decodeKey(decodeXmlText(elementBodies(common, 'Prefix')[0] ?? '')));
  const token = elementText(xml, 'NextContinuationToken');
  return { objects, prefixes, truncated: elementText(xml, 'IsTruncated') === 'true', ...(token ? { nextContinuationToken: token } : {}) };
}
