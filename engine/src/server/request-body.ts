// Reads a request body as UTF-8 text, refusing bodies over the configured size (413) and bytes that
// are not valid UTF-8 (400).

import type { Context } from 'koa';
import { formatDataSize } from '../config/data-size.js';
import { HttpError } from '../errors/http-error.js';

/**
 * A refused body is still read (and thrown away) up to this many times the limit before the answer
 * goes out: a client that is still sending when the server answers and closes gets EPIPE instead of
 * the 413. Beyond it the connection is closed mid-body, so a huge upload cannot hold the server.
 */
const DRAIN_FACTOR = 4;

export async function readBodyText(ctx: Context, limitBytes: number): Promise<string> {
  const tooLarge = async (bytes: number, alreadyRead: number) => {
    ctx.set('Connection', 'close');
    const declared = ctx.request.length;
    if (declared === undefined || declared <= DRAIN_FACTOR * limitBytes) await discard(ctx, DRAIN_FACTOR * limitBytes - alreadyRead);
    return new HttpError(413, `Request body of ${bytes} bytes exceeds the limit of ${formatDataSize(limitBytes)}`, 'PAYLOAD_TOO_LARGE');
  };
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limitBytes) throw await tooLarge(declared, 0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limitBytes) throw await tooLarge(total, total);
    chunks.push(buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks, total));
  } catch {
    throw new HttpError(400, 'Request body is not valid UTF-8', 'BAD_REQUEST');
  }
}

/** Reads and drops the rest of the request body, up to `maxBytes`. */
async function discard(ctx: Context, maxBytes: number): Promise<void> {
  let read = 0;
  for await (const chunk of ctx.req) {
    read += (chunk as Buffer).length;
    if (read > maxBytes) return;
  }
}
