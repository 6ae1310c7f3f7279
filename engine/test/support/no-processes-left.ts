// A mocha root hook: once every test has run, no process the tests started (a server, a worker, a
// CLI run) may still be running. The suite runs with `exit: true`, so a handle left open cannot
// hold the run at its end; a process left behind fails it here instead of outliving it.

import { readdirSync, readFileSync } from 'node:fs';

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
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (command) state ppid ...": the command may hold spaces and parentheses.
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    if (Number(ppid) !== process.pid || state === 'Z') continue;
    children.push({ pid: Number(pid), command: stat.slice(stat.indexOf('(') + 1, close) });
  }
  return children;
}

export const mochaHooks = {
  afterAll(): void {
    const left = liveChildren();
    if (left.length > 0) throw new Error(`processes the tests started are still running: ${left.map((p) => `${p.pid} (${p.command})`).join(', ')}`);
  },
};
