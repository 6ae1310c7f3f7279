// Reads a request body as UTF-8 text, refusing bodies over the configured size (413) and bytes that
// are not valid UTF-8 (400).

import type { Context } from 'koa';
import { formatDataSize } from '../config/data-size.js';
import { HttpError } from './http-error.js';

export async function readBodyText(ctx: Context, limitBytes: number): Promise<string> {
  const tooLarge = (bytes: number) => {
    ctx.set('Connection', 'close');
    return new HttpError(413, `Request body of ${bytes} bytes exceeds the limit of ${formatDataSize(limitBytes)}`, 'PAYLOAD_TOO_LARGE');
  };
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limitBytes) throw tooLarge(declared);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limitBytes) throw tooLarge(total);
    chunks.push(buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks, total));
  } catch {
    throw new HttpError(400, 'Request body is not valid UTF-8', 'BAD_REQUEST');
  }
}
