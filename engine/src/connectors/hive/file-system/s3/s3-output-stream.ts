// A new S3 object written in chunks. Bytes are held until a part's worth (s3.streaming.part-size)
// has come; a file smaller than that is written by one PUT on close. A larger one becomes a
// multipart upload: each full part is uploaded while the next fills (one part in flight, so at most
// two parts are held), and close completes the upload, which is when the object appears, whole.
// A failure or an abort aborts the upload, so no object and no part is left behind.

import { EngineError } from '../../../../errors/engine-error.js';
import type { OutputStream } from '../file-system.js';
import type { S3Client, S3Request } from './s3-client.js';
import { responseError } from './s3-errors.js';
import type { S3Location } from './s3-location.js';
import { elementText, encodeXmlText, parseErrorBody } from './s3-xml.js';

/** S3 numbers a multipart upload's parts 1 to 10,000. */
const MAX_PARTS = 10_000;

/** What a written object is: bytes (some stores fail on a body without a type). */
export const OBJECT_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/octet-stream' };

interface UploadedPart {
  number: number;
  etag: string;
}

export class S3OutputStream implements OutputStream {
  private chunks: Uint8Array[] = [];
  private bufferedBytes = 0;
  private totalBytes = 0;
  private uploadId: string | undefined;
  private readonly parts: UploadedPart[] = [];
  /** The part being uploaded, if any (its failure surfaces at the next write or at close). */
  private partInFlight: Promise<void> | undefined;
  private state: 'open' | 'closed' | 'aborted' = 'open';

  constructor(
    private readonly client: S3Client,
    private readonly target: S3Location,
    /** The location as the caller wrote it, for errors. */
    private readonly location: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.checkOpen();
    if (chunk.length === 0) return;
    // A copy: the caller may reuse its buffer once the write resolves.
    this.chunks.push(Uint8Array.prototype.slice.call(chunk));
    this.bufferedBytes += chunk.length;
    this.totalBytes += chunk.length;
    if (this.bufferedBytes >= this.client.config.partSize) await this.failingAborts(() => this.uploadBufferedPart());
  }

  async close(): Promise<void> {
    this.checkOpen();
    this.state = 'closed';
    await this.failingAborts(async () => {
      if (this.uploadId === undefined) {
        await this.send({ method: 'PUT', key: this.target.key, headers: OBJECT_HEADERS, body: this.takeBuffered() });
        return;
      }
      if (this.bufferedBytes > 0) await this.uploadBufferedPart();
      await this.partInFlight;
      await this.completeUpload(this.uploadId);
    });
  }

  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    await this.abortUpload();
  }

  private checkOpen(): void {
    if (this.state !== 'open') throw new EngineError('GENERIC_INTERNAL_ERROR', `Output to ${this.location} is already ${this.state}`);
  }

  /** Runs `work`; if it fails, the upload is aborted (nothing is left) and the failure rethrown. */
  private async failingAborts(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (e) {
      this.state = 'aborted';
      await this.abortUpload();
      throw e;
    }
  }

  private takeBuffered(): Buffer {
    const bytes = Buffer.concat(this.chunks, this.bufferedBytes);
    this.chunks = [];
    this.bufferedBytes = 0;
    return bytes;
  }

  private async uploadBufferedPart(): Promise<void> {
    this.uploadId ??= await this.createUpload();
    const uploadId = this.uploadId;
    // The previous part must be done (and its failure seen) before another is held in flight.
    await this.partInFlight;
    const number = this.parts.length + 1;
    if (number > MAX_PARTS) {
      throw new EngineError('HIVE_FILESYSTEM_ERROR', `${this.location} needs more than ${MAX_PARTS} parts: raise s3.streaming.part-size`);
    }
    const body = this.takeBuffered();
    this.partInFlight = this.send({ method: 'PUT', key: this.target.key, query: { partNumber: String(number), uploadId }, body }).then(
      (response) => {
        const etag = response.headers['etag'];
        if (typeof etag !== 'string')
          throw new EngineError('HIVE_FILESYSTEM_ERROR', `S3 returned no ETag for part ${number} of ${this.location}`);
        this.parts.push({ number, etag });
      },
    );
    // Seen at the next write or at close; marked handled so a failure between them is not "unhandled".
    this.partInFlight.catch(() => {});
  }

  private async createUpload(): Promise<string> {
    const response = await this.send({ method: 'POST', key: this.target.key, query: { uploads: '' }, headers: OBJECT_HEADERS });
    const uploadId = elementText(response.body.toString('utf8'), 'UploadId');
    if (!uploadId) throw new EngineError('HIVE_FILESYSTEM_ERROR', `S3 did not start a multipart upload of ${this.location}`);
    return uploadId;
  }

  private async completeUpload(uploadId: string): Promise<void> {
    const parts = [...this.parts].sort((a, b) => a.number - b.number);
    const xml = `<CompleteMultipartUpload>${parts.map((p) => `<Part><PartNumber>${p.number}</PartNumber><ETag>${encodeXmlText(p.etag)}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
    const response = await this.send({
      method: 'POST',
      key: this.target.key,
      query: { uploadId },
      body: Buffer.from(xml, 'utf8'),
      accept: [404],
    });
    const error = parseErrorBody(response.body.toString('utf8'));
    if (response.status === 404) {
      // A retry of a completion that took effect finds the upload gone: the object is there, whole.
      if (error?.code === 'NoSuchUpload' && response.earlierAttemptMayHaveApplied && (await this.objectSize()) === this.totalBytes) return;
      throw responseError(this.context('POST'), 404, error, 1);
    }
    // S3 may answer 200 and report a failure in the body.
    if (error !== undefined)
      throw new EngineError(
        'HIVE_FILESYSTEM_ERROR',
        `S3 could not complete the upload of ${this.location}: ${error.code}: ${error.message}`,
      );
  }

  private async objectSize(): Promise<number | undefined> {
    const response = await this.send({ method: 'HEAD', key: this.target.key, accept: [404] });
    return response.status === 404 ? undefined : Number(response.headers['content-length']);
  }

  /** Best effort: an upload left unfinished holds no visible object either way. */
  private async abortUpload(): Promise<void> {
    const uploadId = this.uploadId;
    this.uploadId = undefined;
    this.chunks = [];
    this.bufferedBytes = 0;
    await this.partInFlight?.catch(() => {});
    if (uploadId === undefined) return;
    await this.send({ method: 'DELETE', key: this.target.key, query: { uploadId }, accept: [404] }).catch(() => {});
  }

  private context(method: string) {
    return { method, location: this.location, bucket: this.target.bucket, endpoint: this.client.endpoint };
  }

  private send(request: Omit<S3Request, 'bucket' | 'location'>) {
    return this.client.send({ ...request, bucket: this.target.bucket, location: this.location });
  }
}
