// The shapes of the coordinator's /ui/api answers, as the browser reads them: those the server
// declares (engine/src/server/ui/ui-api.d.ts), and the parts of GET /v1/query/{queryId} and
// GET /v1/status the pages read.

import type { ClusterNode as ServerNode, NodeDetail as ServerNodeDetail, PlanGraphFragment, QueryListRow } from '../../src/server/ui/ui-api.js';

export type { ClusterAnswer, ClusterSample, NodeFigures, PlanGraphFragment, PlanGraphNode, QueryListPage, StateGroup, UiSession as Session } from '../../src/server/ui/ui-api.js';
export type QueryRow = QueryListRow;
export type ClusterNode = ServerNode<NodeStatus>;
export type NodeDetail = ServerNodeDetail<NodeStatus>;

export interface NodeStatus {
  nodeId?: string;
  state?: string;
  uptime?: string;
  processors?: number;
  processCpuLoad?: number;
  systemCpuLoad?: number;
  heapUsed?: number;
  heapAvailable?: number;
  residentBytes?: number;
  eventLoopDelay?: { p50Millis: number; p99Millis: number; maxMillis: number; windowSeconds: number; maxSinceStartMillis: number };
  memoryInfo?: { pools?: { general?: { maxBytes: number; reservedBytes: number; freeBytes: number } } };
  workload?: { runningQueries: number; queuedQueries: number; runningTasks: number; queuedSplits: number; runningSplits: number; bufferedOutputBytes: number };
  io?: { storageReadBytes?: number; storageWriteBytes?: number; exchangeSentBytes: number; exchangeReceivedBytes: number };
}

export interface OperatorSummary {
  planNodeId: string;
  operatorType: string;
  inputPositions: number;
  outputPositions: number;
  addInputCpu: string;
  getOutputCpu: string;
  finishCpu: string;
  addInputWall: string;
  getOutputWall: string;
  finishWall: string;
  blockedWall: string;
}

export interface TaskJson {
  taskId: string;
  nodeId?: string;
  state: string;
  self?: string;
  stats: {
    createTime?: string;
    startTime?: string;
    endTime?: string;
    elapsedTime: string;
    totalCpuTime: string;
    totalBlockedTime: string;
    rawInputPositions: number;
    rawInputDataSize: string;
    outputPositions: number;
    outputDataSize: string;
    memoryReservation: string;
    peakMemoryReservation: string;
    totalSplits: number;
    completedSplits: number;
    runningSplits: number;
    queuedSplits: number;
    pipelines?: { operatorSummaries: OperatorSummary[] }[];
  };
}

export interface StageJson {
  stageId: string;
  state: string;
  tasks: TaskJson[];
  subStages: StageJson[];
  totalSplits?: number;
  completedSplits?: number;
  cpuTimeMillis?: number;
  wallTimeMillis?: number;
  processedRows?: number;
  processedBytes?: number;
}

export interface FailureInfo {
  type?: string;
  message?: string;
  stack?: string[];
  cause?: FailureInfo;
}

export interface QueryDetail {
  queryId: string;
  state: string;
  query: string;
  self: string;
  resourceGroupId?: string[];
  session: {
    user: string;
    source?: string;
    catalog?: string;
    schema?: string;
    timeZone?: string;
    remoteUserAddress?: string;
    userAgent?: string;
    clientInfo?: string;
    clientTags?: string[];
    systemProperties?: Record<string, string>;
  };
  queryStats: Record<string, string | number | boolean | undefined>;
  outputStage?: StageJson;
  errorType?: string;
  errorCode?: { code: number; name: string; type: string };
  failureInfo?: FailureInfo;
  finalQueryInfo?: boolean;
  plan?: PlanGraphFragment[] | null;
  /** The plan as EXPLAIN prints it (its fragments with their physical plans); null until it is planned. */
  planText?: string | null;
}
