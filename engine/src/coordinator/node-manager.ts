// The other nodes this node knows, for GET /v1/node and /v1/node/failed. A node does not list itself:
// in the embedded single-node mode both lists are empty. Workers joining through discovery (a later
// issue) are added here and their health checks recorded on their RemoteNode.

import { RemoteNode, type NodeEntry } from './remote-node.js';

export class NodeManager {
  private readonly nodes = new Map<string, RemoteNode>();

  /** Registers a node by id (or returns the one already known). */
  add(nodeId: string, uri: string): RemoteNode {
    let node = this.nodes.get(nodeId);
    if (!node) {
      node = new RemoteNode(nodeId, uri);
      this.nodes.set(nodeId, node);
    }
    return node;
  }

  remove(nodeId: string): void {
    this.nodes.delete(nodeId);
  }

  all(): RemoteNode[] {
    return [...this.nodes.values()];
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
