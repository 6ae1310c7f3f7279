// What the scheduler sees of the cluster: the nodes that take tasks now (the ACTIVE workers by
// their last health check, and the coordinator itself when node-scheduler.include-coordinator says
// so, or while no worker is there — whatever its own state: it places only its own queries, which it
// finishes while it drains), this node, how to reach a task on each: in process on this node (its
// own task endpoint and output buffers), over HTTP with the internal bearer elsewhere, and when a
// node is declared gone (its health checks keep failing).

import type { LocalTaskOutputs, ThreadDecoding } from '../../worker/exchange-client.js';
import { localTaskOutputs } from '../../worker/task-manager.js';
import type { TaskEndpoint } from '../../worker/task-endpoint.js';
import type { NodeManager } from '../node-manager.js';
import type { ClusterView } from './distributed-query.js';
import { ALWAYS_LIVE } from '../remote-node.js';
import type { InternalHeaders, TaskNode } from './remote-task.js';
import { httpTaskChannel, localTaskChannel } from './task-channel.js';

export interface ClusterViewOptions {
  /** The other nodes (none on a single node). */
  nodes: NodeManager;
  self: () => TaskNode;
  /** node-scheduler.include-coordinator as configured (undefined: only while no worker is active). */
  includeCoordinator: boolean | undefined;
  headers: InternalHeaders;
  /** The bound of the exchange clients that read the root stage's input (default: the exchange client's). */
  maxBufferedBytes?: number;
  /** Which of their responses they decode on the node's threads. */
  threadDecoding?: ThreadDecoding;
  /** This node's tasks. */
  endpoint: TaskEndpoint;
  queryMaxMemoryBytes: number;
  /** query.requiredWorkersMaxWait. */
  requiredWorkersMaxWaitMillis: number;
  /** query.remoteTaskMaxErrorDuration, for the tasks' requests and the root stage's exchanges. */
  remoteTaskMaxErrorDurationMillis: number;
}

export function clusterView(options: ClusterViewOptions): ClusterView {
  const local = localTaskChannel(options.endpoint);
  const outputs: LocalTaskOutputs = localTaskOutputs(options.endpoint.nodeId, () => options.endpoint.tasks);
  return {
    self: options.self,
    workerNodes: () => {
      const workers: TaskNode[] = options.nodes
        .activeWorkers()
        .map((n) => ({ nodeId: n.nodeId, uri: n.uri, workerThreads: n.workerThreads }));
      return options.nodes.includeCoordinator(options.includeCoordinator) ? [...workers, options.self()] : workers;
    },
    nodeRefused: (nodeId) => options.nodes.refusedWork(nodeId),
    channel: (node) => (node.nodeId === options.endpoint.nodeId ? local : httpTaskChannel(node.uri, options.headers)),
    liveness: (node) => {
      const known = options.nodes.get(node.nodeId);
      return known !== undefined && known.uri === node.uri ? known : ALWAYS_LIVE;
    },
    exchange: {
      headers: options.headers,
      maxBufferedBytes: options.maxBufferedBytes,
      threadDecoding: options.threadDecoding,
      local: outputs,
      maxErrorDurationMillis: options.remoteTaskMaxErrorDurationMillis,
    },
    queryMaxMemoryBytes: options.queryMaxMemoryBytes,
    requiredWorkersMaxWaitMillis: options.requiredWorkersMaxWaitMillis,
    remoteTaskMaxErrorDurationMillis: options.remoteTaskMaxErrorDurationMillis,
  };
}
