// Every scalar setting of the configuration file, with the command-line flag and the environment
// variable that override it (flags win over the environment, the environment over the file).

import { AUTHENTICATION_SETTINGS } from './authentication-config.js';

export type SettingKind = 'string' | 'integer' | 'boolean' | 'size' | 'duration' | 'catalogs' | 'list';

export interface Setting {
  /** Where the value lives in the configuration file. */
  path: readonly string[];
  /** `engine server --<flag> VALUE`. */
  flag: string;
  kind: SettingKind;
  /** The environment variable, when not the one derived from the path. */
  env?: string;
}

export const SETTINGS: readonly Setting[] = [
  { path: ['node', 'id'], flag: 'node-id', kind: 'string' },
  { path: ['node', 'environment'], flag: 'environment', kind: 'string' },
  { path: ['node', 'internalAddress'], flag: 'internal-address', kind: 'string' },
  { path: ['http', 'host'], flag: 'host', kind: 'string' },
  { path: ['http', 'port'], flag: 'port', kind: 'integer' },
  { path: ['http', 'maxRequestBodySize'], flag: 'max-request-body-size', kind: 'size' },
  { path: ['role'], flag: 'role', kind: 'string' },
  { path: ['discovery', 'uri'], flag: 'discovery-uri', kind: 'string' },
  { path: ['discovery', 'announcementInterval'], flag: 'announcement-interval', kind: 'duration' },
  { path: ['discovery', 'maxAnnouncementAge'], flag: 'max-announcement-age', kind: 'duration' },
  { path: ['failureDetector', 'heartbeatInterval'], flag: 'heartbeat-interval', kind: 'duration' },
  { path: ['failureDetector', 'heartbeatTimeout'], flag: 'heartbeat-timeout', kind: 'duration' },
  { path: ['nodeScheduler', 'includeCoordinator'], flag: 'node-scheduler-include-coordinator', kind: 'boolean' },
  { path: ['sql', 'defaultFunctionCatalog'], flag: 'sql-default-function-catalog', kind: 'string' },
  { path: ['sql', 'defaultFunctionSchema'], flag: 'sql-default-function-schema', kind: 'string' },
  { path: ['sql', 'path'], flag: 'sql-path', kind: 'string' },
  { path: ['catalogs'], flag: 'catalogs', kind: 'catalogs' },
  { path: ['memory', 'queryMaxMemoryPerNode'], flag: 'query-max-memory-per-node', kind: 'size' },
  { path: ['memory', 'queryMaxMemory'], flag: 'query-max-memory', kind: 'size' },
  { path: ['memory', 'nodeMemory'], flag: 'node-memory', kind: 'size' },
  { path: ['memory', 'bufferPoolSize'], flag: 'buffer-pool-size', kind: 'size' },
  { path: ['memory', 'bufferPoolIdleTimeout'], flag: 'buffer-pool-idle-timeout', kind: 'duration' },
  { path: ['task', 'maxWorkerThreads'], flag: 'task-max-worker-threads', kind: 'integer' },
  { path: ['task', 'workerThreadIdleTimeout'], flag: 'task-worker-thread-idle-timeout', kind: 'duration' },
  { path: ['task', 'workerThreadNice'], flag: 'task-worker-thread-nice', kind: 'integer' },
  { path: ['task', 'exchangeThreadDecodingMinSize'], flag: 'task-exchange-thread-decoding-min-size', kind: 'size' },
  { path: ['query', 'maxLength'], flag: 'query-max-length', kind: 'integer' },
  { path: ['query', 'maxRunning'], flag: 'query-max-running', kind: 'integer' },
  { path: ['query', 'maxQueued'], flag: 'query-max-queued', kind: 'integer' },
  { path: ['query', 'maxRunningPerUser'], flag: 'query-max-running-per-user', kind: 'integer' },
  { path: ['query', 'clientTimeout'], flag: 'query-client-timeout', kind: 'duration' },
  { path: ['query', 'maxHistory'], flag: 'query-max-history', kind: 'integer' },
  { path: ['query', 'maxHistoryAge'], flag: 'query-max-history-age', kind: 'duration' },
  { path: ['query', 'requiredWorkersMaxWait'], flag: 'query-required-workers-max-wait', kind: 'duration' },
  { path: ['query', 'remoteTaskMaxErrorDuration'], flag: 'query-remote-task-max-error-duration', kind: 'duration' },
  { path: ['queryHistory', 'directory'], flag: 'query-history-directory', kind: 'string' },
  { path: ['queryHistory', 'maxCount'], flag: 'query-history-max-count', kind: 'integer' },
  { path: ['queryHistory', 'maxAge'], flag: 'query-history-max-age', kind: 'duration' },
  { path: ['queryHistory', 'maxSize'], flag: 'query-history-max-size', kind: 'size' },
  { path: ['task', 'clientTimeout'], flag: 'task-client-timeout', kind: 'duration' },
  { path: ['results', 'maxRowsPerResponse'], flag: 'results-max-rows', kind: 'integer' },
  { path: ['results', 'maxBytesPerResponse'], flag: 'results-max-bytes', kind: 'size' },
  { path: ['resourceGroups', 'configFile'], flag: 'resource-groups-config-file', kind: 'string' },
  { path: ['security', 'adminUsers'], flag: 'admin-users', kind: 'list' },
  { path: ['security', 'rulesFile'], flag: 'security-rules-file', kind: 'string' },
  { path: ['security', 'rulesRefreshPeriod'], flag: 'security-rules-refresh-period', kind: 'duration' },
  { path: ['security', 'groupFile'], flag: 'security-group-file', kind: 'string' },
  {
    path: ['internalCommunication', 'sharedSecret'],
    flag: 'internal-communication-shared-secret',
    kind: 'string',
    env: 'ENGINE_SHARED_SECRET',
  },
  { path: ['shutdown', 'gracePeriod'], flag: 'shutdown-grace-period', kind: 'duration' },
  { path: ['log', 'level'], flag: 'log-level', kind: 'string' },
  ...AUTHENTICATION_SETTINGS,
];

/** `['memory', 'queryMaxMemoryPerNode']` -> `ENGINE_MEMORY_QUERY_MAX_MEMORY_PER_NODE`. */
export function envName(setting: Setting): string {
  if (setting.env !== undefined) return setting.env;
  return ['ENGINE', ...setting.path.map((p) => p.replace(/[A-Z]/g, (c) => `_${c}`))].join('_').toUpperCase();
}

/** The dotted path shown in messages: `memory.queryMaxMemoryPerNode`. */
export function settingKey(setting: Setting): string {
  return setting.path.join('.');
}
