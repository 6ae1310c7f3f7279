// The published JSON Schema of the server configuration (YAML or JSON file). `engine config-schema`
// prints it; the build writes it to dist/config.schema.json. Every object is closed
// (additionalProperties: false) so a misspelt key stops the server with a message naming it.

import { DATA_SIZE_SCHEMA } from './data-size.js';
import { SQL_ENVIRONMENT_SCHEMA, type SqlEnvironment } from './sql-environment.js';
import { DURATION_SCHEMA } from './duration.js';
import {
  AUTHENTICATION_SCHEMA,
  HTTPS_SCHEMA,
  INTERNAL_CA_FILE_SCHEMA,
  type AuthenticationConfig,
  type HttpsConfig,
} from './authentication-config.js';

/** Connectors a catalog can use. */
export const CONNECTOR_KINDS = ['memory', 'system', 'tpch', 'postgresql', 'hive'] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

/** single: coordinator and worker in one process (the embedded node). */
export const NODE_ROLES = ['single', 'coordinator', 'worker'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const closed = <P extends Record<string, unknown>>(description: string, properties: P) =>
  ({ type: 'object', description, additionalProperties: false, properties }) as const;

export const CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'urn:engine:config-schema',
  title: 'Engine server configuration',
  ...closed('Engine server configuration', {
    node: closed('This node', {
      id: { type: 'string', minLength: 1, description: 'Unique node id (default: a random UUID per start)' },
      environment: { type: 'string', pattern: '^[a-z0-9_]+$', description: 'Environment name (default: production)' },
      internalAddress: {
        type: 'string',
        minLength: 1,
        description:
          'Host name or IP other nodes and clients use to reach this node (default: the bind host, or the first non-loopback IPv4 address when binding all interfaces)',
      },
    }),
    http: closed('HTTP server', {
      host: { type: 'string', minLength: 1, description: 'Interface to bind (default: 0.0.0.0)' },
      port: { type: 'integer', minimum: 0, maximum: 65535, description: 'Port to listen on; 0 picks a free port (default: 8080)' },
      maxRequestBodySize: { ...DATA_SIZE_SCHEMA, description: 'Largest request body accepted; larger ones get 413 (default: 16MB)' },
      https: HTTPS_SCHEMA,
    }),
    role: {
      type: 'string',
      enum: [...NODE_ROLES],
      description:
        "What this node does: 'single' (default) is coordinator and worker in one process; 'coordinator' takes clients' queries and keeps the cluster's nodes; 'worker' announces itself to discovery.uri and serves no statements",
    },
    discovery: closed('Cluster membership', {
      uri: {
        type: 'string',
        pattern: '^https?://[^\\s]+$',
        description: "The coordinator's address a worker announces itself to (required for role worker, refused otherwise)",
      },
      announcementInterval: { ...DURATION_SCHEMA, description: 'How often a worker renews its announcement (default: 3s)' },
      maxAnnouncementAge: {
        ...DURATION_SCHEMA,
        description: 'A coordinator forgets a node whose last announcement is older than this (default: three announcement intervals)',
      },
    }),
    failureDetector: closed("The coordinator's health checks of its nodes", {
      heartbeatInterval: {
        ...DURATION_SCHEMA,
        description: 'How often the coordinator checks each known node (GET /v1/status) (default: 1s)',
      },
      heartbeatTimeout: { ...DURATION_SCHEMA, description: 'A check not answered within this fails (default: 500ms)' },
    }),
    sql: SQL_ENVIRONMENT_SCHEMA,
    nodeScheduler: closed('Where query work goes', {
      includeCoordinator: {
        type: 'boolean',
        description: 'Schedule work on the coordinator too (default: false once workers have joined, true while there are none)',
      },
    }),
    catalogs: {
      type: 'array',
      description: 'Catalogs this node serves (default: tpch, memory and system)',
      items: {
        ...closed('A catalog', {
          name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'Catalog name used in SQL' },
          connector: { type: 'string', enum: [...CONNECTOR_KINDS], description: 'Connector that provides the catalog' },
          properties: {
            type: 'object',
            additionalProperties: { type: ['string', 'number', 'boolean'] },
            description: 'Connector settings',
          },
        }),
        required: ['name', 'connector'],
      },
    },
    memory: closed('Memory limits', {
      queryMaxMemoryPerNode: { ...DATA_SIZE_SCHEMA, description: 'Memory one query may use on a node (default: 2GB)' },
      queryMaxMemory: {
        ...DATA_SIZE_SCHEMA,
        description: 'Memory one query may use over the whole cluster, its tasks on every node together (default: 20GB)',
      },
      nodeMemory: {
        ...DATA_SIZE_SCHEMA,
        description:
          'Memory all queries together may use on a node (default: half of the machine memory, at most what the V8 heap holds; must fit the heap set by --max-old-space-size)',
      },
      bufferPoolSize: {
        ...DATA_SIZE_SCHEMA,
        description:
          'Freed hash-table arrays kept for the next queries, whose memory is then already paged in, shared equally by the main thread and each worker thread; counted in the node memory and given back first when it or the process runs short (default: 256MB, at most an eighth of memory.nodeMemory; 0B: off)',
      },
      bufferPoolIdleTimeout: {
        ...DURATION_SCHEMA,
        description: 'The buffer pool frees what it holds once no query has taken or given a buffer this long (default: 30s)',
      },
    }),
    task: closed('The tasks this node runs for coordinators, and its worker threads', {
      clientTimeout: {
        ...DURATION_SCHEMA,
        description:
          'A running task its coordinator has not asked about for this long, counted while this node runs, fails with ABANDONED_TASK (Trino: task.client-timeout) (default: 2m)',
      },
      maxWorkerThreads: {
        type: 'integer',
        minimum: 1,
        description:
          "Most worker threads the node runs scans and partial aggregations on; task_concurrency is capped by it, and each thread's heap is memory.nodeMemory divided by it (default: the number of cores)",
      },
      workerThreadIdleTimeout: {
        ...DURATION_SCHEMA,
        description:
          'A worker thread without a task this long is stopped, giving its memory back; the next task starts a new one (default: 30s)',
      },
      workerThreadNice: {
        type: 'integer',
        minimum: 0,
        maximum: 19,
        description:
          "How many nice steps below the event loop's CPU priority the worker threads run (Linux): with the cores busy, the event loop, which answers heartbeats, status and cancels, runs first (default: 10; 0: the same priority)",
      },
      exchangeThreadDecodingMinSize: {
        ...DATA_SIZE_SCHEMA,
        description:
          'An exchange response (pages from another node) at least this large is decoded on a worker thread, not on the event loop; smaller ones decode faster than the round trip to a thread (default: 128kB; 0B: every response)',
      },
    }),
    query: closed('Query management', {
      maxLength: { type: 'integer', minimum: 1, description: 'Longest SQL text accepted, in characters (default: 1000000)' },
      maxRunning: { type: 'integer', minimum: 1, description: 'Queries running at once; more wait QUEUED (default: 100)' },
      maxQueued: { type: 'integer', minimum: 0, description: 'Queries waiting to run; more fail with QUERY_QUEUE_FULL (default: 1000)' },
      maxRunningPerUser: {
        type: 'integer',
        minimum: 1,
        description: 'Queries one user runs at once when no resource group file is configured; more wait QUEUED (default: 10)',
      },
      clientTimeout: {
        ...DURATION_SCHEMA,
        description: 'A query whose client stops polling this long fails as ABANDONED_QUERY (default: 5m)',
      },
      maxHistory: { type: 'integer', minimum: 0, description: 'Finished queries kept for /v1/query (default: 200)' },
      maxHistoryAge: { ...DURATION_SCHEMA, description: 'Finished queries are dropped after this long (default: 15m)' },
      requiredWorkersMaxWait: {
        ...DURATION_SCHEMA,
        description:
          'How long a query that needs a worker waits for one while none is ACTIVE (node-scheduler.includeCoordinator false), before failing with NO_NODES_AVAILABLE (default: 5m)',
      },
      remoteTaskMaxErrorDuration: {
        ...DURATION_SCHEMA,
        description:
          'How long requests to a task on another node (its state, its splits, its output pages) may keep failing before its query fails with REMOTE_HOST_GONE; a node that fails its health checks fails them sooner (Trino: query.remote-task.max-error-duration) (default: 1m)',
      },
    }),
    queryHistory: closed("A coordinator's record of its ended queries on disk, read back when it starts", {
      directory: {
        type: 'string',
        minLength: 1,
        description:
          'Folder the coordinator writes every ended query to (its summary and its detail), and reads them from when it starts, so the web interface, GET /v1/query/{queryId} and system.runtime.queries show queries of earlier runs; one coordinator per folder (default: none, no history on disk)',
      },
      maxCount: { type: 'integer', minimum: 1, description: 'Most queries kept; the oldest go first (default: 10000)' },
      maxAge: { ...DURATION_SCHEMA, description: 'Queries that ended longer ago are dropped (default: 30d)' },
      maxSize: { ...DATA_SIZE_SCHEMA, description: 'Most bytes the history takes on disk; the oldest queries go first (default: 1GB)' },
    }),
    results: closed('Result delivery to clients', {
      maxRowsPerResponse: { type: 'integer', minimum: 1, description: 'Most rows in one statement response (default: 10000)' },
      maxBytesPerResponse: { ...DATA_SIZE_SCHEMA, description: 'Approximate largest JSON data in one statement response (default: 1MB)' },
    }),
    resourceGroups: closed('Admission of queries', {
      configFile: {
        type: 'string',
        minLength: 1,
        description:
          "Trino-style resource group file (JSON: rootGroups and selectors); without it one group 'global' (query.maxRunning, query.maxQueued) with a subgroup per user (query.maxRunningPerUser)",
      },
    }),
    security: closed('Access to queries', {
      adminUsers: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: "Users who may see and cancel every user's queries (default: none)",
      },
      rulesFile: {
        type: 'string',
        minLength: 1,
        description:
          'Trino-style file-based access control rules (JSON: catalogs, schemas, tables, queries, impersonation, system_session_properties); without it every user reads and writes every catalog and sees only their own queries (default: none)',
      },
      rulesRefreshPeriod: {
        ...DURATION_SCHEMA,
        description:
          'How often the rules file and the group file are checked for changes; a change that cannot be used keeps the last good rules (default: 1m)',
      },
      groupFile: {
        type: 'string',
        minLength: 1,
        description:
          "Trino-style group file (lines 'group:user1,user2'): the groups current_groups() returns and rules' group conditions match, with or without a rules file (default: none, users have no groups)",
      },
    }),
    internalCommunication: closed('Requests between the nodes of a cluster (Trino: internal-communication.*)', {
      sharedSecret: {
        type: 'string',
        minLength: 1,
        description:
          'Secret every node of the cluster shares (Trino: internal-communication.shared-secret; environment variable ENGINE_SHARED_SECRET). When set, requests between nodes (tasks, results, announcements) and PUT /v1/info/state carry a short-lived token signed with it, and those endpoints answer 401 without one. Every node needs the same secret, or none (default: none)',
      },
      caFile: INTERNAL_CA_FILE_SCHEMA,
    }),
    authentication: AUTHENTICATION_SCHEMA,
    shutdown: closed('Graceful shutdown (SIGTERM, or PUT /v1/info/state "SHUTTING_DOWN")', {
      gracePeriod: {
        ...DURATION_SCHEMA,
        description:
          'Longest wait for running queries to finish; then the process exits and they fail with SERVER_SHUTTING_DOWN (default: 2m)',
      },
    }),
    log: closed('Logging', {
      level: { type: 'string', enum: [...LOG_LEVELS], description: 'Least severe level written (default: info)' },
    }),
  }),
} as const;

