// CPU, memory and event-loop figures of this process and machine for GET /v1/status. CPU loads are
// fractions (0..1) measured between successive calls of one meter (the first call measures since
// process start or boot); each reader that samples on its own schedule (the status resource, the
// coordinator's cluster history) has its own CpuLoadMeter, so neither shortens the other's window.

import { cpus } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { EventLoopDelayMonitor, type EventLoopDelay } from './event-loop-delay.js';
import { HttpRequestCounts } from './http-request-counts.js';

interface CpuSample {
  at: number;
  processMicros: number;
  systemBusy: number;
  systemTotal: number;
  processors: number;
}

export interface CpuLoad {
  processors: number;
  /** This process's CPU time over the wall time since the last sample, over all processors (0..1). */
  processCpuLoad: number;
  /** The machine's busy time over its total since the last sample (0..1). */
  systemCpuLoad: number;
}

export interface NodeMetrics extends CpuLoad {
  heapUsed: number;
  heapAvailable: number;
  nonHeapUsed: number;
  /** The process's resident set size. */
  residentBytes: number;
  eventLoopDelay: EventLoopDelay;
}

/** CPU loads between successive calls of sample(). */
export class CpuLoadMeter {
  private last: CpuSample = { at: Date.now() - process.uptime() * 1000, processMicros: 0, systemBusy: 0, systemTotal: 0, processors: 1 };

  sample(): CpuLoad {
    const now = takeSample();
    const processors = now.processors;
    const wallMicros = Math.max(1, (now.at - this.last.at) * 1000);
    const processCpuLoad = clamp((now.processMicros - this.last.processMicros) / (wallMicros * processors));
    const systemTotal = now.systemTotal - this.last.systemTotal;
    const systemCpuLoad = systemTotal > 0 ? clamp((now.systemBusy - this.last.systemBusy) / systemTotal) : 0;
    this.last = now;
    return { processors, processCpuLoad, systemCpuLoad };
  }
}

export class NodeMetricsSampler {
  private readonly cpu = new CpuLoadMeter();
  private readonly eventLoop = new EventLoopDelayMonitor();
  /** The HTTP requests this node answered (GET /metrics). */
  readonly httpRequests = new HttpRequestCounts();

  /** The figures now; the CPU loads are those of `cpu` (this sampler's own meter by default). */
  sample(cpu: CpuLoadMeter = this.cpu): NodeMetrics {
    const memory = process.memoryUsage();
    return {
      ...cpu.sample(),
      heapUsed: memory.heapUsed,
      heapAvailable: getHeapStatistics().heap_size_limit,
      nonHeapUsed: memory.external,
      residentBytes: memory.rss,
      eventLoopDelay: this.eventLoop.sample(),
    };
  }

  close(): void {
    this.eventLoop.close();
  }
}

/** One os.cpus() per sample (it reads several /proc and /sys files): the processors are counted from it too. */
function takeSample(): CpuSample {
  const usage = process.cpuUsage();
  const processors = cpus();
  let busy = 0;
  let total = 0;
  for (const cpu of processors) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return {
    at: Date.now(),
    processMicros: usage.user + usage.system,
    systemBusy: busy,
    systemTotal: total,
    processors: processors.length || 1,
  };
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
