// What the scheduler sees of the cluster: the nodes that take tasks now (the ACTIVE workers by
// their last health check, and the coordinator itself when node-scheduler.include-coordinator says
// so, or while no worker is there), this node, and the headers of every internal request.

import type { NodeManager } from '../node-manager.js';
import type { ClusterView } from './distributed-query.js';
import type { InternalHeaders, TaskNode } from './remote-task.js';

export interface ClusterViewOptions {
  nodes: NodeManager;
  self: () => TaskNode;
  /** node-scheduler.include-coordinator as configured (undefined: only while no worker is active). */
  includeCoordinator: boolean | undefined;
  /** Whether this node takes work now (it is ACTIVE). */
  selfAcceptsWork: () => boolean;
  headers: InternalHeaders;
  queryMaxMemoryBytes: number;
}

export function clusterView(options: ClusterViewOptions): ClusterView {
  return {
    self: options.self,
    workerNodes: () => {
      const workers: TaskNode[] = options.nodes.activeWorkers().map((n) => ({ nodeId: n.nodeId, uri: n.uri }));
      const withSelf = options.nodes.includeCoordinator(options.includeCoordinator) && options.selfAcceptsWork();
      return withSelf ? [...workers, options.self()] : workers;
    },
    nodeRefused: (nodeId) => options.nodes.refusedWork(nodeId),
    headers: options.headers,
    exchange: { headers: options.headers },
    queryMaxMemoryBytes: options.queryMaxMemoryBytes,
  };
}
