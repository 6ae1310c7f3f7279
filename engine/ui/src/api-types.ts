// The shapes of the coordinator's /ui/api answers, as the browser reads them (the server's are in
// engine/src/server/ui/).

export interface Session {
  user: string;
  admin: boolean;
}

export interface QueryRow {
  queryId: string;
  state: string;
  user: string;
  source: string | null;
  query: string;
  queryTruncated: boolean;
  resourceGroupId: string[] | null;
  createTime: number;
  executionStartTime: number | null;
  endTime: number | null;
  elapsedMillis: number;
  queuedMillis: number;
  cpuMillis: number;
  peakMemoryBytes: number;
  processedRows: number;
  processedBytes: number;
  outputRows: number;
  totalSplits: number;
  completedSplits: number;
  progress: number | null;
  errorName: string | null;
  errorType: string | null;
  errorMessage: string | null;
}

export type StateGroup = 'queued' | 'running' | 'finished' | 'failed';

export interface QueryListPage {
  total: number;
  matched: number;
  counts: Record<StateGroup, number>;
  queries: QueryRow[];
}

export interface ClusterSample {
  time: number;
  runningQueries: number;
  queuedQueries: number;
  blockedQueries: number;
  activeWorkers: number;
  drainingNodes: number;
  runnableSplits: number;
  reservedBytes: number;
  totalBytes: number;
  inputRowsPerSecond: number;
  inputBytesPerSecond: number;
  cpuCores: number;
}

export interface ClusterAnswer {
  intervalMillis: number;
  windowMillis: number;
  nodesByState: Record<string, number>;
  samples: ClusterSample[];
}

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

export interface ClusterNode {
  nodeId: string;
  uri: string;
  coordinator: boolean;
  self: boolean;
  state: string;
  version: string;
  statusTime?: number;
  status?: NodeStatus;
}

export interface NodeFigures {
  processors: number;
  processCpuLoad: number;
  heapUsed: number;
  residentBytes: number;
  reservedBytes: number;
  maxBytes: number;
  runningTasks: number;
  queuedSplits: number;
  runningSplits: number;
  eventLoopP99Millis: number;
}

export interface NodeDetail {
  node: ClusterNode;
  history: { time: number[]; figures: NodeFigures[] };
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

export interface PlanGraphNode {
  id: number;
  kind: string;
  label: string;
  sources: number[];
  remoteFragments?: number[];
  exchangeType?: string;
}

export interface PlanGraphFragment {
  id: number;
  partitioning: string;
  outputType: string;
  outputKeys: string[];
  root: number;
  nodes: PlanGraphNode[];
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
}
