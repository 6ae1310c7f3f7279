// metrics-server in process: every resolution period it samples the kubelet's running containers
// (cumulative CPU time and resident memory of each container's process group, as the kubelet's
// /metrics/resource reports its cgroups) and the node, and keeps the last two samples of each: CPU
// usage is the rate between them over that window, as metrics-server computes it; a container with
// one sample only (just started, or restarted) has no usage yet.
import { groupUsage, machineUsage, type Usage } from '../kubelet/process-usage.js';

export interface ResourceSource {
  nodeName: string;
  runningContainers(): { namespace: string; pod: string; podUid: string; container: string; processGroup: number }[];
}

interface Sample {
  timeMs: number;
  usage: Usage;
}

interface Series {
  namespace: string;
  pod: string;
  podUid: string;
  container: string;
  previous?: Sample;
  last: Sample;
}

/** A measurement over a window: CPU in cores, memory in bytes. */
export interface WindowedUsage {
  cpuCores: number;
  memoryBytes: number;
  timestampMs: number;
  windowMs: number;
}

export interface PodUsage {
  namespace: string;
  pod: string;
  podUid: string;
  timestampMs: number;
  windowMs: number;
  containers: { name: string; usage: WindowedUsage }[];
}

function rate(series: { previous?: Sample; last: Sample }): WindowedUsage | undefined {
  const { previous, last } = series;
  if (!previous || last.timeMs <= previous.timeMs || last.usage.cpuSeconds < previous.usage.cpuSeconds) return undefined;
  const windowMs = last.timeMs - previous.timeMs;
  return {
    cpuCores: ((last.usage.cpuSeconds - previous.usage.cpuSeconds) * 1000) / windowMs,
    memoryBytes: last.usage.memoryBytes,
    timestampMs: last.timeMs,
    windowMs,
  };
}

export class MetricsServer {
  /** By pod uid / container / process group (a restarted container is a new series). */
  private series = new Map<string, Series>();
  private node?: { previous?: Sample; last: Sample };
  private timer?: NodeJS.Timeout;
  private scraping = false;

  constructor(
    private readonly source: ResourceSource,
    /** metrics-server's --metric-resolution (15 s by default there). */
    readonly resolutionMs: number,
  ) {}

  get nodeName(): string {
    return this.source.nodeName;
  }

  start(): void {
    void this.scrape();
    this.timer = setInterval(() => void this.scrape(), this.resolutionMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async scrape(): Promise<void> {
    if (this.scraping) return;
    this.scraping = true;
    try {
      const containers = this.source.runningContainers();
      const usage = await groupUsage(new Set(containers.map((c) => c.processGroup)));
      const node = await machineUsage();
      const timeMs = Date.now();
      const next = new Map<string, Series>();
      for (const c of containers) {
        const u = usage.get(c.processGroup);
        if (!u) continue;
        const key = `${c.podUid}/${c.container}/${c.processGroup}`;
        next.set(key, {
          namespace: c.namespace,
          pod: c.pod,
          podUid: c.podUid,
          container: c.container,
          previous: this.series.get(key)?.last,
          last: { timeMs, usage: u },
        });
      }
      this.series = next;
      this.node = { previous: this.node?.last, last: { timeMs, usage: node } };
    } finally {
      this.scraping = false;
    }
  }

  /** Pods whose every running container has a usage over a window (metrics-server skips the others). */
  pods(): PodUsage[] {
    const byPod = new Map<string, { series: Series; usage?: WindowedUsage }[]>();
    for (const s of this.series.values()) byPod.set(s.podUid, [...(byPod.get(s.podUid) ?? []), { series: s, usage: rate(s) }]);
    const out: PodUsage[] = [];
    for (const entries of byPod.values()) {
      if (entries.some((e) => !e.usage)) continue;
      const first = entries[0];
      const usages = entries.map((e) => e.usage!);
      out.push({
        namespace: first.series.namespace,
        pod: first.series.pod,
        podUid: first.series.podUid,
        timestampMs: Math.max(...usages.map((u) => u.timestampMs)),
        windowMs: Math.max(...usages.map((u) => u.windowMs)),
        containers: entries.map((e) => ({ name: e.series.container, usage: e.usage! })).sort((a, b) => a.name.localeCompare(b.name)),
      });
    }
    return out;
  }

  nodeUsage(): WindowedUsage | undefined {
    return this.node && rate(this.node);
  }
}
