// Prints the drain benchmark's table and writes it as JSON under bench/results/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DrainBenchOptions, ScenarioFigures } from './drain.js';

export interface DrainBenchRun {
  startedAt: string;
  options: DrainBenchOptions;
  /** os.loadavg() when the run started: the machine may be shared. */
  loadAverage: number[];
  scenarios: ScenarioFigures[];
}

export function printDrainRun(run: DrainBenchRun): void {
  const s = (millis: number | undefined) => (millis === undefined ? '-' : `${(millis / 1000).toFixed(1)} s`);
  const x = (ratio: number | undefined) => (ratio === undefined ? '-' : `×${ratio.toFixed(2)}`);
  const columns: Array<[string, number, (f: ScenarioFigures) => string]> = [
    ['scenario', 16, (f) => f.scenario],
    ['held tasks', 11, (f) => `${f.heldAtDrainStart.runningTasks}/${f.heldAtDrainStart.queries}q`],
    ['isolating', 10, (f) => s(f.drain.isolatingAtMillis)],
    ['isolated', 9, (f) => s(f.drain.shuttingDownAtMillis)],
    ['worker exit', 12, (f) => s(f.drain.workerExitMillis)],
    ['cmd exit', 9, (f) => s(f.drain.commandMillis)],
    ['baseline med', 13, (f) => s(f.baseline?.medianMillis)],
    ['drain med', 10, (f) => s(f.duringDrain?.medianMillis)],
    ['slowdown med', 13, (f) => x(f.slowdown?.median)],
    ['max', 7, (f) => x(f.slowdown?.max)],
    ['wall', 7, (f) => x(f.slowdown?.wall)],
    ['failed', 7, (f) => (f.duringDrain ? `${f.duringDrain.failures.length}/${f.queries}` : '-')],
  ];
  console.log(
    `\nDrain of one of 3 workers (engine node drain --poll ${run.options.poll}); load average at start ${run.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
  );
  console.log(columns.map(([title, width], i) => (i === 0 ? title.padEnd(width) : title.padStart(width))).join(' '));
  for (const figures of run.scenarios) {
    console.log(columns.map(([, width, cell], i) => (i === 0 ? cell(figures).padEnd(width) : cell(figures).padStart(width))).join(' '));
  }
  console.log(
    'Times from the start of `engine node drain`. held tasks: running tasks / distinct queries on the worker then; isolating: the command moved it to',
  );
  console.log(
    'ISOLATING (after its own start-up); isolated: it saw it ISOLATED with no work and moved it to SHUTTING_DOWN; worker exit: the process exited;',
  );
  console.log(
    'cmd exit: the command returned. slowdown: the queries during the drain against the same queries just before without one (median, slowest, wall).',
  );
  for (const figures of run.scenarios) {
    if (figures.drain.problem)
      console.log(`\n${figures.scenario}: PROBLEM: ${figures.drain.problem}\n  ${(figures.drain.workerLastLogLines ?? []).join('\n  ')}`);
    if (figures.drain.unfinishedTasks?.length)
      console.log(
        `${figures.scenario}: the worker's unfinished tasks then:\n  ${figures.drain.unfinishedTasks.map((t) => JSON.stringify(t)).join('\n  ')}`,
      );
    for (const line of figures.coordinatorErrors) console.log(`${figures.scenario}: coordinator error: ${line}`);
    for (const failure of figures.duringDrain?.failures ?? [])
      console.log(`${figures.scenario}: query failed during the drain: ${failure}`);
    for (const failure of figures.baseline?.failures ?? []) console.log(`${figures.scenario}: query failed in the baseline: ${failure}`);
  }
}

export function writeDrainRun(run: DrainBenchRun, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `drain-${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  return file;
}
