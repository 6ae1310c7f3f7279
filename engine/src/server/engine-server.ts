// Starts one node: catalogs, the statement executor, the query manager, node state, and the HTTP
// server; then, by role, a coordinator's health checks of the nodes that announce themselves to it,
// or a worker's announcements to its coordinator. A single node is coordinator and worker at once.
// A coordinator schedules the stages of its queries as tasks on its ACTIVE workers (coordinator/scheduler);
// every node runs tasks (worker/task-manager.ts) behind the task resource.

import { networkInterfaces } from 'node:os';
import type { EngineConfig } from '../config/config-schema.js';
import { formatDuration } from '../config/duration.js';
import { engineVersion } from '../config/version.js';
import { HeartbeatMonitor } from '../coordinator/heartbeat-monitor.js';
import { NodeManager } from '../coordinator/node-manager.js';
import { QueryAccess } from '../coordinator/query-access.js';
import { createAccessControl } from '../security/access-control/access-control-setup.js';
import { createGroupProvider } from '../security/access-control/group-provider.js';
import { rulesImpersonation } from '../security/access-control/impersonation-rules.js';
import { QueryManager } from '../coordinator/query-manager.js';
import { defaultResourceGroups, readResourceGroupsFile } from '../coordinator/resource-groups/resource-groups-file.js';
import { StatementExecutor } from '../coordinator/statement-executor.js';
import { clusterView } from '../coordinator/scheduler/cluster-view.js';
import { TaskEndpoint } from '../worker/task-endpoint.js';
import { localTaskOutputs, TaskManager } from '../worker/task-manager.js';
import { ServerSystemRuntime } from '../coordinator/system-runtime.js';
import { EngineError } from '../errors/engine-error.js';
import { MemoryContext } from '../exec/memory.js';
import { configureBufferPool, watchWorkerThreadPools } from '../exec/buffer-pool.js';
import { configureSharedThreadPool, sharedThreadPool, shutdownSharedThreadPool } from '../exec/threads/thread-pool.js';
import { collectGarbageNow, guardResidentMemory } from '../process/heap-guard.js';
import { bufferPoolShare, exchangeBufferBytes, residentMemoryLimit, workerThreadHeapBytes } from '../config/memory-budget.js';
import type { Logger } from '../log/logger.js';
import { Announcer } from './announcer.js';
import { createApp } from './app.js';
import { createCatalogs } from './catalogs.js';
import { HttpListeners } from './http-listeners.js';
import { InternalAuthenticator } from './internal-auth/internal-authenticator.js';
import { ClientAuthenticator } from '../security/authentication/client-authenticator.js';
import { trustCertificateAuthority } from '../security/authentication/internal-tls.js';
import { NodeMetricsSampler } from './node-metrics.js';
import { IdleMemoryRelief } from './idle-memory.js';
import { memoryBudgetLog } from './memory-budget-log.js';
import { NodeStateMachine } from './node-state.js';
import { describeWorkload, hasActiveWork } from '../internode/node-workload.js';
import { nodeWorkload } from './node-workload.js';
import type { NodeIdentity, ServerContext } from './server-context.js';
import { QueryHistory } from '../coordinator/query-history.js';
import { ClusterHistory } from './ui/cluster-history.js';
import { recordEndedQuery } from './ui/history-recording.js';

/** Longest a node stays up after its last task ended for its coordinator to read that task's final state (longer than a poll). */
const TASK_INFO_LINGER_MILLIS = 1500;

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 */
  readonly uri: string;
  /** The port of uri: the HTTPS port when HTTPS is on. */
  readonly port: number;
  /** The plain HTTP port, unless it is closed (authentication on without allowInsecureOverHttp). */
  readonly httpPort?: number;
  readonly context: ServerContext;
  /** Fails running queries and closes the HTTP server (gracefully: letting responses in flight finish). */
  stop(graceful?: boolean): Promise<void>;
  /** SHUTTING_DOWN: takes no new queries, lets running ones finish (up to shutdown.gracePeriod), then stops. */
  beginShutdown(): void;
  /** Resolves once the server stopped (after stop() or a graceful shutdown). */
  readonly stopped: Promise<void>;
  /** Reloads the TLS certificate now if its files changed (otherwise done every http.https.refreshPeriod). */
  refreshCertificate(): boolean;
}

