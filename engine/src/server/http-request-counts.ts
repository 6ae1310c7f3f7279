// Requests this node answered, by method and route (the router's pattern, e.g. POST /v1/task/:taskId),
// with the bytes of their bodies each way (a body streamed without a known length counts 0): what a
// query costs a node in HTTP round trips, read from GET /metrics (engine_http_requests,
// engine_http_request_body_bytes, engine_http_response_body_bytes; bench/query-cpu.ts reads them per query).
// The labels are the routes, never the paths: a path no route takes counts under "(none)".

import type Koa from 'koa';

export interface RouteCount {
  requests: number;
  requestBytes: number;
  responseBytes: number;
}

/** Keyed by "METHOD route"; a request no route took is counted under its method and "(none)". */
export const httpRequestCounts = new Map<string, RouteCount>();

export function countHttpRequests(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const key = `${ctx.method} ${route === undefined ? '(none)' : String(route)}`;
      let count = httpRequestCounts.get(key);
      if (count === undefined) httpRequestCounts.set(key, (count = { requests: 0, requestBytes: 0, responseBytes: 0 }));
      count.requests++;
      count.requestBytes += Number(ctx.request.length ?? 0) || 0;
      count.responseBytes += Number(ctx.response.length ?? 0) || 0;
    }
  };
}
