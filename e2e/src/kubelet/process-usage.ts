// What a container's cgroup would account, read from /proc for the container's process group: CPU
// time (user + system of every live process of the group, plus what their reaped children used, as
// cpuacct counts exited processes too) and resident memory. The machine's own usage for the node.
import fs from 'node:fs/promises';
import os from 'node:os';

/** USER_HZ: /proc reports times in clock ticks of 1/100 s on Linux. */
const ticksPerSecond = 100;

export interface Usage {
  /** Cumulative CPU time in seconds. */
  cpuSeconds: number;
  /** Resident set size in bytes. */
  memoryBytes: number;
}

interface ProcStat {
  pgrp: number;
  cpuTicks: number;
  rssPages: number;
}

/** /proc/<pid>/stat: fields after the command name (which may hold spaces and parentheses). */
function parseStat(text: string): ProcStat | undefined {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): pgrp is field 5, utime..cstime fields 14-17, rss field 24.
  const field = (n: number) => Number(rest[n - 3]);
  if (rest.length < 22) return undefined;
  return { pgrp: field(5), cpuTicks: field(14) + field(15) + field(16) + field(17), rssPages: field(24) };
}

const pageSize = 4096;

/** The usage of every process group in `groups`, in one pass over /proc. */
export async function groupUsage(groups: Set<number>): Promise<Map<number, Usage>> {
  const usage = new Map<number, Usage>();
  if (groups.size === 0) return usage;
  const pids = (await fs.readdir('/proc')).filter((d) => /^\d+$/.test(d));
  await Promise.all(
    pids.map(async (pid) => {
      const stat = parseStat(await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''));
      if (!stat || !groups.has(stat.pgrp)) return;
      const u = usage.get(stat.pgrp) ?? { cpuSeconds: 0, memoryBytes: 0 };
      u.cpuSeconds += stat.cpuTicks / ticksPerSecond;
      u.memoryBytes += stat.rssPages * pageSize;
      usage.set(stat.pgrp, u);
    }),
  );
  return usage;
}

/** The machine's: busy CPU time of all cores (/proc/stat) and memory in use (total - available). */
export async function machineUsage(): Promise<Usage> {
  const cpuLine = (await fs.readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = cpuLine.slice(0, 8).reduce((a, b) => a + b, 0) - cpuLine[3] - (cpuLine[4] ?? 0);
  const meminfo = await fs.readFile('/proc/meminfo', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0) * 1024;
  return { cpuSeconds: busy / ticksPerSecond, memoryBytes: kb('MemTotal') - (kb('MemAvailable') || os.freemem()) };
}
