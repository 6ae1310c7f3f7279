// The headers of the task resource (INTERFACE.md endpoints 7 and 8), named once and written and read
// here: the long poll of a task's info, and a page request of its results with the answer's figures.
// In process they are numbers; on the wire the waits are durations (`1000ms`), the sizes data sizes
// (`1048576B`), the version and tokens decimal integers, the flags `true` or `false`.

import { parseDataSize } from '../config/data-size.js';
import { parseDuration } from '../config/duration.js';
import { ProtocolError } from './protocol-error.js';

export const TASK_HEADERS = {
  /** Request: the version the caller has; the answer waits until the task's version differs. */
  currentVersion: 'X-Engine-Current-Version',
  /** Request: the longest wait (a duration: `1s`, `200ms`). */
  maxWait: 'X-Engine-Max-Wait',
  /** Request: the dynamic filters version the caller has seen; the answer carries the domains published after it. */
  dynamicFiltersSince: 'X-Engine-Dynamic-Filters-Since',
} as const;

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

/** A header's value by name; `null` or '' when absent. */
export type HeaderLookup = (name: string) => string | null | undefined;

/** GET /v1/task/{taskId}: wait while the task's version is `version` (when given), at most `maxWaitMillis`. */
export interface TaskPoll {
  version?: bigint;
  maxWaitMillis: number;
  /** The dynamic filters version the caller has seen (given: the answer carries the domains published since). */
  dynamicFiltersSince?: number;
}

/** No wait (0) goes without its header. */
export function taskPollHeaders(poll: TaskPoll): Record<string, string> {
  return {
    ...(poll.maxWaitMillis === 0 ? {} : { [TASK_HEADERS.maxWait]: `${poll.maxWaitMillis}ms` }),
    ...(poll.version === undefined ? {} : { [TASK_HEADERS.currentVersion]: String(poll.version) }),
    ...(poll.dynamicFiltersSince === undefined ? {} : { [TASK_HEADERS.dynamicFiltersSince]: String(poll.dynamicFiltersSince) }),
  };
}

/** Without the headers: no version, no wait. */
export function readTaskPoll(header: HeaderLookup): TaskPoll {
  const versionText = present(header, TASK_HEADERS.currentVersion);
  if (versionText !== undefined && !/^\d{1,19}$/.test(versionText)) throw invalid(TASK_HEADERS.currentVersion, versionText);
  const sinceText = present(header, TASK_HEADERS.dynamicFiltersSince);
  if (sinceText !== undefined && !/^\d{1,9}$/.test(sinceText)) throw invalid(TASK_HEADERS.dynamicFiltersSince, sinceText);
  return {
    ...(versionText === undefined ? {} : { version: BigInt(versionText) }),
    ...(sinceText === undefined ? {} : { dynamicFiltersSince: Number(sinceText) }),
    maxWaitMillis: optional(header, TASK_HEADERS.maxWait, parseDuration, 0),
  };
}

/** GET /v1/task/{taskId}/results/{outputId}/{token}: how long to wait for pages, and how many bytes to answer at most. */
export interface ResultsRequest {
  maxWaitMillis: number;
  maxBytes: number;
}

export function resultsRequestHeaders(request: ResultsRequest): Record<string, string> {
  return { [RESULTS_HEADERS.maxSize]: `${request.maxBytes}B`, [RESULTS_HEADERS.maxWait]: `${request.maxWaitMillis}ms` };
}

/** An absent header takes its value from `defaults`. */
export function readResultsRequest(header: HeaderLookup, defaults: ResultsRequest): ResultsRequest {
  return {
    maxWaitMillis: optional(header, RESULTS_HEADERS.maxWait, parseDuration, defaults.maxWaitMillis),
    maxBytes: optional(header, RESULTS_HEADERS.maxSize, parseDataSize, defaults.maxBytes),
  };
}

/** The figures of an answer of results (its body: the pages from `token` up to `nextToken`). */
export interface ResultsPage {
  taskInstanceId: string;
  token: number;
  nextToken: number;
  complete: boolean;
  taskFailed: boolean;
}

export function resultsPageHeaders(page: ResultsPage): Record<string, string> {
  return {
    [RESULTS_HEADERS.taskInstanceId]: page.taskInstanceId,
    [RESULTS_HEADERS.pageSequenceId]: String(page.token),
    [RESULTS_HEADERS.pageEndSequenceId]: String(page.nextToken),
    [RESULTS_HEADERS.bufferComplete]: String(page.complete),
    [RESULTS_HEADERS.taskFailed]: String(page.taskFailed),
  };
}

/** `from`: the address answered, for the error. */
export function readResultsPage(header: HeaderLookup, from: string): ResultsPage {
  const required = (name: string): string => {
    const value = present(header, name);
    if (value === undefined) throw new ProtocolError(`Expected ${name} header in the response from ${from}`);
    return value;
  };
  const token = (name: string): number => {
    const text = required(name);
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new ProtocolError(`Invalid ${name} header ${text} from ${from}`);
    return value;
  };
  const flag = (name: string): boolean => required(name) === 'true';
  return {
    taskInstanceId: required(RESULTS_HEADERS.taskInstanceId),
    token: token(RESULTS_HEADERS.pageSequenceId),
    nextToken: token(RESULTS_HEADERS.pageEndSequenceId),
    complete: flag(RESULTS_HEADERS.bufferComplete),
    taskFailed: flag(RESULTS_HEADERS.taskFailed),
  };
}

function present(header: HeaderLookup, name: string): string | undefined {
  const value = header(name);
  return value === null || value === undefined || value === '' ? undefined : value;
}

function optional(header: HeaderLookup, name: string, parse: (text: string) => number | undefined, fallback: number): number {
  const text = present(header, name);
  if (text === undefined) return fallback;
  const value = parse(text);
  if (value === undefined) throw invalid(name, text);
  return value;
}

function invalid(name: string, text: string): ProtocolError {
  return new ProtocolError(`Invalid ${name} header: ${text}`);
}
