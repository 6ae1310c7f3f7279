// What GET /metrics reports, from the same measurements as GET /v1/status and the web interface:
// every node its state, process CPU, memory, event-loop delay, I/O, tasks, splits and exchange
// bytes; a coordinator also its queries by state, the queries' counters (ended by state, failures by
// type, input rows and bytes, CPU time) and its nodes by state. No series per query.

import { FAILURE_TYPES } from '../../coordinator/query-counters.js';
import { QUERY_STATES } from '../../coordinator/query-state.js';
import { exchangeBytes } from '../../worker/exchange-counters.js';
import { connectorIo } from '../../spi/connector-io.js';
import { NODE_STATES } from '../../internode/node-status.js';
import { processIo } from '../process-io.js';
import type { NodeMetrics } from '../node-metrics.js';
import type { ServerContext } from '../server-context.js';
import type { RouteCount } from '../http-request-counts.js';
import { healthCheckFamilies } from './health-check-families.js';
import { bufferPool } from '../../exec/buffer-pool.js';
import type { MetricFamily, MetricType } from './prometheus-text.js';

const family = (name: string, type: MetricType, help: string, samples: MetricFamily['samples']): MetricFamily => ({
  name,
  type,
  help,
  samples,
});
const one = (value: number) => [{ value }];

/** `metrics`: a sample of the node's figures (its CPU loads are not reported: CPU time is, as a counter). */
export function nodeMetricFamilies(server: ServerContext, metrics: NodeMetrics): MetricFamily[] {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  const delay = metrics.eventLoopDelay;
  const workload = server.workload();
  const io = processIo();
  const state = server.nodeState.state;
  const families: MetricFamily[] = [
    family('engine_node_info', 'gauge', 'This node: 1, labelled with its identity', [
      {
        labels: {
          node_id: server.node.nodeId,
          environment: server.node.environment,
          version: server.node.version,
          coordinator: String(server.node.coordinator),
        },
        value: 1,
      },
    ]),
    family(
      'engine_node_state',
      'gauge',
      "1 for the node's state (ACTIVE, ISOLATING, ISOLATED, SHUTTING_DOWN, INACTIVE), 0 for the others",
      NODE_STATES.map((s) => ({ labels: { state: s }, value: s === state ? 1 : 0 })),
    ),
    family(
      'process_start_time_seconds',
      'gauge',
      'When the process started, in seconds since the epoch',
      one(server.node.startTime / 1000),
    ),
    family('process_cpu_seconds', 'counter', 'CPU time of the process (user and system, every thread)', one((cpu.user + cpu.system) / 1e6)),
  ];
  families.push(
    family('process_resident_memory_bytes', 'gauge', 'Resident memory of the process', one(memory.rss)),
    family('engine_heap_used_bytes', 'gauge', 'V8 heap in use (query memory lives there)', one(memory.heapUsed)),
    family('engine_heap_limit_bytes', 'gauge', 'Largest the V8 heap may grow', one(metrics.heapAvailable)),
    family('engine_memory_pool_max_bytes', 'gauge', "Memory the node's queries may reserve together (memory.nodeMemory)", [
      { labels: { pool: 'general' }, value: server.nodeMemory.limitBytes },
    ]),
    family('engine_memory_pool_reserved_bytes', 'gauge', "Memory the node's queries and tasks reserve now", [
      { labels: { pool: 'general' }, value: server.nodeMemory.reservedBytes },
    ]),
    family(
      'engine_buffer_pool_held_bytes',
      'gauge',
      "Freed hash-table buffers the main thread's pool keeps for reuse (within the node's memory, not reserved by any query; each worker thread's pool holds at most as much, unreported)",
      one(bufferPool().heldBytes),
    ),
    family(
      'engine_event_loop_delay_p50_seconds',
      'gauge',
      `Median delay of the event loop over the last ${delay.windowSeconds} seconds`,
      one(delay.p50Millis / 1000),
    ),
    family(
      'engine_event_loop_delay_p99_seconds',
      'gauge',
      `99th percentile delay of the event loop over the last ${delay.windowSeconds} seconds`,
      one(delay.p99Millis / 1000),
    ),
    family(
      'engine_event_loop_delay_max_seconds',
      'gauge',
      `Longest delay of the event loop over the last ${delay.windowSeconds} seconds`,
      one(delay.maxMillis / 1000),
    ),
    family('engine_tasks_running', 'gauge', 'Tasks running on this node', one(workload.runningTasks)),
    family('engine_splits', 'gauge', "Splits of this node's tasks and queries, by state", [
      { labels: { state: 'queued' }, value: workload.queuedSplits },
      { labels: { state: 'running' }, value: workload.runningSplits },
    ]),
    family(
      'engine_output_buffered_bytes',
      'gauge',
      'Output not yet taken by its reader (query results, task output)',
      one(workload.bufferedOutputBytes),
    ),
    family('engine_exchange_sent_bytes', 'counter', "Bytes of pages this node's tasks sent to other nodes", one(exchangeBytes.sent)),
    family(
      'engine_exchange_received_bytes',
      'counter',
      "Bytes of pages this node's exchanges received from other nodes",
      one(exchangeBytes.received),
    ),
    family(
      'engine_connector_read_bytes',
      'counter',
      "Bytes this node's connectors read from storage and other systems (lake files and objects, PostgreSQL results)",
      one(connectorIo.readBytes),
    ),
  );
  families.push(...httpRequestFamilies(server));
  if (io !== undefined) {
    families.push(
      family(
        'process_storage_read_bytes',
        'counter',
        'Bytes the process read from storage (/proc/self/io read_bytes)',
        one(io.storageReadBytes),
      ),
      family(
        'process_storage_written_bytes',
        'counter',
        'Bytes the process wrote to storage (/proc/self/io write_bytes)',
        one(io.storageWriteBytes),
      ),
    );
  }
  if (server.node.coordinator) families.push(...coordinatorFamilies(server));
  return families;
}