export async function startServer(config: EngineConfig, logger: Logger): Promise<RunningServer> {
  const node: NodeIdentity = {
    nodeId: config.node.id,
    environment: config.node.environment,
    version: engineVersion(),
    coordinator: config.role !== 'worker',
    startTime: Date.now(),
    internalUri: '',
  };
  const resourceGroups = config.resourceGroups.configFile
    ? readResourceGroupsFile(config.resourceGroups.configFile)
    : defaultResourceGroups(config.query);
  const nodeMemory = MemoryContext.nodePool(config.memory.nodeMemory);
  const memorySettings = {
    nodeMemoryBytes: config.memory.nodeMemory,
    workerThreads: config.task.maxWorkerThreads,
    tpch: config.catalogs.some((c) => c.connector === 'tpch'),
  };
  // Every thread's buffer pool holds a share; the main thread's counts in the node's memory at once, the others' by their bound.
  const threadPoolBytes = bufferPoolShare(Math.min(config.memory.bufferPoolSize, config.memory.nodeMemory), config.task.maxWorkerThreads);
  configureBufferPool(threadPoolBytes, config.memory.bufferPoolIdleTimeout);
  configureSharedThreadPool({
    maxThreads: config.task.maxWorkerThreads,
    threadHeapBytes: workerThreadHeapBytes(config.memory.nodeMemory, config.task.maxWorkerThreads),
    idleMillis: config.task.workerThreadIdleTimeout,
    nice: config.task.workerThreadNice,
    bufferPoolBytes: threadPoolBytes,
    bufferPoolIdleMillis: config.memory.bufferPoolIdleTimeout,
  });
  watchWorkerThreadPools(threadPoolBytes * config.task.maxWorkerThreads, () => sharedThreadPool().releaseBuffers());
  guardResidentMemory(residentMemoryLimit(memorySettings), () => sharedThreadPool().relieveMemory());
  const groupsOf = createGroupProvider(config.security, logger);
  const accessControl = createAccessControl(config.security, logger, groupsOf);
  const access = new QueryAccess(config.security.adminUsers, accessControl, groupsOf);
  const internalAuth = new InternalAuthenticator(config.internalCommunication.sharedSecret, config.node.id);
  if (config.internalCommunication.caFile !== undefined) trustCertificateAuthority(config.internalCommunication.caFile);
  const authentication = config.authentication.types.length > 0 ? new ClientAuthenticator(config.authentication, logger) : undefined;
  let queries: QueryManager | undefined;
  let nodeState: NodeStateMachine | undefined;
  // Only a coordinator keeps other nodes; it takes announcements from its own environment.
  const nodes = new NodeManager(config.role === 'coordinator' ? config.node.environment : undefined);
  const history =
    config.role !== 'worker' && config.queryHistory.directory !== undefined
      ? await QueryHistory.open(
          {
            directory: config.queryHistory.directory,
            maxCount: config.queryHistory.maxCount,
            maxAgeMillis: config.queryHistory.maxAge,
            maxBytes: config.queryHistory.maxSize,
          },
          logger,
        )
      : undefined;
  const runtime = new ServerSystemRuntime(
    () => queries?.list() ?? [],
    () => history?.list() ?? [],
    () => [
      {
        nodeId: node.nodeId,
        httpUri: node.internalUri,
        nodeVersion: node.version,
        coordinator: node.coordinator,
        state: (nodeState?.state ?? 'INACTIVE').toLowerCase(),
      },
      ...nodes.all().map((n) => ({
        nodeId: n.nodeId,
        httpUri: n.uri,
        nodeVersion: n.version,
        coordinator: n.coordinator,
        state: (n.failedLastCheck ? 'INACTIVE' : (n.state ?? 'INACTIVE')).toLowerCase(),
      })),
    ],
    () => node.nodeId,
    access,
  );
  const catalogs = createCatalogs(config.catalogs, { runtime });
  catalogs.accessControl = accessControl;
  const internalHeaders = () => internalAuth.authorizationHeader();
  // Small nodes keep small buffers: what they hold counts in the node memory.
  const maxBufferedBytes = exchangeBufferBytes(config.memory.nodeMemory);
  const threadDecoding = { minBodyBytes: config.task.exchangeThreadDecodingMinSize };
  const tasks: TaskManager = new TaskManager({
    catalogs,
    nodeMemory,
    queryMaxMemoryPerNode: config.memory.queryMaxMemoryPerNode,
    coordinatedQueryMemory: (queryId) => queries?.get(queryId)?.memory,
    outputBuffer: { maxBufferedBytes },
    exchange: {
      headers: internalHeaders,
      maxBufferedBytes,
      local: localTaskOutputs(node.nodeId, () => tasks),
      maxErrorDurationMillis: config.query.remoteTaskMaxErrorDuration,
      threadDecoding,
    },
    clientTimeoutMillis: config.task.clientTimeout,
    refusal: () =>
      nodeState === undefined
        ? new EngineError('SERVER_STARTING_UP', 'Server is starting up')
        : nodeState.acceptsWork
          ? undefined
          : nodeState.notAcceptingWork('tasks'),
  });
  const taskEndpoint = new TaskEndpoint(tasks, node);
  const cluster =
    config.role !== 'worker'
      ? clusterView({
          nodes,
          self: () => ({ nodeId: node.nodeId, uri: node.internalUri }),
          includeCoordinator: config.nodeScheduler.includeCoordinator,
          headers: internalHeaders,
          maxBufferedBytes,
          threadDecoding,
          endpoint: taskEndpoint,
          queryMaxMemoryBytes: config.memory.queryMaxMemory,
          requiredWorkersMaxWaitMillis: config.query.requiredWorkersMaxWait,
          remoteTaskMaxErrorDurationMillis: config.query.remoteTaskMaxErrorDuration,
        })
      : undefined;
  const executor = new StatementExecutor(catalogs, {
    queryMaxMemoryBytes: config.memory.queryMaxMemoryPerNode,
    nodeMemory,
    cluster,
    singleNode: config.role === 'single',
  });
  catalogs.sqlEnvironment = config.sql;
  queries = new QueryManager(
    executor,
    {
      ...config.query,
      responseLimits: { maxRows: config.results.maxRowsPerResponse, maxBytes: config.results.maxBytesPerResponse },
      queryMaxMemoryBytes: config.memory.queryMaxMemoryPerNode,
      nodeMemory,
      resourceGroups,
      sessionProperties: executor.sessionProperties,
    },
    logger,
  );
  const manager = queries;
  // Every query that ends is written to the history on disk with the detail GET /v1/query/{queryId} answered then.
  if (history !== undefined) manager.onQueryEnded((q) => recordEndedQuery(history, q, node.internalUri));

  const heartbeats =
    config.role === 'coordinator'
      ? new HeartbeatMonitor(
          nodes,
          {
            intervalMillis: config.failureDetector.heartbeatInterval,
            timeoutMillis: config.failureDetector.heartbeatTimeout,
            maxAnnouncementAgeMillis: config.discovery.maxAnnouncementAge,
          },
          logger,
        )
      : undefined;
  const announcer =
    config.role === 'worker'
      ? new Announcer(
          config.discovery.uri!,
          () => ({
            nodeId: node.nodeId,
            environment: node.environment,
            uri: node.internalUri,
            version: node.version,
            coordinator: node.coordinator,
            workerThreads: config.task.maxWorkerThreads,
          }),
          config.discovery.announcementInterval,
          logger,
          internalAuth,
        )
      : undefined;
  const metrics = new NodeMetricsSampler();
  const idleRelief = new IdleMemoryRelief(
    () => hasActiveWork(nodeWorkload(manager, tasks)),
    config.task.workerThreadIdleTimeout,
    collectGarbageNow,
  );
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let listeners: HttpListeners | undefined;
  let stopping: Promise<void> | undefined;
  let clusterHistory: ClusterHistory | undefined;
  const stop = (graceful: boolean): Promise<void> => {
    stopping ??= (async () => {
      manager.close(new EngineError('SERVER_SHUTTING_DOWN', 'Server is shutting down'));
      clusterHistory?.stop();
      tasks.close();
      metrics.close();
      idleRelief.close();
      heartbeats?.stop();
      await announcer?.stop();
      await listeners?.close(graceful);
      await shutdownSharedThreadPool();
      await history?.flush();
      logger.info('server stopped');
      resolveStopped();
    })();
    return stopping;
  };

  const activeQueryIds = () =>
    manager
      .list()
      .filter((q) => !q.done)
      .map((q) => q.id);
  const workload = () => nodeWorkload(manager, tasks);
  nodeState = new NodeStateMachine(
    () => hasActiveWork(workload()),
    () => {
      logger.info('shutting down: no active queries or tasks left');
      // A coordinator still following this node's tasks gets their final state before the node goes.
      const deadline = Date.now() + TASK_INFO_LINGER_MILLIS;
      const stopWhenTold = () => (tasks.awaitingFinalInfo() && Date.now() < deadline ? setTimeout(stopWhenTold, 50) : void stop(true));
      stopWhenTold();
    },
    {
      millis: config.shutdown.gracePeriod,
      expired: () => {
        logger.warn(
          { queryIds: activeQueryIds(), workload: describeWorkload(workload()), gracePeriod: formatDuration(config.shutdown.gracePeriod) },
          'shutting down: grace period over, failing the queries still running',
        );
        void stop(true);
      },
    },
  );
  const state = nodeState;
  manager.onWorkChanged(() => {
    state.workChanged();
    idleRelief.workChanged();
  });
  tasks.onWorkChanged(() => {
    state.workChanged();
    idleRelief.workChanged();
  });

  const context: ServerContext = {
    config,
    logger,
    node,
    nodeState: state,
    queries: manager,
    access,
    nodes,
    heartbeats,
    metrics,
    nodeMemory,
    tasks,
    internalAuth,
    authentication,
    impersonation: rulesImpersonation(accessControl),
    workload,
    history,
  };
  // A coordinator keeps its cluster's figures for the web interface.
  clusterHistory = config.role !== 'worker' ? new ClusterHistory(context) : undefined;
  context.clusterHistory = clusterHistory;
  const app = createApp(context);
  listeners = new HttpListeners(config, logger);
  const listening = await listeners.listen(app.callback());
  const port = listening.port;
  node.internalUri = `${listening.scheme}://${formatHost(config.node.internalAddress ?? advertisedHost(config.http.host))}:${port}`;
  state.activate();
  heartbeats?.start();
  clusterHistory?.start();
  announcer?.start();
  logger.info(
    {
      host: config.http.host,
      port,
      httpPort: listening.httpPort,
      httpsPort: listening.httpsPort,
      authentication: config.authentication.types,
      uri: node.internalUri,
      role: config.role,
      environment: node.environment,
      version: node.version,
      catalogs: catalogs.names(),
    },
    'listening',
  );
  logger.info(memoryBudgetLog(memorySettings), 'memory budget');
  const beginShutdown = () => {
    if (state.state !== 'SHUTTING_DOWN') {
      logger.info(
        { queryIds: activeQueryIds(), workload: describeWorkload(workload()), gracePeriod: formatDuration(config.shutdown.gracePeriod) },
        'shutting down: waiting for running queries',
      );
    }
    state.beginShutdown();
  };
  return {
    uri: node.internalUri,
    port,
    httpPort: listening.httpPort,
    context,
    refreshCertificate: () => listeners?.refreshCertificate() ?? false,
    stop: (graceful = false) => stop(graceful),
    beginShutdown,
    stopped,
  };
}

/** The address others reach a node on: the bind host, or a non-loopback IPv4 address when binding every interface. */
function advertisedHost(bindHost: string): string {
  if (bindHost !== '0.0.0.0' && bindHost !== '::') return bindHost;
  for (const addresses of Object.values(networkInterfaces())) {
    const external = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (external) return external.address;
  }
  return '127.0.0.1';
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
