// Requests this node answered, by method and route (the router's pattern, e.g. POST /v1/task/:taskId),
// with the bytes of their bodies each way (a body streamed without a known length counts 0): what a
// query costs a node in HTTP round trips, read from GET /metrics (engine_http_requests,
// engine_http_request_body_bytes, engine_http_response_body_bytes; bench/query-cpu.ts reads them per query).
// The labels are the routes, never the paths: a path no route takes counts under "(none)".
// One tally per server, so nodes sharing a process (tests, `engine cluster`) each count their own.

import type Koa from 'koa';

export interface RouteCount {
  method: string;
  /** The router's pattern, or "(none)". */
  route: string;
  requests: number;
  requestBytes: number;
  responseBytes: number;
}

export class HttpRequestCounts {
  /** Keyed by "METHOD route". */
  private readonly counts = new Map<string, RouteCount>();

  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      try {
        await next();
      } finally {
        const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        this.add(ctx.method, matched === undefined ? '(none)' : String(matched), ctx.request.length, ctx.response.length);
      }
    };
  }

  /** Each route's counts. */
  entries(): readonly RouteCount[] {
    return [...this.counts.values()];
  }

  private add(method: string, route: string, requestBytes: number | undefined, responseBytes: number | undefined): void {
    const key = `${method} ${route}`;
    let count = this.counts.get(key);
    if (count === undefined) this.counts.set(key, (count = { method, route, requests: 0, requestBytes: 0, responseBytes: 0 }));
    count.requests++;
    count.requestBytes += requestBytes ?? 0;
    count.responseBytes += responseBytes ?? 0;
  }
}
