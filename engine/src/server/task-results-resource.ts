// Endpoints 8 and 9: a task's output pages, read by the tasks (and the coordinator) that consume them.
//   GET    /v1/task/{taskId}/results/{outputId}/{token}  pages from sequence `token` on, as an Arrow IPC
//          stream (200), or 204 when none arrived within the wait; asking for `token` acknowledges
//          every page before it. Headers as Trino's, with our prefix (see RESULTS_HEADERS).
//   DELETE /v1/task/{taskId}/results/{outputId}          the consumer releases its buffer.
// The routes find a task's buffer through TaskOutputLookup, so they do not depend on the task manager.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { parseDataSize } from '../config/data-size.js';
import { parseDuration } from '../config/duration.js';
import { EngineError } from '../errors/engine-error.js';
import { ARROW_STREAM_MEDIA_TYPE, streamChunks } from '../exec/exchange/page-codec.js';
import { exchangeBytes } from '../worker/exchange-counters.js';
import type { OutputBuffer } from '../worker/output-buffer.js';
import { HttpError } from './http-error.js';

export const RESULTS_HEADERS = {
  /** Response: the id of this run of the task; a consumer that sees it change read from a restarted task. */
  taskInstanceId: 'X-Engine-Task-Instance-Id',
  /** Response: the token answered (sequence id of the first page in the body). */
  pageSequenceId: 'X-Engine-Page-Sequence-Id',
  /** Response: the token to ask for next. */
  pageEndSequenceId: 'X-Engine-Page-End-Sequence-Id',
  /** Response: true once no more pages will come and every page was acknowledged. */
  bufferComplete: 'X-Engine-Buffer-Complete',
  /** Response: true when the task failed or was cancelled; its pages will never come. */
  taskFailed: 'X-Engine-Task-Failed',
  /** Request: how long to wait for pages when none are buffered (a duration: `1s`, `200ms`). */
  maxWait: 'X-Engine-Max-Wait',
  /** Request: the most bytes of pages to answer (a data size: `1MB`); at least one page is answered. */
  maxSize: 'X-Engine-Max-Size',
} as const;

/** What the routes need of a task: its output buffer (undefined for a task this node does not hold). */
export interface TaskOutputLookup {
  outputBuffer(taskId: string): OutputBuffer | undefined;
}

export const DEFAULT_RESULTS_MAX_WAIT_MILLIS = 1000;
/** A consumer may not hold a request open longer than this. */
export const MAX_RESULTS_MAX_WAIT_MILLIS = 10_000;
/** Small answers by default: neither side holds its event loop long over one, and they pipeline. */
export const DEFAULT_RESULTS_MAX_BYTES = 1024 * 1024;

export function taskResultsRoutes(router: Router, tasks: TaskOutputLookup): void {
  router.get('/v1/task/:taskId/results/:outputId/:token', async (ctx) => {
    const buffer = bufferOf(tasks, ctx.params.taskId);
    const token = parseToken(ctx.params.token);
    const maxWait = headerValue(ctx, RESULTS_HEADERS.maxWait, parseDuration, DEFAULT_RESULTS_MAX_WAIT_MILLIS);
    const maxBytes = headerValue(ctx, RESULTS_HEADERS.maxSize, parseDataSize, DEFAULT_RESULTS_MAX_BYTES);
    // The long poll ends early when the consumer hangs up.
    const hangUp = new AbortController();
    ctx.res.once('close', () => hangUp.abort());
    const result = await asHttpError(() => buffer.get(ctx.params.outputId, token, maxBytes, Math.min(maxWait, MAX_RESULTS_MAX_WAIT_MILLIS), hangUp.signal));
    ctx.set(RESULTS_HEADERS.taskInstanceId, buffer.instanceId);
    ctx.set(RESULTS_HEADERS.pageSequenceId, String(result.token));
    ctx.set(RESULTS_HEADERS.pageEndSequenceId, String(result.nextToken));
    ctx.set(RESULTS_HEADERS.bufferComplete, String(result.complete));
    ctx.set(RESULTS_HEADERS.taskFailed, String(result.aborted));
    if (result.pages.length === 0) {
      ctx.status = 204;
      return;
    }
    ctx.status = 200;
    ctx.type = ARROW_STREAM_MEDIA_TYPE;
    const body = Buffer.concat(streamChunks(result.pages.map((p) => p.serialized())));
    exchangeBytes.sent += body.byteLength;
    ctx.body = body;
  });

  router.delete('/v1/task/:taskId/results/:outputId', async (ctx) => {
    const buffer = bufferOf(tasks, ctx.params.taskId);
    await asHttpError(() => buffer.destroy(ctx.params.outputId));
    ctx.status = 204;
  });
}

function bufferOf(tasks: TaskOutputLookup, taskId: string): OutputBuffer {
  const buffer = tasks.outputBuffer(taskId);
  if (buffer === undefined) throw new HttpError(404, `Task ${taskId} not found`, 'NOT_FOUND');
  return buffer;
}

function parseToken(text: string): number {
  const token = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(token)) throw new HttpError(400, `Invalid token: ${text}`, 'BAD_REQUEST');
  return token;
}

function headerValue(ctx: Context, name: string, parse: (text: string) => number | undefined, fallback: number): number {
  const text = ctx.get(name);
  if (text === '') return fallback;
  const value = parse(text);
  if (value === undefined) throw new HttpError(400, `Invalid ${name} header: ${text}`, 'BAD_REQUEST');
  return value;
}

/** A buffer's refusal (unknown output buffer, bad token) answered as the client's mistake. */
async function asHttpError<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'NOT_FOUND') throw new HttpError(404, e.message, 'NOT_FOUND');
    if (e instanceof EngineError && e.errorName === 'GENERIC_USER_ERROR') throw new HttpError(400, e.message, 'BAD_REQUEST');
    throw e;
  }
}
