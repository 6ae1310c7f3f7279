// A debugging aid for a held event loop: with ENGINE_LONG_TASK_MILLIS set (say 20), every stretch of
// an operator's code that ran longer than that without giving the loop a turn is logged, with the
// operator, its phase and the rows of its last page, and so is every garbage-collector pause as long
// (event-loop-delay.ts).
// The lines go to the file ENGINE_LONG_TASK_LOG when set (the bench keeps no server output), else to
// stderr. Off by default: then it costs one comparison per stretch.

import { appendFileSync } from 'node:fs';

/** The threshold, or undefined when the log is off. */
export const longTaskMillis: number | undefined = parseThreshold(process.env.ENGINE_LONG_TASK_MILLIS);
const logFile = process.env.ENGINE_LONG_TASK_LOG || undefined;

/** Logs one stretch that held the loop `millis` ms; `what` says whose it was. */
export function logLongTask(millis: number, what: string): void {
  // The wall-clock time lets a bench's phases be told apart in one log of a whole run.
  const line = `${new Date().toISOString()} long task: pid ${process.pid} ${millis.toFixed(1)} ms ${what}\n`;
  if (logFile === undefined) process.stderr.write(line);
  else appendFileSync(logFile, line);
}

function parseThreshold(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const millis = Number(text);
  return Number.isFinite(millis) && millis > 0 ? millis : undefined;
}
