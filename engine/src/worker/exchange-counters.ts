// Bytes of pages that crossed the network between tasks, counted where they cross: what this node's
// output buffers served over HTTP (GET /v1/task/{taskId}/results/...) and what its exchange clients
// received from other nodes. Pages exchanged in process (a task reading a task of its own node) are
// not counted: they never became bytes. GET /metrics and GET /v1/status report them.

export const exchangeBytes = {
  /** Arrow IPC bytes this node's task results endpoint sent. */
  sent: 0,
  /** Arrow IPC bytes this node's exchange clients received from other nodes. */
  received: 0,
};
