// Requests this node answered, by method and route (the router's pattern, e.g. POST /v1/task/:taskId),
// with the bytes of their bodies each way (a body streamed without a known length counts 0): what a
// query costs a node in HTTP round trips, read from GET /metrics (engine_http_requests,
// engine_http_request_body_bytes, engine_http_response_body_bytes; bench/query-cpu.ts reads them per query).
// The labels are the routes, never the paths: a path no route takes counts under "(none)".
// One tally per server, so nodes sharing a process (tests, `engine cluster`) each count their own.

import type Koa from 'koa';

export interface RouteCount {
  requests: number;
  requestBytes: number;
  responseBytes: number;
}

export class HttpRequestCounts {
  /** Keyed by "METHOD route"; a request no route took is counted under its method and "(none)". */
  private readonly counts = new Map<string, RouteCount>();

  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      try {
        await next();
      } finally {
        const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        this.add(`${ctx.method} ${route === undefined ? '(none)' : String(route)}`, ctx.request.length, ctx.response.length);
      }
    };
  }

  /** Each route's counts, with its method and route pattern apart. */
  entries(): { method: string; route: string; count: RouteCount }[] {
    return [...this.counts].map(([key, count]) => {
      const space = key.indexOf(' ');
      return { method: key.slice(0, space), route: key.slice(space + 1), count };
    });
  }

  private add(key: string, requestBytes: number | undefined, responseBytes: number | undefined): void {
    let count = this.counts.get(key);
    if (count === undefined) this.counts.set(key, (count = { requests: 0, requestBytes: 0, responseBytes: 0 }));
    count.requests++;
    count.requestBytes += Number(requestBytes ?? 0) || 0;
    count.responseBytes += Number(responseBytes ?? 0) || 0;
  }
}
