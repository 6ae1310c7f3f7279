// Every error the HTTP layer answers is JSON: {"error": {"message", "errorName"?, ...}} with a
// proper status; unknown paths get 404, wrong methods 405, and nothing thrown crashes the server.

import type { Middleware } from 'koa';
import { ProtocolError } from '../internode/protocol-error.js';
import type { Logger } from '../log/logger.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName?: string,
    /** More members of the JSON error, e.g. the node state a refused move started from. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  error: { message: string; errorName?: string; [detail: string]: unknown };
}

export function errorBody(message: string, errorName?: string, details?: Readonly<Record<string, unknown>>): ErrorBody {
  return { error: { message, ...(errorName ? { errorName } : {}), ...details } };
}

const NAMES_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  410: 'GONE',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  501: 'NOT_IMPLEMENTED',
  503: 'SERVICE_UNAVAILABLE',
};

/** The errorName of an answer with this status, when the error does not name itself. */
export function errorNameForStatus(status: number): string {
  return NAMES_BY_STATUS[status] ?? (status < 500 ? 'BAD_REQUEST' : 'INTERNAL_ERROR');
}

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

/** HttpError and http-errors (thrown by Koa and the router) carry a status; anything else is a 500. */
/** Runs `read` (of a request's body or headers); one that does not follow the inter-node protocol is the caller's mistake: 400. */
export function readOrRefuse<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ProtocolError) throw new HttpError(400, e.message, 'BAD_REQUEST');
    throw e;
  }
}

export function statusOf(e: unknown): number {
  const status = (e as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 600) return status;
  if (e instanceof URIError) return 400;
  return 500;
}
