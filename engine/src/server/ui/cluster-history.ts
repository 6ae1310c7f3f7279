// The coordinator's own record of its cluster over the last 15 minutes, so that the overview's charts
// are full when the page opens: every SAMPLE_INTERVAL_MILLIS it samples the queries (running, queued,
// blocked on their client), the nodes by state, the runnable splits, the memory reserved against the
// cluster's, the input rows and bytes per second and the CPU cores busy, and per node the figures of
// its last status. Rates are measured between two samples over the queries' counters.

import { CpuLoadMeter, type NodeMetrics } from '../node-metrics.js';
import type { ServerContext } from '../server-context.js';
import { clusterNodes, nodeFigures, type ServerClusterNode } from './cluster-nodes.js';
import type { ClusterSample, NodeSeries } from './ui-api.js';

export const SAMPLE_INTERVAL_MILLIS = 5000;
export const HISTORY_WINDOW_MILLIS = 15 * 60_000;

export class ClusterHistory {
  private readonly samples: ClusterSample[] = [];
  private readonly nodeSeries = new Map<string, NodeSeries>();
  private readonly cpu = new CpuLoadMeter();
  private previous: { time: number; rows: number; bytes: number };
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly server: ServerContext) {
    this.previous = { time: server.node.startTime, rows: 0, bytes: 0 };
  }

  start(): void {
    this.sample();
    this.timer ??= setInterval(() => this.sample(), SAMPLE_INTERVAL_MILLIS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The samples taken after `since` (all of the window without it). */
  series(since = 0): ClusterSample[] {
    return this.samples.filter((s) => s.time > since);
  }

  nodeHistory(nodeId: string): NodeSeries | undefined {
    return this.nodeSeries.get(nodeId);
  }

  /** Takes a sample now (the timer calls it; tests may too). */
  sample(now = Date.now()): ClusterSample {
    const own: NodeMetrics = this.server.metrics.sample(this.cpu);
    const nodes = clusterNodes(this.server, own, now);
    const sample = this.figures(nodes, now);
    this.samples.push(sample);
    while (this.samples.length > 0 && this.samples[0]!.time < now - HISTORY_WINDOW_MILLIS) this.samples.shift();
    this.recordNodes(nodes, now);
    return sample;
  }

  private figures(nodes: readonly ServerClusterNode[], now: number): ClusterSample {
    const server = this.server;
    const running = server.queries.list().filter((q) => !q.done && q.state !== 'QUEUED');
    const totals = server.queries.counters.liveTotals(running);
    const seconds = Math.max(0.001, (now - this.previous.time) / 1000);
    const rate = (value: number, before: number) => Math.max(0, value - before) / seconds;
    const sample: ClusterSample = {
      time: now,
      runningQueries: server.queries.runningCount(),
      queuedQueries: server.queries.queuedCount(),
      blockedQueries: running.filter((q) => q.buffer?.waitingForClient === true).length,
      activeWorkers: nodes.filter((n) => !n.self && !n.coordinator && n.state === 'ACTIVE').length,
      drainingNodes: nodes.filter((n) => n.state === 'ISOLATING' || n.state === 'SHUTTING_DOWN').length,
      // This node's own tasks (its queries' splits run in tasks, here or on the workers), and every other node's.
      runnableSplits: server.tasks.queuedSplits() + server.tasks.runningSplits(),
      reservedBytes: 0,
      totalBytes: 0,
      inputRowsPerSecond: rate(totals.rows, this.previous.rows),
      inputBytesPerSecond: rate(totals.bytes, this.previous.bytes),
      cpuCores: 0,
    };
    this.previous = { time: now, rows: totals.rows, bytes: totals.bytes };
    for (const node of nodes) {
      if (node.state === 'UNREACHABLE' || node.status === undefined) continue;
      const f = nodeFigures(node.status);
      if (!node.self) sample.runnableSplits += f.queuedSplits + f.runningSplits;
      sample.reservedBytes += f.reservedBytes;
      sample.totalBytes += f.maxBytes;
      sample.cpuCores += f.processCpuLoad * f.processors;
    }
    return sample;
  }

  private recordNodes(nodes: readonly ServerClusterNode[], now: number): void {
    const seen = new Set<string>();
    for (const node of nodes) {
      if (node.status === undefined) continue;
      seen.add(node.nodeId);
      let series = this.nodeSeries.get(node.nodeId);
      if (series === undefined) this.nodeSeries.set(node.nodeId, (series = { time: [], figures: [] }));
      series.time.push(node.statusTime ?? now);
      series.figures.push(nodeFigures(node.status));
      while (series.time.length > 0 && series.time[0]! < now - HISTORY_WINDOW_MILLIS) {
        series.time.shift();
        series.figures.shift();
      }
    }
    // A node gone for the whole window has nothing left to show.
    for (const [nodeId, series] of this.nodeSeries)
      if (!seen.has(nodeId) && (series.time.at(-1) ?? 0) < now - HISTORY_WINDOW_MILLIS) this.nodeSeries.delete(nodeId);
  }
}
