// The answer to every failed request: errorMiddleware turns what a resource threw into the JSON
// error body (errors/http-error.ts) with a proper status; unknown paths get 404, wrong methods 405,
// and nothing thrown crashes the server.

import type { Middleware } from 'koa';
import { errorBody, errorNameForStatus, HttpError, statusOf } from '../errors/http-error.js';
import { ProtocolError } from '../internode/protocol-error.js';
import type { Logger } from '../log/logger.js';

/**
 * Whether the server is at fault (logged as an error, with the stack): 5xx except 503 (a node that
 * refuses new work) and 501 (a method the client should not use).
 */
function isServerFault(status: number): boolean {
  return status >= 500 && status !== 501 && status !== 503;
}

export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // The router answers unknown paths and wrong methods with a bare status.
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null))
        throw new HttpError(ctx.status, bareStatusMessage(ctx.status, ctx.method, ctx.path, ctx.response.get('Allow')));
    } catch (e) {
      const status = statusOf(e);
      let message = e instanceof Error ? e.message : String(e);
      const errorName = e instanceof HttpError && e.errorName ? e.errorName : errorNameForStatus(status);
      if (isServerFault(status)) {
        logger.error({ err: e, method: ctx.method, path: ctx.path }, 'request failed');
        if (!(e instanceof HttpError)) message = `Internal error: ${message}`;
      } else {
        // The client's mistake or a refusal: worth a line, not a stack trace.
        const fields = { status, errorName, message, method: ctx.method, path: ctx.path };
        if (status === 503) logger.info(fields, 'request refused');
        else logger.debug(fields, 'request refused');
      }
      ctx.status = status;
      ctx.body = errorBody(message, errorName, e instanceof HttpError ? e.details : undefined);
    }
  };
}

function bareStatusMessage(status: number, method: string, path: string, allow: string): string {
  if (status === 404) return `Not found: ${method} ${path}`;
  if (status === 405) return `Method ${method} is not allowed for ${path} (allowed: ${allow})`;
  if (status === 501) return `Method ${method} is not implemented`;
  return `Request failed: ${method} ${path}`;
}

/** Runs `read` (of a request's body or headers); one that does not follow the inter-node protocol is the caller's mistake: 400. */
export function readOrRefuse<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ProtocolError) throw new HttpError(400, e.message, 'BAD_REQUEST');
    throw e;
  }
}
