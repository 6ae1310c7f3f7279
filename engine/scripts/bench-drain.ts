// `make bench-drain`: how long draining a worker takes against the work it holds (idle, one long
// query, many concurrent queries), and how much the queries slow down meanwhile (see
// bench/drain.ts). Prints a table and writes JSON under bench/results/. Prints, never fails on a
// failed query or drain: those show in the table and in the JSON with the worker's last log lines.
//
//   node engine/dist/scripts/bench-drain.js [--scenarios idle,long,concurrent] [--long-schema sf5]
//     [--concurrent-schema sf0.5] [--concurrency 20] [--poll 1s] [--timeout 10m] [--logs DIR]
//
// --long-schema / --concurrent-schema: the tpch schema the long query / each concurrent query reads;
// --poll: `engine node drain --poll`; --timeout: `engine node drain --timeout`, and the longest wait
// for any one query (cancelled then); --logs: write every node's log lines there at the end.

import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseDuration } from '../src/config/duration.js';
import { runDrainBench, SCENARIOS, type DrainBenchOptions, type ScenarioName } from './bench/drain.js';
import { printDrainRun, writeDrainRun } from './bench/drain-report.js';

const RESULTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bench', 'results');

function parseOptions(argv: string[]): DrainBenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      'long-schema': { type: 'string', default: 'sf5' },
      'concurrent-schema': { type: 'string', default: 'sf0.5' },
      concurrency: { type: 'string', default: '20' },
      poll: { type: 'string', default: '1s' },
      timeout: { type: 'string', default: '10m' },
      logs: { type: 'string' },
    },
  });
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency must be a positive integer, got '${values.concurrency}'`);
  const scenarios = values.scenarios!.split(',').map((name) => {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--scenarios: '${name}' is not one of ${SCENARIOS.join(', ')}`);
    return name as ScenarioName;
  });
  const duration = (name: 'poll' | 'timeout'): number => {
    const millis = parseDuration(values[name]!);
    if (millis === undefined) throw new Error(`--${name} must be a duration such as 500ms, 1s or 10m, got '${values[name]}'`);
    return millis;
  };
  duration('poll');
  return {
    scenarios,
    longSchema: values['long-schema']!,
    concurrentSchema: values['concurrent-schema']!,
    concurrency,
    poll: values.poll!,
    timeoutMillis: duration('timeout'),
    logsDir: values.logs,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const loadAverage = loadavg();
  const scenarios = await runDrainBench(options, (line) => console.log(line));
  const run = { startedAt, options, loadAverage, scenarios };
  printDrainRun(run);
  console.log(`\nwritten to ${writeDrainRun(run, RESULTS_DIR)}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
