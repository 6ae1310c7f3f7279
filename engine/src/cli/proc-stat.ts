// A process's line of /proc/<pid>/stat, read on Linux: "pid (command) state ppid ...", where the
// command may hold spaces and parentheses.

import { readFileSync } from 'node:fs';

export interface ProcStat {
  command: string;
  /** One letter: R running, S sleeping, Z zombie (exited, not reaped yet), ... */
  state: string;
  ppid: number;
}

/** The process's stat, or undefined when it does not exist (or /proc cannot be read). */
export function procStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = stat.lastIndexOf(')');
  const [state, ppid] = stat.slice(close + 2).split(' ');
  return { command: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid) };
}
