// The coordinator's failure detector: every heartbeat interval it checks each known node with
// GET /v1/status (a short timeout), records the outcome on the node's counters, reads the node's
// state (ACTIVE, ISOLATING, ...), and forgets the nodes that stopped announcing themselves.

import type { Logger } from '../log/logger.js';
import type { NodeManager } from './node-manager.js';
import { failureInfo, type FailureInfo, type RemoteNode } from './remote-node.js';

export interface HeartbeatSettings {
  intervalMillis: number;
  timeoutMillis: number;
  maxAnnouncementAgeMillis: number;
}

export class HeartbeatMonitor {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<RemoteNode>();

  constructor(
    private readonly nodes: NodeManager,
    private readonly settings: HeartbeatSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.settings.intervalMillis);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    for (const node of this.nodes.removeExpired(this.settings.maxAnnouncementAgeMillis)) {
      this.logger.info({ node: node.nodeId, uri: node.uri }, 'node forgotten: it stopped announcing');
    }
    for (const node of this.nodes.all()) void this.check(node);
  }

  /** One health check; a check still waiting for its answer is not doubled. */
  async check(node: RemoteNode): Promise<void> {
    if (this.inFlight.has(node)) return;
    this.inFlight.add(node);
    const wasFailed = node.failedLastCheck;
    const previousState = node.state;
    node.requestStarted();
    try {
      node.state = await this.readState(node);
      node.requestSucceeded();
      if (wasFailed) this.logger.info({ node: node.nodeId, uri: node.uri }, 'node answers its health check again');
      if (previousState !== undefined && previousState !== node.state) this.logger.info({ node: node.nodeId, from: previousState, to: node.state }, 'node state changed');
    } catch (e) {
      const failure = heartbeatFailure(e);
      node.requestFailed(failure);
      if (!wasFailed) this.logger.warn({ node: node.nodeId, uri: node.uri, failure: failure.type, message: failure.message }, 'node failed its health check');
    } finally {
      this.inFlight.delete(node);
    }
  }

  private async readState(node: RemoteNode): Promise<string> {
    const response = await fetch(`${node.uri}/v1/status`, { signal: AbortSignal.timeout(this.settings.timeoutMillis) });
    if (!response.ok) throw new HeartbeatError('UNEXPECTED_RESPONSE', `GET ${node.uri}/v1/status answered ${response.status}`);
    const status = (await response.json()) as { nodeId?: unknown; state?: unknown };
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
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') {
    return { ...info, type: cause.code, message: `${info.message}: ${typeof cause.message === 'string' ? cause.message : cause.code}` };
  }
  return info;
}
