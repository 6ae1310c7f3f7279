// Every error the HTTP layer answers is JSON: {"error": {"message", "errorName"?, ...}} with a
// proper status (server/http-middleware.ts writes it). An HttpError is thrown wherever a request is
// refused: by the server's resources, the worker's task endpoint and client authentication.

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

/** HttpError and http-errors (thrown by Koa and the router) carry a status; anything else is a 500. */
export function statusOf(e: unknown): number {
  const status = (e as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 600) return status;
  if (e instanceof URIError) return 400;
  return 500;
}
