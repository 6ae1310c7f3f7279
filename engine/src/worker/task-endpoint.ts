// What the task resource answers, without the HTTP around it: the routes (server/task-resource.ts)
// and a coordinator's handle on a task of its own node (coordinator/scheduler/task-channel.ts) both
// go through it, so a task on this node is driven exactly as one on another node. It answers task
// infos as values; the routes write them out (internode/task-info-codec.ts), a task here needs not.

import { EngineError } from '../errors/engine-error.js';
import type { VersionedDynamicFilterDomains } from '../internode/dynamic-filter-domains.js';
import { isDoneState, type TaskInfo } from '../internode/task-info.js';
import type { TaskPoll } from '../internode/task-headers.js';
import type { TaskUpdateRequest } from '../internode/task-update-request.js';
import { HttpError } from '../errors/http-error.js';
import type { SqlTask } from './sql-task.js';
import { taskInfo } from './task-info.js';
import type { TaskManager } from './task-manager.js';

/** A caller may not hold a task's info request open longer than this. */
export const MAX_TASK_WAIT_MILLIS = 10_000;

export class TaskEndpoint {
  constructor(
    readonly tasks: TaskManager,
    /** This node; its address is known once the server listens. */
    private readonly node: { readonly nodeId: string; readonly internalUri: string },
  ) {}

  get nodeId(): string {
    return this.node.nodeId;
  }

  /** GET /v1/task. */
  list(): TaskInfo[] {
    return this.tasks.list().map((t) => this.info(t));
  }

  /**
   * POST /v1/task/{taskId}: the task's info (`summarize`: without its pipelines while it runs); 400
   * for a malformed id or request, 503 when the node takes no new tasks.
   */
  update(taskId: string, request: TaskUpdateRequest, summarize = false): TaskInfo {
    return asBadRequest(() => this.answer(this.tasks.update(taskId, request), summarize));
  }

  /**
   * GET /v1/task/{taskId}: waits up to `maxWaitMillis` until the task's version differs from `version`;
   * with `dynamicFiltersSince`, the info carries the domains the task published after that many.
   */
  async poll(taskId: string, poll: TaskPoll, summarize = false): Promise<TaskInfo> {
    const task = this.find(taskId);
    await task.waitForChange(poll.version, Math.min(poll.maxWaitMillis, MAX_TASK_WAIT_MILLIS));
    const info = this.answer(task, summarize);
    const domains = poll.dynamicFiltersSince === undefined ? undefined : this.dynamicFilters(taskId, poll.dynamicFiltersSince);
    return domains === undefined || domains.domains.length === 0 ? info : { ...info, dynamicFilterDomains: domains };
  }

  /** GET /v1/task/{taskId}/dynamic-filters?since=N: the remote filters' domains the task published after the first `since`. */
  dynamicFilters(taskId: string, since: number): VersionedDynamicFilterDomains {
    const published = this.find(taskId).dynamicFilters.publishedDomains();
    return { version: published.length, domains: published.slice(since) };
  }

  /** DELETE /v1/task/{taskId}: abort (or cancel, letting consumers read what is buffered); the final info. */
  cancel(taskId: string, abort: boolean): TaskInfo {
    const task = this.find(taskId);
    task.cancel(abort);
    return this.answer(task);
  }

  /** The info answered to the coordinator: once it carries a final state, the node need not wait for it to be read. */
  private answer(task: SqlTask, summarize = false): TaskInfo {
    if (isDoneState(task.state)) task.finalInfoSent = true;
    return this.info(task, summarize);
  }

  private info(task: SqlTask, summarize = false): TaskInfo {
    return taskInfo(task, `${this.node.internalUri}/v1/task/${task.taskId}`, this.node.nodeId, summarize);
  }

  private find(taskId: string): SqlTask {
    const task = this.tasks.get(taskId);
    if (task === undefined) throw new HttpError(404, `Task ${taskId} not found`, 'NOT_FOUND');
    return task;
  }
}

/** Runs `action`; a GENERIC_USER_ERROR from it (a malformed task id or request) is the caller's mistake: 400. */
export function asBadRequest<T>(action: () => T): T {
  try {
    return action();
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'GENERIC_USER_ERROR') throw new HttpError(400, e.message, 'BAD_REQUEST');
    throw e;
  }
}