function coordinatorFamilies(server: ServerContext): MetricFamily[] {
  const queries = server.queries;
  const byState = new Map<string, number>();
  for (const q of queries.list()) if (!q.done) byState.set(q.state, (byState.get(q.state) ?? 0) + 1);
  const counters = queries.counters;
  // Ended queries' figures plus the running ones' so far: a query's figures only grow, so the sums do too.
  const totals = counters.liveTotals(queries.list());
  const nodes = [server.nodeState.state, ...server.nodes.all().map((n) => (n.failedLastCheck ? 'UNREACHABLE' : (n.state ?? 'INACTIVE')))];
  const nodeStates = [...NODE_STATES, 'UNREACHABLE'];
  return [
    family(
      'engine_queries',
      'gauge',
      'Queries not yet ended, by state',
      QUERY_STATES.filter((s) => s !== 'FINISHED' && s !== 'FAILED').map((s) => ({ labels: { state: s }, value: byState.get(s) ?? 0 })),
    ),
    family('engine_queries_submitted', 'counter', 'Queries submitted to this coordinator', one(counters.submitted)),
    family('engine_queries_completed', 'counter', 'Queries that ended, by final state', [
      { labels: { state: 'FINISHED' }, value: counters.finished },
      { labels: { state: 'FAILED' }, value: counters.failed },
    ]),
    family(
      'engine_query_failures',
      'counter',
      'Queries that failed, by error type',
      FAILURE_TYPES.map((t) => ({ labels: { type: t }, value: counters.failuresByType.get(t) ?? 0 })),
    ),
    family('engine_query_input_rows', 'counter', 'Rows the scans of queries read', one(totals.rows)),
    family('engine_query_input_bytes', 'counter', 'Bytes the scans of queries read', one(totals.bytes)),
    family(
      'engine_query_cpu_seconds',
      'counter',
      'CPU time of queries (approximate: see docs/statistics.md)',
      one(totals.cpuMillis / 1000),
    ),
    family(
      'engine_cluster_nodes',
      'gauge',
      'Nodes this coordinator knows (itself included), by state; UNREACHABLE: its last health check failed',
      nodeStates.map((s) => ({ labels: { state: s }, value: nodes.filter((n) => n === s).length })),
    ),
    family(
      'engine_cluster_draining_nodes',
      'gauge',
      'Nodes ISOLATING or SHUTTING_DOWN: their work is draining',
      one(nodes.filter((n) => n === 'ISOLATING' || n === 'SHUTTING_DOWN').length),
    ),
    ...healthCheckFamilies(server.nodes.all()),
  ];
}

/** Requests answered by method and route, and their body bytes each way. */
function httpRequestFamilies(server: ServerContext): MetricFamily[] {
  const counts = server.metrics.httpRequests.entries();
  const samples = (pick: (c: RouteCount) => number) =>
    counts.map((c) => ({ labels: { method: c.method, route: c.route }, value: pick(c) }));
  return [
    family(
      'engine_http_requests',
      'counter',
      'HTTP requests this node answered, by method and route',
      samples((c) => c.requests),
    ),
    family(
      'engine_http_request_body_bytes',
      'counter',
      'Bytes of the request bodies, by method and route',
      samples((c) => c.requestBytes),
    ),
    family(
      'engine_http_response_body_bytes',
      'counter',
      'Bytes of the response bodies, by method and route',
      samples((c) => c.responseBytes),
    ),
  ];
}
