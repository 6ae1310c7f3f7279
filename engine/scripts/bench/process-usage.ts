// What a process has used so far, from Linux's /proc: CPU time (every thread, user and system) and
// bytes written through write calls (files and sockets alike: for a server sending a result, what it
// sent), and the CPU time of this process's children once they have exited and been waited for.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessUsage {
  cpuMillis: number;
  /** CPU time of the main thread alone (its event loop), from /proc/<pid>/task/<pid>/stat; undefined where /proc cannot tell. */
  mainThreadCpuMillis: number | undefined;
  /** /proc/<pid>/io wchar. */
  writtenBytes: number | undefined;
  /** Minor page faults (every thread): first touches of fresh memory, about 4 ms per MB on a VM. */
  minorFaults: number;
}

let ticksPerSecond: number | undefined;

/** The process's CPU time and written bytes so far, or undefined where /proc cannot tell. */
export function processUsage(pid: number | undefined): ProcessUsage | undefined {
  if (pid === undefined) return undefined;
  const fields = statFields(`/proc/${pid}/stat`);
  if (fields === undefined) return undefined;
  const main = statFields(`/proc/${pid}/task/${pid}/stat`);
  return {
    cpuMillis: cpuMillisOf(fields),
    mainThreadCpuMillis: main === undefined ? undefined : cpuMillisOf(main),
    writtenBytes: writtenBytes(pid),
    minorFaults: Number(fields[MINFLT]),
  };
}

/** CPU time of this process's children that exited and were waited for (cutime + cstime). */
export function reapedChildrenCpuMillis(): number | undefined {
  const fields = statFields(`/proc/${process.pid}/stat`);
  return fields === undefined ? undefined : ticksToMillis(Number(fields[CUTIME]) + Number(fields[CSTIME]));
}

/** The difference of two readings (undefined when either is missing). */
export function usageBetween(before: ProcessUsage | undefined, after: ProcessUsage | undefined): ProcessUsage | undefined {
  if (before === undefined || after === undefined) return undefined;
  const written =
    before.writtenBytes === undefined || after.writtenBytes === undefined ? undefined : after.writtenBytes - before.writtenBytes;
  const main =
    before.mainThreadCpuMillis === undefined || after.mainThreadCpuMillis === undefined
      ? undefined
      : after.mainThreadCpuMillis - before.mainThreadCpuMillis;
  return {
    cpuMillis: after.cpuMillis - before.cpuMillis,
    mainThreadCpuMillis: main,
    writtenBytes: written,
    minorFaults: after.minorFaults - before.minorFaults,
  };
}

// /proc/<pid>/stat after "pid (command) ": field 3 (state) is index 0, so field n is index n - 3.
const MINFLT = 10 - 3;
const UTIME = 14 - 3;
const STIME = 15 - 3;
const CUTIME = 16 - 3;
const CSTIME = 17 - 3;

/** User and system time of a /proc stat line. */
function cpuMillisOf(fields: readonly string[]): number {
  return ticksToMillis(Number(fields[UTIME]) + Number(fields[STIME]));
}

function statFields(path: string): string[] | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function writtenBytes(pid: number): number | undefined {
  try {
    const match = /^wchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function ticksToMillis(ticks: number): number {
  ticksPerSecond ??= clockTicks();
  return (ticks * 1000) / ticksPerSecond;
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
