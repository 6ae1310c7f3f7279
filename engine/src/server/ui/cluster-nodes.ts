// Every node of the cluster as the web interface lists it: this node with its status taken now, and
// each node it knows with the /v1/status its last health check read (no request of its own: the
// health checks already ask every node each heartbeat interval). A node whose last check failed is
// UNREACHABLE, with the status it last answered.

import type { ServerContext } from '../server-context.js';
import { nodeStatusJson } from '../status-resource.js';
import type { NodeMetrics } from '../node-metrics.js';
import type { ClusterNode, NodeFigures } from './ui-api.js';

/** A node as the coordinator lists it: its status as JSON it does not look into. */
export type ServerClusterNode = ClusterNode<Readonly<Record<string, unknown>>>;

export function clusterNodes(server: ServerContext, ownMetrics: NodeMetrics, now = Date.now()): ServerClusterNode[] {
  const self: ServerClusterNode = {
    nodeId: server.node.nodeId,
    uri: server.node.internalUri,
    coordinator: server.node.coordinator,
    self: true,
    state: server.nodeState.state,
    version: server.node.version,
    statusTime: now,
    status: nodeStatusJson(server, ownMetrics),
  };
  const others = server.nodes.all().map(
    (n): ServerClusterNode => ({
      nodeId: n.nodeId,
      uri: n.uri,
      coordinator: n.coordinator,
      self: false,
      state: n.failedLastCheck ? 'UNREACHABLE' : (n.state ?? 'INACTIVE'),
      version: n.version,
      ...(n.lastStatus === undefined ? {} : { status: n.lastStatus, statusTime: n.lastStatusTime }),
    }),
  );
  return [self, ...others.sort((a, b) => a.nodeId.localeCompare(b.nodeId))];
}

/** The figures of a node's status the charts follow; a field the status lacks is 0. */

export function nodeFigures(status: Readonly<Record<string, unknown>> | undefined): NodeFigures {
  const at = (...path: string[]): number => {
    let value: unknown = status;
    for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
  return {
    processors: at('processors'),
    processCpuLoad: at('processCpuLoad'),
    heapUsed: at('heapUsed'),
    residentBytes: at('residentBytes'),
    reservedBytes: at('memoryInfo', 'pools', 'general', 'reservedBytes'),
    maxBytes: at('memoryInfo', 'pools', 'general', 'maxBytes'),
    runningTasks: at('workload', 'runningTasks'),
    queuedSplits: at('workload', 'queuedSplits'),
    runningSplits: at('workload', 'runningSplits'),
    eventLoopP99Millis: at('eventLoopDelay', 'p99Millis'),
  };
}
