// Endpoints 8 and 9: a task's output pages, read by the tasks (and the coordinator) that consume them.
//   GET    /v1/task/{taskId}/results/{outputId}/{token}  pages from sequence `token` on, as an Arrow IPC
//          stream (200), or 204 when none arrived within the wait; asking for `token` acknowledges
//          every page before it. Headers as Trino's, with our prefix (internode/task-headers.ts).
//   DELETE /v1/task/{taskId}/results/{outputId}          the consumer releases its buffer.
// The routes find a task's buffer through TaskOutputLookup, so they do not depend on the task manager.

import type Router from '@koa/router';
import { EngineError } from '../errors/engine-error.js';
import { ARROW_STREAM_MEDIA_TYPE, streamChunks, type SerializedPage } from '../exec/exchange/page-codec.js';
import { yieldIfDue } from '../columnar/cooperative.js';
import type { OutputPage } from '../worker/output-page.js';
import { readResultsRequest, resultsPageHeaders } from '../internode/task-headers.js';
import { exchangeBytes } from '../worker/exchange-counters.js';
import type { OutputBuffer } from '../worker/output-buffer.js';
import { HttpError } from '../errors/http-error.js';
import { readOrRefuse } from './http-middleware.js';

/** What the routes need of a task: its output buffer (undefined for a task this node does not hold). */
export interface TaskOutputLookup {
  outputBuffer(taskId: string): OutputBuffer | undefined;
  /** The same, waiting up to `maxWaitMillis` for a task not created yet (task-manager.ts). */
  awaitOutputBuffer(taskId: string, maxWaitMillis: number, signal: AbortSignal): Promise<OutputBuffer | undefined>;
}

export const DEFAULT_RESULTS_MAX_WAIT_MILLIS = 1000;
/** A consumer may not hold a request open longer than this. */
export const MAX_RESULTS_MAX_WAIT_MILLIS = 10_000;
/** Small answers by default: neither side holds its event loop long over one, and they pipeline. */
export const DEFAULT_RESULTS_MAX_BYTES = 1024 * 1024;

export function taskResultsRoutes(router: Router, tasks: TaskOutputLookup): void {
  router.get('/v1/task/:taskId/results/:outputId/:token', async (ctx) => {
    const token = parseToken(ctx.params.token);
    const defaults = { maxWaitMillis: DEFAULT_RESULTS_MAX_WAIT_MILLIS, maxBytes: DEFAULT_RESULTS_MAX_BYTES };
    const { maxWaitMillis, maxBytes } = readOrRefuse(() => readResultsRequest((name) => ctx.get(name), defaults));
    const wait = Math.min(maxWaitMillis, MAX_RESULTS_MAX_WAIT_MILLIS);
    // The long poll ends early when the consumer hangs up.
    const hangUp = new AbortController();
    ctx.res.once('close', () => hangUp.abort());
    const asked = Date.now();
    const buffer = await tasks.awaitOutputBuffer(ctx.params.taskId, wait, hangUp.signal);
    if (buffer === undefined) throw new HttpError(404, `Task ${ctx.params.taskId} not found`, 'NOT_FOUND');
    // The wait for the task's creation counts in the consumer's wait.
    const remaining = Math.max(0, wait - (Date.now() - asked));
    const result = await asHttpError(() => buffer.get(ctx.params.outputId, token, maxBytes, remaining, hangUp.signal, true));
    ctx.set(
      resultsPageHeaders({
        taskInstanceId: buffer.instanceId,
        token: result.token,
        nextToken: result.nextToken,
        complete: result.complete,
        taskFailed: result.aborted,
      }),
    );
    if (result.pages.length === 0) {
      ctx.status = 204;
      return;
    }
    ctx.status = 200;
    ctx.type = ARROW_STREAM_MEDIA_TYPE;
    const body = Buffer.concat(streamChunks(await serializedInTurns(result.pages)));
    exchangeBytes.sent += body.byteLength;
    ctx.body = body;
  });

  router.delete('/v1/task/:taskId/results/:outputId', async (ctx) => {
    const buffer = bufferOf(tasks, ctx.params.taskId);
    await asHttpError(() => buffer.destroy(ctx.params.outputId));
    ctx.status = 204;
  });
}

/** The pages serialized one by one, giving the event loop a turn between them when one is due (a 1 MB answer held it 40+ ms). */
async function serializedInTurns(pages: readonly OutputPage[]): Promise<SerializedPage[]> {
  const serialized: SerializedPage[] = [];
  for (const page of pages) {
    serialized.push(page.serialized());
    await yieldIfDue();
  }
  return serialized;
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