export interface CatalogConfig {
  name: string;
  connector: ConnectorKind;
  properties: Record<string, string | number | boolean>;
}

/** The configuration with every default filled in; sizes in bytes, durations in milliseconds. */
export interface EngineConfig {
  node: { id: string; environment: string; internalAddress?: string };
  /** https undefined: HTTPS is off. */
  http: { host: string; port: number; maxRequestBodySize: number; https?: HttpsConfig };
  role: NodeRole;
  discovery: { uri?: string; announcementInterval: number; maxAnnouncementAge: number };
  failureDetector: { heartbeatInterval: number; heartbeatTimeout: number };
  /** includeCoordinator undefined: the default (false once workers exist). */
  nodeScheduler: { includeCoordinator?: boolean };
  catalogs: CatalogConfig[];
  memory: {
    queryMaxMemoryPerNode: number;
    queryMaxMemory: number;
    nodeMemory: number;
    bufferPoolSize: number;
    bufferPoolIdleTimeout: number;
  };
  task: {
    clientTimeout: number;
    maxWorkerThreads: number;
    workerThreadIdleTimeout: number;
    workerThreadNice: number;
    exchangeThreadDecodingMinSize: number;
  };
  query: {
    maxLength: number;
    maxRunning: number;
    maxQueued: number;
    maxRunningPerUser: number;
    clientTimeout: number;
    maxHistory: number;
    maxHistoryAge: number;
    requiredWorkersMaxWait: number;
    remoteTaskMaxErrorDuration: number;
  };
  /** directory undefined: no history on disk. */
  queryHistory: { directory?: string; maxCount: number; maxAge: number; maxSize: number };
  results: { maxRowsPerResponse: number; maxBytesPerResponse: number };
  resourceGroups: { configFile?: string };
  /** rulesFile undefined: no access rules (today's owner-only queries and adminUsers). */
  security: { adminUsers: string[]; rulesFile?: string; rulesRefreshPeriod: number; groupFile?: string };
  /** sharedSecret undefined: requests between nodes are not authenticated. */
  internalCommunication: { sharedSecret?: string; caFile?: string };
  authentication: AuthenticationConfig;
  shutdown: { gracePeriod: number };
  log: { level: LogLevel };
  sql: SqlEnvironment;
}
