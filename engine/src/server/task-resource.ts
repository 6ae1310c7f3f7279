// Endpoints 4-7, the task resource the coordinator drives:
//   GET    /v1/task             every task this node holds (done ones until their retention ends)
//   POST   /v1/task/{taskId}    creates or updates a task (worker/task-request.ts); 503 when the
//                               node takes no new tasks (not ACTIVE): the scheduler goes elsewhere
//   GET    /v1/task/{taskId}    the task object; with X-Engine-Current-Version and X-Engine-Max-Wait
//                               it waits (long-polls) until the version differs from the one named
//   DELETE /v1/task/{taskId}    aborts the task (?abort=false: cancels it, letting consumers read
//                               what is buffered) and answers its final info
// and endpoints 8-9, its results (task-results-resource.ts).

import type Router from '@koa/router';
import type { Context } from 'koa';
import { parseDuration } from '../config/duration.js';
import { asBadRequest, type TaskEndpoint } from '../worker/task-endpoint.js';
import { parseTaskUpdateRequest } from '../worker/task-request.js';
import { HttpError } from './http-error.js';
import { readBodyText } from './request-body.js';
import { taskResultsRoutes } from './task-results-resource.js';

export const TASK_HEADERS = {
  /** Request: the version the caller has; the answer waits until the task's version differs. */
  currentVersion: 'X-Engine-Current-Version',
  /** Request: the longest wait (a duration: `1s`, `200ms`). */
  maxWait: 'X-Engine-Max-Wait',
} as const;

/** A fragment with many splits is large; still, a bound keeps a bad client from filling memory. */
const MAX_TASK_REQUEST_BYTES = 64 * 1024 * 1024;

export function taskRoutes(router: Router, endpoint: TaskEndpoint): void {
  const json = (ctx: Context, body: string) => {
    ctx.type = 'application/json';
    ctx.body = body;
  };

  router.get('/v1/task', (ctx) => json(ctx, endpoint.list()));

  router.post('/v1/task/:taskId', async (ctx) => {
    const text = await readBodyText(ctx, MAX_TASK_REQUEST_BYTES);
    json(ctx, endpoint.update(ctx.params.taskId, asBadRequest(() => parseTaskUpdateRequest(text))));
  });

  router.get('/v1/task/:taskId', async (ctx) => {
    const versionText = ctx.get(TASK_HEADERS.currentVersion);
    const waitText = ctx.get(TASK_HEADERS.maxWait);
    const version = versionText === '' ? undefined : parseVersion(versionText);
    const maxWait = waitText === '' ? 0 : parseDuration(waitText);
    if (maxWait === undefined) throw new HttpError(400, `Invalid ${TASK_HEADERS.maxWait} header: ${waitText}`, 'BAD_REQUEST');
    json(ctx, await endpoint.poll(ctx.params.taskId, version, maxWait));
  });

  router.delete('/v1/task/:taskId', (ctx) => {
    const abortParam = ctx.query.abort;
    if (abortParam !== undefined && abortParam !== 'true' && abortParam !== 'false') throw new HttpError(400, `Invalid abort parameter: ${String(abortParam)}`, 'BAD_REQUEST');
    json(ctx, endpoint.cancel(ctx.params.taskId, abortParam !== 'false'));
  });

  taskResultsRoutes(router, endpoint.tasks);
}

function parseVersion(text: string): bigint {
  if (!/^\d{1,19}$/.test(text)) throw new HttpError(400, `Invalid ${TASK_HEADERS.currentVersion} header: ${text}`, 'BAD_REQUEST');
  return BigInt(text);
}
