// The other nodes this node knows, for GET /v1/node and /v1/node/failed, system.runtime.nodes and
// the scheduler. A node does not list itself: a single node's lists are empty. On a coordinator,
// workers join by announcing themselves (PUT /v1/announcement/{nodeId}), are checked by the
// HeartbeatMonitor, and are forgotten once they stop announcing. A node that announces itself from
// another address (it restarted) is declared gone: the tasks it held fail.

import { AnnouncementError, type AnnouncedNode } from '../internode/announcement.js';
import { RemoteNode, type NodeEntry } from './remote-node.js';

export class NodeManager {
  private readonly nodes = new Map<string, RemoteNode>();

  constructor(
    /** Announcements from another environment are refused; undefined accepts none. */
    private readonly environment?: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Registers a node by id (or returns the one already known). */
  add(nodeId: string, uri: string): RemoteNode {
    let node = this.nodes.get(nodeId);
    if (!node) {
      node = new RemoteNode(nodeId, uri, this.now);
      this.nodes.set(nodeId, node);
    }
    return node;
  }

  /**
   * Records an announcement; `joined` is true for a node not known before, or one that came back at
   * another address (a restart), whose counters start afresh.
   */
  announce(announced: AnnouncedNode): { node: RemoteNode; joined: boolean } {
    if (this.environment === undefined) throw new AnnouncementError('This node takes no announcements');
    if (announced.environment !== this.environment) {
      throw new AnnouncementError(
        `Environment mismatch: node '${announced.nodeId}' announced environment '${announced.environment}', this coordinator's environment is '${this.environment}'`,
      );
    }
    const known = this.nodes.get(announced.nodeId);
    const joined = known === undefined || known.uri !== announced.uri;
    if (joined) this.nodes.delete(announced.nodeId);
    if (joined && known !== undefined) known.declareGone(`announced itself again from ${announced.uri}: it restarted`);
    const node = this.add(announced.nodeId, announced.uri);
    node.announced(announced.version, announced.coordinator, announced.workerThreads);
    return { node, joined };
  }

  remove(nodeId: string): boolean {
    return this.nodes.delete(nodeId);
  }

  /** Forgets the nodes that stopped announcing; returns them. */
  removeExpired(maxAnnouncementAgeMillis: number): RemoteNode[] {
    const expired = this.all().filter((n) => n.announcementExpired(maxAnnouncementAgeMillis));
    for (const node of expired) this.nodes.delete(node.nodeId);
    return expired;
  }

  get(nodeId: string): RemoteNode | undefined {
    return this.nodes.get(nodeId);
  }

  all(): RemoteNode[] {
    return [...this.nodes.values()];
  }

  /** Workers that may take new work: ACTIVE by their last health check, which succeeded. */
  activeWorkers(): RemoteNode[] {
    return this.all().filter((n) => !n.coordinator && !n.failedLastCheck && !n.refusedWork && n.state === 'ACTIVE');
  }

  /** A node answered a task with a refusal (it is not ACTIVE): no more work until its next health check. */
  refusedWork(nodeId: string): void {
    const node = this.nodes.get(nodeId);
    if (node !== undefined) node.refusedWork = true;
  }

  /** node-scheduler.include-coordinator: as configured, else only while no worker is active. */
  includeCoordinator(configured: boolean | undefined): boolean {
    return configured ?? this.activeWorkers().length === 0;
  }

  entries(): NodeEntry[] {
    return this.all().map((n) => n.entry());
  }

  failedEntries(): NodeEntry[] {
    return this.all()
      .filter((n) => n.failedLastCheck)
      .map((n) => n.entry());
  }
}
