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
import { EngineError } from '../errors/engine-error.js';
import { isDoneState, type SqlTask } from '../worker/sql-task.js';
import { taskInfo } from '../worker/task-info.js';
import type { TaskManager } from '../worker/task-manager.js';
import { parseTaskUpdateRequest } from '../worker/task-request.js';
import { stringifyWithBigints } from './bigint-json.js';
import { HttpError } from './http-error.js';
import { readBodyText } from './request-body.js';
import type { ServerContext } from './server-context.js';
import { taskResultsRoutes } from './task-results-resource.js';

export const TASK_HEADERS = {
  /** Request: the version the caller has; the answer waits until the task's version differs. */
  currentVersion: 'X-Engine-Current-Version',
  /** Request: the longest wait (a duration: `1s`, `200ms`). */
  maxWait: 'X-Engine-Max-Wait',
} as const;

/** A fragment with many splits is large; still, a bound keeps a bad client from filling memory. */
const MAX_TASK_REQUEST_BYTES = 64 * 1024 * 1024;
const MAX_TASK_WAIT_MILLIS = 10_000;

export function taskRoutes(router: Router, server: ServerContext, tasks: TaskManager): void {
  const answer = (ctx: Context, task: SqlTask) => {
    if (isDoneState(task.state)) task.finalInfoSent = true;
    ctx.type = 'application/json';
    ctx.body = stringifyWithBigints(taskInfo(task, `${server.node.internalUri}/v1/task/${task.taskId}`, server.node.nodeId));
  };
  const find = (taskId: string) => {
    const task = tasks.get(taskId);
    if (task === undefined) throw new HttpError(404, `Task ${taskId} not found`, 'NOT_FOUND');
    return task;
  };

  router.get('/v1/task', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = stringifyWithBigints(tasks.list().map((t) => taskInfo(t, `${server.node.internalUri}/v1/task/${t.taskId}`, server.node.nodeId)));
  });

  router.post('/v1/task/:taskId', async (ctx) => {
    const text = await readBodyText(ctx, MAX_TASK_REQUEST_BYTES);
    try {
      answer(ctx, tasks.update(ctx.params.taskId, parseTaskUpdateRequest(text)));
    } catch (e) {
      if (e instanceof EngineError && e.errorName === 'GENERIC_USER_ERROR') throw new HttpError(400, e.message, 'BAD_REQUEST');
      throw e;
    }
  });

  router.get('/v1/task/:taskId', async (ctx) => {
    const task = find(ctx.params.taskId);
    const versionText = ctx.get(TASK_HEADERS.currentVersion);
    const waitText = ctx.get(TASK_HEADERS.maxWait);
    const version = versionText === '' ? undefined : parseVersion(versionText);
    const maxWait = waitText === '' ? 0 : parseDuration(waitText);
    if (maxWait === undefined) throw new HttpError(400, `Invalid ${TASK_HEADERS.maxWait} header: ${waitText}`, 'BAD_REQUEST');
    await task.waitForChange(version, Math.min(maxWait, MAX_TASK_WAIT_MILLIS));
    answer(ctx, task);
  });

  router.delete('/v1/task/:taskId', (ctx) => {
    const abortParam = ctx.query.abort;
    if (abortParam !== undefined && abortParam !== 'true' && abortParam !== 'false') throw new HttpError(400, `Invalid abort parameter: ${String(abortParam)}`, 'BAD_REQUEST');
    const task = find(ctx.params.taskId);
    task.cancel(abortParam !== 'false');
    answer(ctx, task);
  });

  taskResultsRoutes(router, tasks);
}

function parseVersion(text: string): bigint {
  if (!/^\d{1,19}$/.test(text)) throw new HttpError(400, `Invalid ${TASK_HEADERS.currentVersion} header: ${text}`, 'BAD_REQUEST');
  return BigInt(text);
}
