// The scheme and authority a client used to reach us: addresses we hand back (nextUri, infoUri)
// use it, so a client behind a port-forward or proxy keeps talking through the same route.

import type { Context } from 'koa';

export function baseUri(ctx: Context, fallback: string): string {
  const host = ctx.host;
  return host ? `${ctx.protocol}://${host}` : fallback;
}
