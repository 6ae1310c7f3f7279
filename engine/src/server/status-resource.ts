// GET /v1/status: what an autoscaler needs to know about this node — identity, state, CPU, memory,
// workload (see node-workload.ts), I/O (process-io.ts, exchange-counters.ts, connector-io.ts) and how late the event loop runs (eventLoopDelay, in milliseconds).

import type Router from '@koa/router';
import { formatDataSize } from '../config/data-size.js';
import { formatDuration } from '../config/duration.js';
import { exchangeBytes } from '../worker/exchange-counters.js';
import { connectorIo } from '../spi/connector-io.js';
import type { NodeMetrics } from './node-metrics.js';
import { processIo } from './process-io.js';
import type { ServerContext } from './server-context.js';
import { bufferPool } from '../exec/buffer-pool.js';

export function statusRoutes(router: Router, server: ServerContext): void {
  router.get('/v1/status', (ctx) => {
    ctx.body = nodeStatusJson(server, server.metrics.sample());
  });
}

/** This node's status; `metrics` is a sample of the caller's meter (the CPU loads cover the time since its last sample). */
export function nodeStatusJson(server: ServerContext, metrics: NodeMetrics) {
  // What each query holds on this node: its tasks here, and for a query coordinated here its root stage too.
  const byQuery = server.tasks.reservationsByQuery();
  for (const q of server.queries.list()) if (!q.done) byQuery.set(q.id, q.memory.reservedBytes);
  const reservations = Object.fromEntries([...byQuery].filter(([, bytes]) => bytes > 0));
  const nodeMemory = server.nodeMemory.limitBytes;
  const reserved = server.nodeMemory.reservedBytes;
  return {
    nodeId: server.node.nodeId,
    state: server.nodeState.state,
    nodeVersion: { version: server.node.version },
    environment: server.node.environment,
    coordinator: server.node.coordinator,
    uptime: formatDuration(Date.now() - server.node.startTime),
    externalAddress: server.node.internalUri,
    internalAddress: server.node.internalUri,
    // Lets `engine node drain --local` wait until this very process is gone.
    pid: process.pid,
    processors: metrics.processors,
    processCpuLoad: metrics.processCpuLoad,
    systemCpuLoad: metrics.systemCpuLoad,
    heapUsed: metrics.heapUsed,
    heapAvailable: metrics.heapAvailable,
    nonHeapUsed: metrics.nonHeapUsed,
    residentBytes: metrics.residentBytes,
    io: {
      ...processIo(),
      exchangeSentBytes: exchangeBytes.sent,
      exchangeReceivedBytes: exchangeBytes.received,
      connectorReadBytes: connectorIo.readBytes,
    },
    eventLoopDelay: metrics.eventLoopDelay,
    memoryInfo: {
      availableProcessors: metrics.processors,
      totalNodeMemory: formatDataSize(nodeMemory),
      pools: {
        general: {
          maxBytes: nodeMemory,
          reservedBytes: reserved,
          reservedRevocableBytes: 0,
          freeBytes: nodeMemory - reserved,
          queryMemoryReservations: reservations,
        },
      },
      // Freed hash-table buffers kept for reuse: part of the node memory, not reserved by a query, given back on demand.
      // The main thread's pool; each worker thread's holds at most the same share (memory.bufferPoolSize / (threads + 1)).
      bufferPool: { perThreadMaxBytes: bufferPool().limitBytes, mainThreadHeldBytes: bufferPool().heldBytes },
    },
    workload: server.workload(),
  };
}
