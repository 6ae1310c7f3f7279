// Gzips the JSON answers of /ui/api when the browser takes it: a query list or a query detail is
// mostly repeated keys, so a refresh sends a fifth of the bytes or less.

import type { Middleware } from 'koa';
import { gzipSync } from 'node:zlib';

/** Answers smaller than this go as they are: gzip would save next to nothing. */
const MIN_BYTES = 1024;

export function compressJson(prefix: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (
      !ctx.path.startsWith(prefix) ||
      ctx.body === null ||
      typeof ctx.body !== 'object' ||
      Buffer.isBuffer(ctx.body) ||
      typeof (ctx.body as { pipe?: unknown }).pipe === 'function'
    )
      return;
    const json = Buffer.from(JSON.stringify(ctx.body), 'utf8');
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = 'application/json';
    if (json.byteLength >= MIN_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = gzipSync(json);
    } else {
      ctx.body = json;
    }
  };
}
