// What the `system` catalog reads from the running server. The server supplies an implementation.

export interface NodeRow {
  nodeId: string;
  httpUri: string;
  nodeVersion: string;
  coordinator: boolean;
  state: string;
}

export interface QueryRow {
  queryId: string;
  state: string;
  user: string;
  source: string | null;
  query: string;
  errorCode: string | null;
  /** Epoch milliseconds. */
  created: number;
  started: number | null;
  end: number | null;
}

export interface TaskRow {
  nodeId: string;
  taskId: string;
  stageId: string;
  queryId: string;
  state: string;
  splits: number;
  completedSplits: number;
  rawInputRows: number;
  outputRows: number;
  /** Epoch milliseconds. */
  created: number;
  end: number | null;
}

export interface SystemRuntime {
  nodes(): NodeRow[];
  /** The queries `user` (the session's user) may see. */
  queries(user: string): QueryRow[];
  /** The tasks of the queries `user` may see. */
  tasks(user: string): TaskRow[];
}
