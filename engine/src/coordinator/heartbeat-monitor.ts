// The coordinator's failure detector: every heartbeat interval it checks each known node with
// GET /v1/status (a short timeout), records the outcome on the node's counters, reads the node's
// state (ACTIVE, ISOLATING, ...), and forgets the nodes that stopped announcing themselves. A node
// whose checks keep failing and that answers nothing else either (see isSilent) is declared gone: the
// queries whose tasks it holds fail at once, rather than wait for their requests to it to time out.
// The checks are spread over the interval: each node has its slice of it, so that many nodes do not
// send their answers into one turn of the event loop (at 200 nodes that held it 50-280 ms a second).

import { Agent } from 'node:http';
import { formatDuration } from '../config/duration.js';
import type { Logger } from '../log/logger.js';
import type { NodeManager } from './node-manager.js';
import { failureInfo, type FailureInfo, type RemoteNode } from './remote-node.js';
import { getSmallJson } from './small-json-get.js';

/** The heartbeat interval is cut into this many slices; a node is checked in its own one. */
export const HEARTBEAT_SLICES = 10;

/**
 * A node is gone once this many checks in a row failed and it answered nothing — no check, no request
 * of one of its tasks — for this many heartbeat intervals: a slow answer (a pause, a loaded machine
 * that still answers its tasks) fails no query.
 */
export const GONE_AFTER_CHECKS = 2;
export const GONE_AFTER_INTERVALS = 3;

export interface HeartbeatSettings {
  intervalMillis: number;
  timeoutMillis: number;
  maxAnnouncementAgeMillis: number;
}

export class HeartbeatMonitor {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<RemoteNode>();
  /** The slice each node is checked in, given round robin as nodes are first seen. */
  private readonly slices = new WeakMap<RemoteNode, number>();
  private nextSlice = 0;
  private currentSlice = 0;
  /** Connections to the nodes stay open between checks. */
  private readonly agent = new Agent({ keepAlive: true });

  constructor(
    private readonly nodes: NodeManager,
    private readonly settings: HeartbeatSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), Math.max(1, this.settings.intervalMillis / HEARTBEAT_SLICES));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.agent.destroy();
  }

  private tick(): void {
    for (const node of this.nodes.removeExpired(this.settings.maxAnnouncementAgeMillis)) {
      // Forgotten, it is checked no more: if it is silent now, it is gone.
      if (node.failedLastCheck && this.isSilent(node, 1)) this.declareGone(node, 'stopped announcing itself, failed its health checks and answered nothing');
      else this.logger.info({ node: node.nodeId, uri: node.uri }, 'node forgotten: it stopped announcing');
    }
    const slice = this.currentSlice;
    this.currentSlice = (slice + 1) % HEARTBEAT_SLICES;
    for (const node of this.nodes.all()) if (this.sliceOf(node) === slice) void this.check(node);
  }

  private sliceOf(node: RemoteNode): number {
    let slice = this.slices.get(node);
    if (slice === undefined) {
      slice = this.nextSlice;
      this.nextSlice = (slice + 1) % HEARTBEAT_SLICES;
      this.slices.set(node, slice);
    }
    return slice;
  }

  /** One health check; a check still waiting for its answer is not doubled. */
  async check(node: RemoteNode): Promise<void> {
    if (this.inFlight.has(node)) return;
    this.inFlight.add(node);
    const wasFailed = node.failedLastCheck;
    const previousState = node.state;
    node.requestStarted();
    try {
      node.checked(await this.readState(node));
      node.requestSucceeded();
      if (wasFailed) this.logger.info({ node: node.nodeId, uri: node.uri }, 'node answers its health check again');
      if (previousState !== undefined && previousState !== node.state) this.logger.info({ node: node.nodeId, from: previousState, to: node.state }, 'node state changed');
    } catch (e) {
      const failure = heartbeatFailure(e);
      node.requestFailed(failure);
      if (!wasFailed) this.logger.warn({ node: node.nodeId, uri: node.uri, failure: failure.type, message: failure.message }, 'node failed its health check');
      if (this.isSilent(node, GONE_AFTER_CHECKS)) this.declareGone(node, 'failed its health checks and answered nothing');
    } finally {
      this.inFlight.delete(node);
    }
  }

  /** Whether `node`, not declared gone yet, failed its last `checks` health checks and answered nothing for GONE_AFTER_INTERVALS intervals. */
  private isSilent(node: RemoteNode, checks: number): boolean {
    return !node.gone.aborted && node.failedChecksInARow >= checks && node.silentMillis >= GONE_AFTER_INTERVALS * this.settings.intervalMillis;
  }

  private declareGone(node: RemoteNode, what: string): void {
    const silentFor = formatDuration(node.silentMillis);
    node.declareGone(`${what} for ${silentFor}`);
    this.logger.warn({ node: node.nodeId, uri: node.uri, silentFor, failedChecks: node.failedChecksInARow }, `node gone: it ${what}; the tasks it holds fail`);
  }

  private async readState(node: RemoteNode): Promise<string> {
    const response = await getSmallJson(`${node.uri}/v1/status`, this.agent, this.settings.timeoutMillis);
    if (response.status < 200 || response.status > 299) throw new HeartbeatError('UNEXPECTED_RESPONSE', `GET ${node.uri}/v1/status answered ${response.status}`);
    const status = (response.body ?? {}) as { nodeId?: unknown; state?: unknown };
    if (status.nodeId !== node.nodeId) {
      throw new HeartbeatError('WRONG_NODE', `${node.uri} is node ${JSON.stringify(status.nodeId)}, expected '${node.nodeId}'`);
    }
    if (typeof status.state !== 'string') throw new HeartbeatError('UNEXPECTED_RESPONSE', `GET ${node.uri}/v1/status has no state`);
    return status.state;
  }
}

class HeartbeatError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** The failure of a check, typed by what went wrong: a timeout, a socket error code, or the answer. */
export function heartbeatFailure(error: unknown): FailureInfo {
  const info = failureInfo(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { ...info, type: code } : info;
}
