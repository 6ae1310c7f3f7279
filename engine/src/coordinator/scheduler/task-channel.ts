// How the coordinator's handle on a task (remote-task.ts) reaches it: over HTTP for a task on another
// node, or in process for a task on this node — the same requests and the same answers (status and
// JSON text) either way, so one RemoteTask drives both and a single node runs its fragments exactly as
// a cluster does, without serializing anything to itself.

import { parseDuration } from '../../config/duration.js';
import { HttpError, errorBody, errorNameForStatus, statusOf } from '../../server/http-error.js';
import { TASK_HEADERS } from '../../server/task-resource.js';
import { toTaggedJson } from '../../sql/planner/plan-json.js';
import type { TaskEndpoint } from '../../worker/task-endpoint.js';
import { parseTaskUpdateRequest, type TaskUpdateRequest } from '../../worker/task-request.js';

export interface TaskAnswer {
  status: number;
  text: string;
}

export interface TaskChannel {
  /** POST /v1/task/{taskId}. */
  update(taskId: string, request: TaskUpdateRequest, signal: AbortSignal): Promise<TaskAnswer>;
  /** GET /v1/task/{taskId}, long-polling while the version is `version` (when given) for at most `maxWait`. */
  info(taskId: string, wait: { version: string; maxWait: string } | { version?: undefined; maxWait?: string }, signal: AbortSignal): Promise<TaskAnswer>;
  /** DELETE /v1/task/{taskId}?abort=... */
  cancel(taskId: string, abort: boolean, signal: AbortSignal): Promise<TaskAnswer>;
}

export type InternalHeaders = () => Record<string, string>;

/** A task on another node, through its task resource. */
export function httpTaskChannel(nodeUri: string, headers: InternalHeaders): TaskChannel {
  const request = async (method: string, path: string, signal: AbortSignal, init: { body?: string; headers?: Record<string, string> } = {}): Promise<TaskAnswer> => {
    const response = await fetch(`${nodeUri}/v1/task/${path}`, { method, body: init.body, headers: { ...headers(), ...init.headers }, signal });
    return { status: response.status, text: await response.text() };
  };
  return {
    update: (taskId, update, signal) => request('POST', taskId, signal, { body: toTaggedJson(update), headers: { 'Content-Type': 'application/json' } }),
    info: (taskId, wait, signal) => {
      const waitHeaders: Record<string, string> = {};
      if (wait.maxWait !== undefined) waitHeaders[TASK_HEADERS.maxWait] = wait.maxWait;
      if (wait.version !== undefined) waitHeaders[TASK_HEADERS.currentVersion] = wait.version;
      return request('GET', taskId, signal, { headers: waitHeaders });
    },
    cancel: (taskId, abort, signal) => request('DELETE', `${taskId}?abort=${abort}`, signal),
  };
}

/**
 * A task on this node, through the same endpoint the routes use. The update goes through the JSON
 * it would be sent as, so that a task here gets exactly what a task on another node would.
 */
export function localTaskChannel(endpoint: TaskEndpoint): TaskChannel {
  const answer = async (action: () => string | Promise<string>): Promise<TaskAnswer> => {
    try {
      return { status: 200, text: await action() };
    } catch (e) {
      const status = statusOf(e);
      const name = e instanceof HttpError && e.errorName ? e.errorName : errorNameForStatus(status);
      return { status, text: JSON.stringify(errorBody(e instanceof Error ? e.message : String(e), name)) };
    }
  };
  return {
    update: (taskId, update) => answer(() => endpoint.update(taskId, parseTaskUpdateRequest(toTaggedJson(update)))),
    info: (taskId, wait) => answer(() => endpoint.poll(taskId, wait.version === undefined ? undefined : BigInt(wait.version), wait.maxWait === undefined ? 0 : parseWait(wait.maxWait))),
    cancel: (taskId, abort) => answer(() => endpoint.cancel(taskId, abort)),
  };
}

function parseWait(text: string): number {
  const millis = parseDuration(text);
  if (millis === undefined) throw new HttpError(400, `Invalid ${TASK_HEADERS.maxWait} header: ${text}`, 'BAD_REQUEST');
  return millis;
}
