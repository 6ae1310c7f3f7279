// The coordinator's failure detector: every heartbeat interval it checks each known node with
// GET /v1/status (a short timeout), records the outcome on the node's counters, reads the node's
// state (ACTIVE, ISOLATING, ...), and forgets the nodes that stopped announcing themselves. A node
// whose checks keep failing and that answers nothing else either (see goneReason) is declared gone: the
// queries whose tasks it holds fail then, rather than wait for their requests to it to time out. A
// node forgotten while its checks fail (a stopped node stops announcing too) is still checked, unlisted,
// until it answers or is declared gone. The checks are spread over the interval: each node has its
// slice of it, so that many nodes do not send their answers into one turn of the event loop (at 200
// nodes that held it 50-280 ms a second).

import { InternalAgents } from '../security/authentication/internal-tls.js';
import { formatDuration } from '../config/duration.js';
import { readNodeStatus, type NodeStatus } from '../internode/node-status.js';
import { ProtocolError } from '../internode/protocol-error.js';
import type { Logger } from '../log/logger.js';
import type { NodeManager } from './node-manager.js';
import { failureInfo, type FailureInfo, type RemoteNode } from './remote-node.js';
import { getSmallJson } from '../internode/small-request.js';

/** The heartbeat interval is cut into this many slices; a node is checked in its own one. */
export const HEARTBEAT_SLICES = 10;

/**
 * A node is gone once this many checks in a row failed and it answered nothing — no check, no request
 * of one of its tasks — for GONE_AFTER_SILENCE_MILLIS, or three heartbeat intervals if longer; or for
 * three intervals if its port refuses connections (its process is gone). A node that answers its
 * tasks is alive, however its checks fare, and a node that holds its event loop for a few seconds (a
 * worker starting a scan of tpch.sf100000 does for 3.5 s) fails no query.
 */
export const GONE_AFTER_CHECKS = 2;
export const GONE_AFTER_SILENCE_MILLIS = 10_000;
const GONE_AFTER_INTERVALS = 3;

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
  /** Nodes forgotten while their checks failed: still checked, unlisted, until they answer or are declared gone. */
  private readonly forgottenFailing = new Set<RemoteNode>();
  /** How long a node failing its checks must have answered nothing to be declared gone; one that refuses connections. */
  private readonly goneAfterSilenceMillis: number;
  private readonly goneAfterRefusalsMillis: number;
  /** Connections to the nodes stay open between checks. */
  private readonly agents = new InternalAgents();

  constructor(
    private readonly nodes: NodeManager,
    private readonly settings: HeartbeatSettings,
    private readonly logger: Logger,
  ) {
    this.goneAfterSilenceMillis = Math.max(GONE_AFTER_SILENCE_MILLIS, GONE_AFTER_INTERVALS * settings.intervalMillis);
    this.goneAfterRefusalsMillis = GONE_AFTER_INTERVALS * settings.intervalMillis;
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), Math.max(1, this.settings.intervalMillis / HEARTBEAT_SLICES));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.forgottenFailing.clear();
    this.agents.destroy();
  }

  private tick(): void {
    for (const node of this.nodes.removeExpired(this.settings.maxAnnouncementAgeMillis)) {
      this.logger.info({ node: node.nodeId, uri: node.uri }, 'node forgotten: it stopped announcing');
      if (node.failedLastCheck && !node.gone.aborted) this.forgottenFailing.add(node);
    }
    const slice = this.currentSlice;
    this.currentSlice = (slice + 1) % HEARTBEAT_SLICES;
    for (const node of [...this.nodes.all(), ...this.forgottenFailing]) if (this.sliceOf(node) === slice) void this.check(node);
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
      const status = await this.readStatus(node);
      node.checked(status.state, status);
      node.requestSucceeded();
      this.forgottenFailing.delete(node);
      if (wasFailed) this.logger.info({ node: node.nodeId, uri: node.uri }, 'node answers its health check again');
      if (previousState !== undefined && previousState !== node.state)
        this.logger.info({ node: node.nodeId, from: previousState, to: node.state }, 'node state changed');
    } catch (e) {
      const failure = heartbeatFailure(e);
      node.requestFailed(failure);
      if (!wasFailed)
        this.logger.warn(
          { node: node.nodeId, uri: node.uri, failure: failure.type, message: failure.message },
          'node failed its health check',
        );
      const gone = this.goneReason(node);
      if (gone !== undefined) this.declareGone(node, gone);
    } finally {
      this.inFlight.delete(node);
    }
  }

  /** Why `node`, not declared gone yet, is gone, if it is now (see GONE_AFTER_CHECKS). */
  private goneReason(node: RemoteNode): string | undefined {
    if (node.gone.aborted || node.failedChecksInARow < GONE_AFTER_CHECKS) return undefined;
    const silentFor = formatDuration(node.silentMillis);
    if (node.lastFailureType === 'ECONNREFUSED' && node.silentMillis >= this.goneAfterRefusalsMillis)
      return `refuses connections (its process is gone) and answered nothing for ${silentFor}`;
    if (node.silentMillis >= this.goneAfterSilenceMillis) return `failed its health checks and answered nothing for ${silentFor}`;
    return undefined;
  }

  private declareGone(node: RemoteNode, why: string): void {
    node.declareGone(why);
    this.forgottenFailing.delete(node);
    this.logger.warn(
      { node: node.nodeId, uri: node.uri, why, failedChecks: node.failedChecksInARow },
      'node gone: the queries whose tasks it holds fail',
    );
  }

  /** The node's /v1/status, checked to be that node's and to name its state. */
  private async readStatus(node: RemoteNode): Promise<NodeStatus & Record<string, unknown>> {
    const response = await getSmallJson(`${node.uri}/v1/status`, this.agents.for(node.uri), this.settings.timeoutMillis);
    if (response.status < 200 || response.status > 299)
      throw new HeartbeatError('UNEXPECTED_RESPONSE', `GET ${node.uri}/v1/status answered ${response.status}`);
    let status: NodeStatus & Record<string, unknown>;
    try {
      status = readNodeStatus(response.body, node.uri);
    } catch (e) {
      if (e instanceof ProtocolError) throw new HeartbeatError('UNEXPECTED_RESPONSE', e.message);
      throw e;
    }
    if (status.nodeId !== node.nodeId) {
      throw new HeartbeatError('WRONG_NODE', `${node.uri} is node ${JSON.stringify(status.nodeId)}, expected '${node.nodeId}'`);
    }
    return status;
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
