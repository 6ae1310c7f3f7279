// A mocha root hook: once every test has run, no process the tests started (a server, a worker, a
// CLI run) may still be running. The suite runs with `exit: true`, so a handle left open cannot
// hold the run at its end; a process left behind fails it here instead of outliving it.

import { readdirSync } from 'node:fs';
import { procStat } from '../../src/cli/proc-stat.js';

interface ProcessEntry {
  pid: number;
  command: string;
}

/** This process's live children (exited ones not reaped yet, zombies, are gone). */
function liveChildren(): ProcessEntry[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return []; // no /proc: nothing to check with
  }
  const children: ProcessEntry[] = [];
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat === undefined || stat.ppid !== process.pid || stat.state === 'Z') continue;
    children.push({ pid: Number(pid), command: stat.command });
  }
  return children;
}

export const mochaHooks = {
  afterAll(): void {
    const left = liveChildren();
    if (left.length > 0)
      throw new Error(`processes the tests started are still running: ${left.map((p) => `${p.pid} (${p.command})`).join(', ')}`);
  },
};
