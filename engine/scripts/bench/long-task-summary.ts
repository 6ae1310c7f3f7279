// What held the event loops over a run: the long-task log (ENGINE_LONG_TASK_MILLIS, long-task-log.ts)
// of every node of a bench run, added up per process and holder (operator and phase with its plan
// node, or the collector's kind), the biggest total first. `since`: only the lines stamped at or after
// it, as a bench's concurrency phase starts after its other phases in the same log.
//
//   node engine/dist/scripts/bench/long-task-summary.js LOG [SINCE_ISO_TIME]

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface LongTaskHolder {
  pid: number;
  /** The operator, phase and plan node, or `garbage collector (kind)`. */
  holder: string;
  count: number;
  totalMillis: number;
  maxMillis: number;
}

const LINE = /^(\S+) long task: pid (\d+) ([\d.]+) ms (.*?)(?:, last input page \d+ rows\))?$/;

export function summarizeLongTasks(lines: readonly string[], since?: string): LongTaskHolder[] {
  const holders = new Map<string, LongTaskHolder>();
  for (const line of lines) {
    const match = LINE.exec(line);
    if (match === null || (since !== undefined && match[1] < since)) continue;
    const [, , pid, millisText, what] = match;
    // An operator's holder ends with its plan node; the rows of its last page differ stretch by stretch.
    const holder = what.includes('(plan node') ? `${what})` : what;
    const key = `${pid} ${holder}`;
    const entry = holders.get(key) ?? { pid: Number(pid), holder, count: 0, totalMillis: 0, maxMillis: 0 };
    const millis = Number(millisText);
    entry.count++;
    entry.totalMillis += millis;
    entry.maxMillis = Math.max(entry.maxMillis, millis);
    holders.set(key, entry);
  }
  return [...holders.values()].sort((a, b) => b.totalMillis - a.totalMillis);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, since] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: long-task-summary.js LOG [SINCE_ISO_TIME]');
  console.log(`${'count'.padStart(6)}${'total ms'.padStart(10)}${'max ms'.padStart(9)}  pid holder`);
  for (const h of summarizeLongTasks(readFileSync(file, 'utf8').split('\n'), since).slice(0, 30))
    console.log(
      `${String(h.count).padStart(6)}${h.totalMillis.toFixed(0).padStart(10)}${h.maxMillis.toFixed(1).padStart(9)}  ${h.pid} ${h.holder}`,
    );
}
