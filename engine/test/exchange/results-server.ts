// A real HTTP server on a loopback port serving task output buffers through the real results routes
// (the task manager that will hold them does not exist yet, so a Map stands for it).

import Router from '@koa/router';
import Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PageSerializer } from '../../src/exec/exchange/page-codec.js';
import type { Page } from '../../src/columnar/page.js';
import { createLogger } from '../../src/log/logger.js';
import { errorMiddleware } from '../../src/server/http-middleware.js';
import type { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { internalAuthMiddleware } from '../../src/server/internal-auth/internal-endpoints.js';
import { taskResultsRoutes } from '../../src/server/task-results-resource.js';
import type { SqlType } from '../../src/types/types.js';
import type { OutputBuffer } from '../../src/worker/output-buffer.js';
import { OutputPage } from '../../src/worker/output-page.js';

export class ResultsServer {
  readonly buffers = new Map<string, OutputBuffer>();
  /** Answers the next `n` requests with 503 before they reach the routes. */
  failNext = 0;
  /** Cuts the end off every body of pages it answers (a body damaged on the way). */
  damageBodies = false;
  requests = 0;
  /** While set, a DELETE (a buffer's release) waits for it before it reaches the routes; `deletes` counts those that came. */
  holdDeletes: Promise<void> | undefined;
  deletes = 0;
  private server: Server | undefined;

  /** With an authenticator, requests need its cluster's internal bearer token, as on a node. */
  async start(internalAuth?: InternalAuthenticator): Promise<this> {
    const app = new Koa();
    const router = new Router();
    taskResultsRoutes(router, {
      outputBuffer: (taskId) => this.buffers.get(taskId),
      awaitOutputBuffer: async (taskId) => this.buffers.get(taskId),
    });
    app.use(errorMiddleware(createLogger('silent')));
    if (internalAuth) app.use(internalAuthMiddleware(internalAuth));
    app.use(async (ctx, next) => {
      this.requests++;
      if (ctx.method === 'DELETE') {
        this.deletes++;
        await this.holdDeletes;
      }
      if (this.failNext > 0) {
        this.failNext--;
        ctx.status = 503;
        ctx.body = { error: { message: 'overloaded' } };
        return;
      }
      await next();
      if (this.damageBodies && Buffer.isBuffer(ctx.body)) ctx.body = ctx.body.subarray(0, ctx.body.length - 100);
    });
    app.use(router.routes()).use(router.allowedMethods());
    this.server = app.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  get baseUri(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  resultsUri(taskId: string, outputId: string): string {
    return `${this.baseUri}/v1/task/${taskId}/results/${outputId}`;
  }

  /** Stops answering at once, dropping open connections (as a killed node does). */
  async kill(): Promise<void> {
    if (this.server === undefined) return;
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    this.server = undefined;
    await closed;
  }
}

/** Enqueues `pages` into partition `partition` as a producer does (waiting while the buffer is full), then no-more-pages. */
export async function produce(buffer: OutputBuffer, types: readonly SqlType[], pages: Iterable<Page>, partition = 0): Promise<void> {
  const serializer = new PageSerializer(types);
  for (const page of pages) await buffer.enqueue([new OutputPage(page, serializer)], partition);
  buffer.setNoMorePages();
}
