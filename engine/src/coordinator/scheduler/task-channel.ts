// How the coordinator's handle on a task (remote-task.ts) reaches it: over HTTP for a task on another
// node, or in process for a task on this node — the same requests and the same answers (a status and
// the task's info, or an error message) either way, so one RemoteTask drives both and a single node
// runs its fragments exactly as a cluster does. Only the HTTP channel writes and reads the wire
// (internode/): a task here answers its info as a value, with its figures as numbers. Creations,
// updates and polls ask for the summarized info (Trino's `?summarize`: a running task's without its
// pipelines), which is all the coordinator reads of a running task; a done task's info is whole, and
// so is the answer to a cancel, so the query's last look at each task has its operators.

import type { Dispatcher } from 'undici';
import { EngineError } from '../../errors/engine-error.js';
import {
  decodeVersionedDomains,
  encodeVersionedDomains,
  type VersionedDynamicFilterDomains,
} from '../../internode/dynamic-filter-domains.js';
import { httpRequest } from '../../internode/http-request.js';
import { ProtocolError } from '../../internode/protocol-error.js';
import { taskPollHeaders, type TaskPoll } from '../../internode/task-headers.js';
import type { TaskInfo } from '../../internode/task-info.js';
import { decodeTaskInfo } from '../../internode/task-info-codec.js';
import { decodeTaskUpdateRequest, encodeTaskUpdateRequest, type TaskUpdateRequest } from '../../internode/task-update-request.js';
import { statusOf } from '../../errors/http-error.js';
import type { TaskEndpoint } from '../../worker/task-endpoint.js';

/** The task's info (200), or what the node said instead. */
export type TaskAnswer = { status: 200; info: TaskInfo } | { status: number; info?: undefined; message: string };

export interface TaskChannel {
  /** POST /v1/task/{taskId}?summarize. */
  update(taskId: string, request: TaskUpdateRequest, signal: AbortSignal): Promise<TaskAnswer>;
  /** GET /v1/task/{taskId}?summarize, long-polling while the version is `poll.version` (when given) for at most `poll.maxWaitMillis`. */
  info(taskId: string, poll: TaskPoll, signal: AbortSignal): Promise<TaskAnswer>;
  /** DELETE /v1/task/{taskId}?abort=... */
  cancel(taskId: string, abort: boolean, signal: AbortSignal): Promise<TaskAnswer>;
  /** GET /v1/task/{taskId}/dynamic-filters?since=N: the remote filters' domains the task published after its first `since`. */
  dynamicFilters(taskId: string, since: number, signal: AbortSignal): Promise<VersionedDynamicFilterDomains>;
}

export type InternalHeaders = () => Record<string, string>;

/** A task on another node, through its task resource. */
export function httpTaskChannel(nodeUri: string, headers: InternalHeaders): TaskChannel {
  const ask = async (
    method: Dispatcher.HttpMethod,
    path: string,
    signal: AbortSignal,
    init: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<TaskAnswer> => {
    const uri = `${nodeUri}/v1/task/${path}`;
    const response = await httpRequest(uri, { method, headers: { ...headers(), ...init.headers }, body: init.body, signal });
    const text = await response.text();
    if (response.status !== 200) return { status: response.status, message: errorMessage(text) };
    try {
      return { status: 200, info: decodeTaskInfo(text) };
    } catch (e) {
      if (e instanceof ProtocolError) throw new EngineError('REMOTE_TASK_ERROR', `${method} ${uri}: ${e.message}`);
      throw e;
    }
  };
  return {
    update: (taskId, update, signal) =>
      ask('POST', `${taskId}?summarize`, signal, {
        body: encodeTaskUpdateRequest(update),
        headers: { 'Content-Type': 'application/json' },
      }),
    info: (taskId, poll, signal) => ask('GET', `${taskId}?summarize`, signal, { headers: taskPollHeaders(poll) }),
    cancel: (taskId, abort, signal) => ask('DELETE', `${taskId}?abort=${abort}`, signal),
    dynamicFilters: async (taskId, since, signal) => {
      const uri = `${nodeUri}/v1/task/${taskId}/dynamic-filters?since=${since}`;
      const response = await httpRequest(uri, { method: 'GET', headers: headers(), signal });
      const text = await response.text();
      if (response.status !== 200) throw new EngineError('REMOTE_TASK_ERROR', `GET ${uri}: ${response.status} ${errorMessage(text)}`);
      try {
        return decodeVersionedDomains(text);
      } catch (e) {
        if (e instanceof ProtocolError) throw new EngineError('REMOTE_TASK_ERROR', `GET ${uri}: ${e.message}`);
        throw e;
      }
    },
  };
}

/**
 * A task on this node, through the same endpoint the routes use. The update goes through the JSON
 * it would be sent as, so that a task here gets exactly what a task on another node would.
 */
export function localTaskChannel(endpoint: TaskEndpoint): TaskChannel {
  const answer = async (action: () => TaskInfo | Promise<TaskInfo>): Promise<TaskAnswer> => {
    try {
      return { status: 200, info: await action() };
    } catch (e) {
      return { status: e instanceof ProtocolError ? 400 : statusOf(e), message: e instanceof Error ? e.message : String(e) };
    }
  };
  return {
    update: (taskId, update) => answer(() => endpoint.update(taskId, decodeTaskUpdateRequest(encodeTaskUpdateRequest(update)), true)),
    info: (taskId, poll) => answer(() => endpoint.poll(taskId, poll, true)),
    cancel: (taskId, abort) => answer(() => endpoint.cancel(taskId, abort)),
    // Through the JSON a node would send, so that a task here gets exactly what one on another node would.
    dynamicFilters: async (taskId, since) => decodeVersionedDomains(encodeVersionedDomains(endpoint.dynamicFilters(taskId, since))),
  };
}

/** The message of an error answer (the engine's error body), or the start of whatever else came. */
function errorMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.slice(0, 500);
  } catch {
    return text.slice(0, 500);
  }
}
