// CPU, memory and event-loop figures of this process and machine for GET /v1/status. CPU loads are
// fractions (0..1) measured between successive calls (the first call measures since process start
// or boot).

import { cpus } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { EventLoopDelayMonitor, type EventLoopDelay } from './event-loop-delay.js';

interface CpuSample {
  at: number;
  processMicros: number;
  systemBusy: number;
  systemTotal: number;
}

export interface NodeMetrics {
  processors: number;
  processCpuLoad: number;
  systemCpuLoad: number;
  heapUsed: number;
  heapAvailable: number;
  nonHeapUsed: number;
  eventLoopDelay: EventLoopDelay;
}

export class NodeMetricsSampler {
  private last: CpuSample;
  private readonly eventLoop = new EventLoopDelayMonitor();

  constructor() {
    this.last = { at: Date.now() - process.uptime() * 1000, processMicros: 0, systemBusy: 0, systemTotal: 0 };
  }

  sample(): NodeMetrics {
    const now = takeSample();
    const processors = cpus().length || 1;
    const wallMicros = Math.max(1, (now.at - this.last.at) * 1000);
    const processCpuLoad = clamp((now.processMicros - this.last.processMicros) / (wallMicros * processors));
    const systemTotal = now.systemTotal - this.last.systemTotal;
    const systemCpuLoad = systemTotal > 0 ? clamp((now.systemBusy - this.last.systemBusy) / systemTotal) : 0;
    this.last = now;
    const memory = process.memoryUsage();
    return {
      processors,
      processCpuLoad,
      systemCpuLoad,
      heapUsed: memory.heapUsed,
      heapAvailable: getHeapStatistics().heap_size_limit,
      nonHeapUsed: memory.external,
      eventLoopDelay: this.eventLoop.sample(),
    };
  }

  close(): void {
    this.eventLoop.close();
  }
}

function takeSample(): CpuSample {
  const usage = process.cpuUsage();
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { at: Date.now(), processMicros: usage.user + usage.system, systemBusy: busy, systemTotal: total };
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
