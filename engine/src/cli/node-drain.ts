// `engine node drain`: takes a node out of service without failing its work. ISOLATING (no new
// work; what runs finishes), wait until /v1/status shows it ISOLATED with nothing left, then
// SHUTTING_DOWN, then wait until the process is gone: its port refuses connections and, for the node
// on this host, its process no longer exists. One deadline bounds it all. A pod's preStop hook runs
// it with --until-isolated: it must not return before the work is done, and it leaves the shutdown to
// the SIGTERM the kubelet sends once the hook has returned (a process that exited under its running
// hook would fail the hook).

import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../config/duration.js';
import { describeWorkload, hasActiveWork } from '../internode/node-workload.js';
import { NodeUnreachableError, type NodeClient, type NodeStatus } from '../internode/node-client.js';
import { ClientError } from '../internode/client-error.js';
import { procStat } from './proc-stat.js';

export interface DrainOptions {
  timeoutMillis: number;
  pollMillis: number;
  /** The node runs on this host: wait for its process (by the pid /v1/status reports) to be gone too. */
  local: boolean;
  /**
   * Return once the node is ISOLATED with no work left (or shutting down already), without shutting
   * it down: for a preStop hook, after which the kubelet's SIGTERM shuts the idle node down at once.
   */
  untilIsolated?: boolean;
  /** Progress lines. */
  progress: (line: string) => void;
  /** The reason the drain failed. */
  failure: (line: string) => void;
}

/** How often the process is checked once its port refuses connections (it exits within moments). */
const PROCESS_POLL_MILLIS = 20;

type Observation = NodeStatus | 'gone';

/** Resolves 0 once the node's process is gone; 1 on timeout, when no node answers at all, or when someone moves the node back to ACTIVE. */
export async function drainNode(client: NodeClient, options: DrainOptions): Promise<number> {
  const started = Date.now();
  const deadline = started + options.timeoutMillis;
  const say = (message: string) => options.progress(`[${formatDuration(Date.now() - started)}] ${message}`);
  const fail = (message: string) => {
    options.failure(`engine node drain: ${message}`);
    return 1;
  };
  let lastSaid = '';
  /** Reports a status when it differs from the last one reported. */
  const report = (status: NodeStatus) => {
    const line = `${status.nodeId} is ${status.state}: ${describeWorkload(status.workload)}`;
    if (line !== lastSaid) say(line);
    lastSaid = line;
  };

  let status = await observe(client, deadline);
  // Most likely a wrong address (a preStop hook does not run once its container's process is gone).
  if (status === 'gone') return fail(`nothing listens at ${client.server}: no node to drain`);
  const pid = options.local ? status.pid : undefined;
  report(status);

  // Isolate and wait for the work to end (unless a shutdown is under way already).
  if (status.state !== 'SHUTTING_DOWN' && !(status.state === 'ISOLATED' && !hasActiveWork(status.workload))) {
    say(`moving ${status.nodeId} to ISOLATING: it takes no new work, and what runs finishes`);
    status = await moveTo(client, 'ISOLATING', deadline);
    if (status === 'gone') return processGone(pid, deadline, say, fail);
    report(status);
    while (status.state !== 'SHUTTING_DOWN' && !(status.state === 'ISOLATED' && !hasActiveWork(status.workload))) {
      if (status.state === 'ACTIVE' || status.state === 'INACTIVE') {
        return fail(`${status.nodeId} was moved to ${status.state} by someone else: drain abandoned`);
      }
      if (Date.now() >= deadline) return fail(timedOut(status, options.timeoutMillis));
      await sleep(Math.min(options.pollMillis, Math.max(0, deadline - Date.now())));
      status = await observe(client, deadline);
      if (status === 'gone') return processGone(pid, deadline, say, fail);
      report(status);
    }
  }

  if (options.untilIsolated) {
    say(
      status.state === 'SHUTTING_DOWN'
        ? `${status.nodeId} is SHUTTING_DOWN already: its process exits by itself`
        : `${status.nodeId} is drained: SIGTERM shuts it down`,
    );
    return 0;
  }

  // Shut down and wait for the process to go.
  if (status.state !== 'SHUTTING_DOWN') {
    say(`moving ${status.nodeId} to SHUTTING_DOWN`);
    status = await moveTo(client, 'SHUTTING_DOWN', deadline);
    if (status === 'gone') return processGone(pid, deadline, say, fail);
  }
  say(`${status.nodeId} is SHUTTING_DOWN: waiting for the process to exit`);
  for (;;) {
    if (Date.now() >= deadline) return fail(timedOut(status, options.timeoutMillis));
    await sleep(Math.min(options.pollMillis, Math.max(0, deadline - Date.now())));
    const next = await observe(client, deadline);
    if (next === 'gone') return processGone(pid, deadline, say, fail);
    status = next;
    report(status);
  }
}

/** PUTs the state; a refusal because the node is shutting down already is no failure of the drain. */
async function moveTo(client: NodeClient, target: string, deadline: number): Promise<Observation> {
  try {
    await client.setState(target);
  } catch (e) {
    if (e instanceof NodeUnreachableError && e.refused) return 'gone';
    if (!(e instanceof ClientError)) throw e;
    const now = await observe(client, deadline);
    if (now === 'gone' || now.state === 'SHUTTING_DOWN') return now;
    throw e;
  }
  return observe(client, deadline);
}

/** The node's status, or 'gone' once its port refuses connections; other failures are retried until the deadline. */
async function observe(client: NodeClient, deadline: number): Promise<Observation> {
  for (;;) {
    try {
      return await client.status();
    } catch (e) {
      if (!(e instanceof NodeUnreachableError)) throw e;
      if (e.refused) return 'gone';
      // A connection reset while the node closes, or a slow answer: try again while there is time.
      if (Date.now() >= deadline) throw e;
      await sleep(Math.min(200, Math.max(0, deadline - Date.now())));
    }
  }
}

/** The port refuses connections; on this host, also waits for the process itself. */
async function processGone(
  pid: number | undefined,
  deadline: number,
  say: (message: string) => void,
  fail: (message: string) => number,
): Promise<number> {
  while (pid !== undefined && processExists(pid)) {
    if (Date.now() >= deadline) return fail(`timed out: the node's port is closed but its process ${pid} still runs`);
    await sleep(PROCESS_POLL_MILLIS);
  }
  say(pid === undefined ? 'the node is gone (its port refuses connections)' : `the node is gone (process ${pid} exited)`);
  return 0;
}

function timedOut(status: NodeStatus, timeoutMillis: number): string {
  return `timed out after ${formatDuration(timeoutMillis)}: ${status.nodeId} is still ${status.state} with ${describeWorkload(status.workload)}`;
}

/** Whether the process exists and has not exited (an exited child its parent has not reaped yet is a zombie: gone). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!existsSync('/proc/self/stat')) return true;
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}
