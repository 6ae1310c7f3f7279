// The shapes of the web interface's JSON endpoints (/ui/api/...), shared by the coordinator that
// answers them and the browser code that reads them (engine/ui). Types only: a declaration file,
// so both TypeScript projects can read it.

/** One query as the list and system.runtime.queries show it (see coordinator/query-summary.ts). */
export interface QuerySummary {
  queryId: string;
  state: string;
  user: string;
  source: string | null;
  query: string;
  resourceGroupId: string[] | null;
  /** Epoch milliseconds. */
  createTime: number;
  executionStartTime: number | null;
  endTime: number | null;
  elapsedMillis: number;
  queuedMillis: number;
  cpuMillis: number;
  peakMemoryBytes: number;
  /** Rows and bytes its scans read. */
  processedRows: number;
  processedBytes: number;
  /** Rows it returned to its client. */
  outputRows: number;
  totalSplits: number;
  completedSplits: number;
  /** Percent of its splits done (100 once FINISHED); null while it has no splits. */
  progress: number | null;
  errorName: string | null;
  errorType: string | null;
  errorMessage: string | null;
}

export type StateGroup = 'queued' | 'running' | 'finished' | 'failed';

export interface QueryListRow extends QuerySummary {
  /** Whether `query` was cut short (the detail has it whole). */
  queryTruncated: boolean;
}

/** GET /ui/api/queries */
export interface QueryListPage {
  /** Queries the user may see. */
  total: number;
  /** Of those, the ones the filters and search keep (at most the limit are in `queries`). */
  matched: number;
  /** The visible queries per state group, for the filter buttons. */
  counts: Record<StateGroup, number>;
  queries: QueryListRow[];
}

/** GET /ui/api/session, POST /ui/api/login */
export interface UiSession {
  user: string;
  admin: boolean;
}

/** The cluster's figures at one moment (the overview's charts). */
export interface ClusterSample {
  time: number;
  runningQueries: number;
  queuedQueries: number;
  /** Running queries whose results wait for their client to take them (their buffer is full). */
  blockedQueries: number;
  activeWorkers: number;
  /** Nodes ISOLATING or SHUTTING_DOWN: their work is draining. */
  drainingNodes: number;
  runnableSplits: number;
  reservedBytes: number;
  totalBytes: number;
  inputRowsPerSecond: number;
  inputBytesPerSecond: number;
  /** Σ over nodes of process CPU load × processors: cores busy. */
  cpuCores: number;
}

/** GET /ui/api/cluster */
export interface ClusterAnswer {
  intervalMillis: number;
  windowMillis: number;
  nodesByState: Record<string, number>;
  samples: ClusterSample[];
}

/** A node of GET /ui/api/nodes; `S` is its GET /v1/status as last read. */
export interface ClusterNode<S = Readonly<Record<string, unknown>>> {
  nodeId: string;
  uri: string;
  coordinator: boolean;
  /** Whether this is the node answering (the coordinator). */
  self: boolean;
  /** The node's own state, or UNREACHABLE when its last health check failed. */
  state: string;
  version: string;
  /** When the status was taken (epoch milliseconds); absent when none was read yet. */
  statusTime?: number;
  status?: S;
}

/** The figures of a node's status its charts follow. */
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

/** A node's figures over time, one entry per sample. */
export interface NodeSeries {
  time: number[];
  figures: NodeFigures[];
}

/** GET /ui/api/nodes/{nodeId} */
export interface NodeDetail<S = Readonly<Record<string, unknown>>> {
  node: ClusterNode<S>;
  history: NodeSeries;
}

export interface PlanGraphNode {
  id: number;
  kind: string;
  label: string;
  /** The plan node ids this node reads, within its fragment. */
  sources: number[];
  /** A RemoteSource: the fragments it reads over an exchange. */
  remoteFragments?: number[];
  exchangeType?: string;
}

export interface PlanGraphFragment {
  id: number;
  partitioning: string;
  /** How its rows go to the fragment reading them: GATHER, REPARTITION (on outputKeys) or REPLICATE. */
  outputType: string;
  outputKeys: string[];
  /** The id of its root node. */
  root: number;
  nodes: PlanGraphNode[];
}
