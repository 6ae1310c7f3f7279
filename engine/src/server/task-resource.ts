// Endpoints 4-7, the task resource the coordinator drives:
//   GET    /v1/task             every task this node holds (done ones until their retention ends)
//   POST   /v1/task/{taskId}    creates or updates a task (internode/task-update-request.ts); 503 when the
//                               node takes no new tasks (not ACTIVE): the scheduler goes elsewhere
//   GET    /v1/task/{taskId}    the task object; with X-Engine-Current-Version and X-Engine-Max-Wait
//                               it waits (long-polls) until the version differs from the one named
// POST and GET take Trino's `?summarize`: a running task's object then comes without its pipelines.
//   GET    /v1/task/{taskId}/dynamic-filters?since=N  the remote dynamic filters' domains the task
//                               published after its first N (internode/dynamic-filter-domains.ts)
//   DELETE /v1/task/{taskId}    aborts the task (?abort=false: cancels it, letting consumers read
//                               what is buffered) and answers its final info
// and endpoints 8-9, its results (task-results-resource.ts). What crosses the wire (bodies, headers)
// is written and read by internode/; this file is the HTTP around it.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { encodeVersionedDomains } from '../internode/dynamic-filter-domains.js';
import { readTaskPoll } from '../internode/task-headers.js';
import { encodeTaskInfo, encodeTaskInfos } from '../internode/task-info-codec.js';
import { decodeTaskUpdateRequest } from '../internode/task-update-request.js';
import type { TaskEndpoint } from '../worker/task-endpoint.js';
import { HttpError } from '../errors/http-error.js';
import { readOrRefuse } from './http-middleware.js';
import { readBodyText } from './request-body.js';
import { taskResultsRoutes } from './task-results-resource.js';

/** A fragment with many splits is large; still, a bound keeps a bad client from filling memory. */
const MAX_TASK_REQUEST_BYTES = 64 * 1024 * 1024;

export function taskRoutes(router: Router, endpoint: TaskEndpoint): void {
  const json = (ctx: Context, body: string) => {
    ctx.type = 'application/json';
    ctx.body = body;
  };

  router.get('/v1/task', (ctx) => json(ctx, encodeTaskInfos(endpoint.list())));

  router.post('/v1/task/:taskId', async (ctx) => {
    const text = await readBodyText(ctx, MAX_TASK_REQUEST_BYTES);
    json(
      ctx,
      encodeTaskInfo(
        endpoint.update(
          ctx.params.taskId,
          readOrRefuse(() => decodeTaskUpdateRequest(text)),
          summarized(ctx),
        ),
      ),
    );
  });

  router.get('/v1/task/:taskId', async (ctx) => {
    const poll = readOrRefuse(() => readTaskPoll((name) => ctx.get(name)));
    json(ctx, encodeTaskInfo(await endpoint.poll(ctx.params.taskId, poll, summarized(ctx))));
  });

  router.get('/v1/task/:taskId/dynamic-filters', (ctx) => {
    const since = ctx.query.since ?? '0';
    if (typeof since !== 'string' || !/^\d{1,9}$/.test(since))
      throw new HttpError(400, `Invalid since parameter: ${String(since)}`, 'BAD_REQUEST');
    json(ctx, encodeVersionedDomains(endpoint.dynamicFilters(ctx.params.taskId, Number(since))));
  });

  router.delete('/v1/task/:taskId', (ctx) => {
    const abortParam = ctx.query.abort;
    if (abortParam !== undefined && abortParam !== 'true' && abortParam !== 'false')
      throw new HttpError(400, `Invalid abort parameter: ${String(abortParam)}`, 'BAD_REQUEST');
    json(ctx, encodeTaskInfo(endpoint.cancel(ctx.params.taskId, abortParam !== 'false')));
  });

  taskResultsRoutes(router, endpoint.tasks);
}

/** Trino's `summarize` parameter: present (with any value but false) asks for the summarized object. */
function summarized(ctx: Context): boolean {
  const value = ctx.query.summarize;
  return value !== undefined && value !== 'false';
}
