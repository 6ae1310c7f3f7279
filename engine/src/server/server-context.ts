// What the routes of one node share.

import type { EngineConfig } from '../config/config-schema.js';
import type { HeartbeatMonitor } from '../coordinator/heartbeat-monitor.js';
import type { NodeManager } from '../coordinator/node-manager.js';
import type { QueryAccess } from '../coordinator/query-access.js';
import type { QueryManager } from '../coordinator/query-manager.js';
import type { QueryHistory } from '../coordinator/query-history.js';
import type { ClusterHistory } from './ui/cluster-history.js';
import type { MemoryContext } from '../exec/memory.js';
import type { Logger } from '../log/logger.js';
import type { InternalAuthenticator } from './internal-auth/internal-authenticator.js';
import type { NodeMetricsSampler } from './node-metrics.js';
import type { NodeStateMachine } from './node-state.js';
import type { TaskManager } from '../worker/task-manager.js';
import type { NodeWorkload } from '../internode/node-workload.js';
import type { ClientAuthenticator } from '../security/authentication/client-authenticator.js';
import type { Impersonation } from '../security/impersonation.js';

export interface NodeIdentity {
  nodeId: string;
  environment: string;
  version: string;
  coordinator: boolean;
  /** Epoch milliseconds when the server started. */
  startTime: number;
  /** The address other nodes and clients use, known once the server listens. */
  internalUri: string;
}

export interface ServerContext {
  config: EngineConfig;
  logger: Logger;
  node: NodeIdentity;
  nodeState: NodeStateMachine;
  queries: QueryManager;
  /** Who may see and control which query. */
  access: QueryAccess;
  /** The node's memory; every query's memory context is a child of it. */
  nodeMemory: MemoryContext;
  /** The other nodes: on a coordinator, those that announced themselves. */
  nodes: NodeManager;
  /** On a coordinator: the health checks of its nodes. */
  heartbeats?: HeartbeatMonitor;
  metrics: NodeMetricsSampler;
  /** The tasks this node runs (for queries of its coordinator, or its own as a single node). */
  tasks: TaskManager;
  /** Signs this node's requests to other nodes (authorizationHeader()) and checks theirs. */
  internalAuth: InternalAuthenticator;
  /** On a coordinator with queryHistory.directory: the ended queries on disk. */
  history?: QueryHistory;
  /** On a coordinator: its figures over the last 15 minutes, for the web interface. */
  clusterHistory?: ClusterHistory;
  /** With authentication.types: checks the credentials of client requests. */
  authentication?: ClientAuthenticator;
  /** Who may act as whom (X-Engine-User naming another user); default: only oneself. */
  impersonation?: Impersonation;
  /** The work the node holds now (its queries, and its tasks). */
  workload(): NodeWorkload;
}
