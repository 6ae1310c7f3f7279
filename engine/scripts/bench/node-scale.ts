// `make bench-nodes`: what a coordinator pays for its nodes. For each node count, starts a real
// coordinator process and that many simulated workers in this process (simulated-nodes.ts: each
// announces itself on the real interval and answers the coordinator's health checks), waits until
// /v1/node lists them all, and then over a window measures the coordinator's CPU (its process CPU
// time from /proc, as % of one core), resident set (/proc), heap (/v1/status), event loop delay
// (/v1/status), and afterwards the time and size of GET /v1/node. Prints a table, the cost per node
// against the first count (0 by default), and writes the JSON under bench/results/.
//
//   node engine/dist/scripts/bench/node-scale.js [--nodes 0,50,200] [--window 30] [--warmup 5]

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/config-loader.js';
import type { EventLoopDelay } from '../../src/server/event-loop-delay.js';
import { startEngineServer, type EngineServerProcess } from '../sqllogictest/server-process.js';
import { SimulatedNodes } from './simulated-nodes.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '..', '..', 'src', 'cli', 'main.js');
const RESULTS_DIR = resolve(here, '..', '..', '..', '..', 'bench', 'results');
const ENVIRONMENT = 'bench';
/** How often /v1/status is read during the window: its event loop figures cover the last 5-10 s. */
const STATUS_SAMPLE_MILLIS = 5000;
const JOIN_TIMEOUT_MILLIS = 120_000;
const NODE_LIST_REQUESTS = 5;

interface Options {
  nodes: number[];
  windowSeconds: number;
  warmupSeconds: number;
}

interface StatusSample {
  heapUsed: number;
  nonHeapUsed: number;
  eventLoopDelay: EventLoopDelay;
}

export interface NodeScaleRun {
  nodes: number;
  /** Whether each simulated node had its own loopback address (else one port each on 127.0.0.1). */
  ownAddresses: boolean;
  /** From the first announcement until /v1/node listed every node, and until each had answered a check. */
  joinMillis: number;
  allCheckedMillis: number;
  windowSeconds: number;
  /** The coordinator's CPU time over the window, as % of one core. */
  coordinatorCpuPercent: number;
  /** The coordinator's resident set at the end of the window, and the largest seen in it. */
  rssBytes: number;
  maxRssBytes: number;
  /** The mean of the window's /v1/status heapUsed and nonHeapUsed samples. */
  heapUsedBytes: number;
  nonHeapUsedBytes: number;
  eventLoop: { meanMillis: number; p99Millis: number; maxMillis: number };
  healthChecksPerSecond: number;
  /** GET /v1/node: the median time of a few requests, and the body's size. */
  nodeListMillis: number;
  nodeListBytes: number;
  failedNodes: number;
  /** This process (the simulated nodes) over the window, % of one core: it shares the machine. */
  simulatorCpuPercent: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: 'string', default: '200' },
      window: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '5' },
    },
  });
  const number = (name: string, text: string, min: number): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min)
      throw new Error(`--${name}: expected an integer of at least ${min}, got '${text}'`);
    return n;
  };
  return {
    nodes: values.nodes!.split(',').map((n) => number('nodes', n, 0)),
    windowSeconds: number('window', values.window!, 1),
    warmupSeconds: number('warmup', values.warmup!, 0),
  };
}

async function measure(nodeCount: number, options: Options): Promise<NodeScaleRun> {
  const coordinator = await startEngineServer({
    cliPath: CLI,
    args: ['--role', 'coordinator', '--node-id', 'coordinator', '--environment', ENVIRONMENT],
  });
  let simulated: SimulatedNodes | undefined;
  try {
    const started = performance.now();
    simulated = await SimulatedNodes.start({
      discoveryUri: coordinator.url,
      environment: ENVIRONMENT,
      count: nodeCount,
      announcementIntervalMillis: loadConfig().discovery.announcementInterval,
    });
    const joinMillis = await until(coordinator.url, (list) => list.length === nodeCount, started);
    const allCheckedMillis = await until(
      coordinator.url,
      (list) => list.length === nodeCount && list.every((e) => e.recentSuccesses > 0),
      started,
    );
    await sleep(options.warmupSeconds * 1000);

    const pid = coordinator.pid!;
    const cpuBefore = processCpuSeconds(pid);
    const simulatorBefore = process.cpuUsage();
    const checksBefore = simulated.statusRequests();
    const windowStart = performance.now();
    const samples: StatusSample[] = [];
    let maxRssBytes = 0;
    while (performance.now() - windowStart < options.windowSeconds * 1000) {
      await sleep(Math.min(STATUS_SAMPLE_MILLIS, options.windowSeconds * 1000 - (performance.now() - windowStart)));
      samples.push(await getJson<StatusSample>(coordinator.url, '/v1/status'));
      maxRssBytes = Math.max(maxRssBytes, residentBytes(pid));
    }
    const seconds = (performance.now() - windowStart) / 1000;
    const cpuSeconds = processCpuSeconds(pid) - cpuBefore;
    const simulatorCpu = process.cpuUsage(simulatorBefore);
    const checks = simulated.statusRequests() - checksBefore;
    const rssBytes = residentBytes(pid);

    const listing = await nodeList(coordinator);
    const failed = await getJson<unknown[]>(coordinator.url, '/v1/node/failed');
    const mean = (pick: (s: StatusSample) => number) => samples.reduce((sum, s) => sum + pick(s), 0) / samples.length;
    return {
      nodes: nodeCount,
      ownAddresses: simulated.ownAddresses,
      joinMillis,
      allCheckedMillis,
      windowSeconds: seconds,
      coordinatorCpuPercent: (100 * cpuSeconds) / seconds,
      rssBytes,
      maxRssBytes,
      heapUsedBytes: mean((s) => s.heapUsed),
      nonHeapUsedBytes: mean((s) => s.nonHeapUsed),
      eventLoop: {
        meanMillis: mean((s) => s.eventLoopDelay.meanMillis),
        p99Millis: Math.max(...samples.map((s) => s.eventLoopDelay.p99Millis)),
        maxMillis: Math.max(...samples.map((s) => s.eventLoopDelay.maxMillis)),
      },
      healthChecksPerSecond: checks / seconds,
      nodeListMillis: listing.medianMillis,
      nodeListBytes: listing.bytes,
      failedNodes: failed.length,
      simulatorCpuPercent: (100 * (simulatorCpu.user + simulatorCpu.system)) / 1e6 / seconds,
    };
  } finally {
    await simulated?.stop();
    await coordinator.stop();
  }
}

/** Polls /v1/node until `done` holds; the milliseconds since `since`. */
async function until(uri: string, done: (list: Array<{ recentSuccesses: number }>) => boolean, since: number): Promise<number> {
  for (;;) {
    if (done(await getJson(uri, '/v1/node'))) return performance.now() - since;
    if (performance.now() - since > JOIN_TIMEOUT_MILLIS)
      throw new Error(`the coordinator did not list the nodes within ${JOIN_TIMEOUT_MILLIS} ms`);
    await sleep(50);
  }
}

async function nodeList(coordinator: EngineServerProcess): Promise<{ medianMillis: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < NODE_LIST_REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(`${coordinator.url}/v1/node`);
    bytes = (await response.arrayBuffer()).byteLength;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { medianMillis: times[Math.floor(times.length / 2)], bytes };
}

async function getJson<T>(uri: string, path: string): Promise<T> {
  const response = await fetch(`${uri}${path}`);
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process (/proc/<pid>/stat fields 14 and 15, after the command). */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, millis)));
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function printRuns(runs: NodeScaleRun[]): void {
  const columns: Array<[string, (r: NodeScaleRun) => string]> = [
    ['nodes', (r) => String(r.nodes)],
    ['listed s', (r) => (r.joinMillis / 1000).toFixed(2)],
    ['checked s', (r) => (r.allCheckedMillis / 1000).toFixed(2)],
    ['cpu %', (r) => r.coordinatorCpuPercent.toFixed(1)],
    ['rss MB', (r) => mb(r.rssBytes)],
    ['heap MB', (r) => mb(r.heapUsedBytes)],
    [
      'loop mean/p99/max ms',
      (r) => `${r.eventLoop.meanMillis.toFixed(1)}/${r.eventLoop.p99Millis.toFixed(1)}/${r.eventLoop.maxMillis.toFixed(1)}`,
    ],
    ['checks/s', (r) => r.healthChecksPerSecond.toFixed(0)],
    ['/v1/node ms', (r) => r.nodeListMillis.toFixed(1)],
    ['/v1/node KB', (r) => (r.nodeListBytes / 1024).toFixed(1)],
    ['failed', (r) => String(r.failedNodes)],
    ['simulator cpu %', (r) => r.simulatorCpuPercent.toFixed(1)],
  ];
  const widths = columns.map(([title, cell]) => Math.max(title.length, ...runs.map((r) => cell(r).length)) + 2);
  console.log(columns.map(([title], i) => title.padStart(widths[i])).join(''));
  for (const run of runs) console.log(columns.map(([, cell], i) => cell(run).padStart(widths[i])).join(''));
}

export interface PerNodeCost {
  fromNodes: number;
  toNodes: number;
  cpuPercent: number;
  rssBytes: number;
  heapUsedBytes: number;
  nodeListBytes: number;
}

/** What each node added between the smallest and the largest count. */
function perNodeCost(runs: NodeScaleRun[]): PerNodeCost | undefined {
  const sorted = [...runs].sort((a, b) => a.nodes - b.nodes);
  const [low, high] = [sorted[0], sorted[sorted.length - 1]];
  const added = high.nodes - low.nodes;
  if (added <= 0) return undefined;
  return {
    fromNodes: low.nodes,
    toNodes: high.nodes,
    cpuPercent: (high.coordinatorCpuPercent - low.coordinatorCpuPercent) / added,
    rssBytes: (high.rssBytes - low.rssBytes) / added,
    heapUsedBytes: (high.heapUsedBytes - low.heapUsedBytes) / added,
    nodeListBytes: (high.nodeListBytes - low.nodeListBytes) / added,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const runs: NodeScaleRun[] = [];
  for (const count of options.nodes) {
    console.log(
      `${count} nodes: starting a coordinator and the nodes, then a ${options.warmupSeconds} s warm-up and a ${options.windowSeconds} s window...`,
    );
    runs.push(await measure(count, options));
  }
  console.log(
    `\nThe coordinator's cost of its nodes (heartbeat every ${loadConfig().failureDetector.heartbeatInterval} ms, announcements every ${loadConfig().discovery.announcementInterval} ms)`,
  );
  printRuns(runs);
  const perNode = perNodeCost(runs);
  if (perNode) {
    console.log(
      `\nper node (${perNode.fromNodes} -> ${perNode.toNodes}): ${perNode.cpuPercent.toFixed(3)} % of a core, ` +
        `${(perNode.rssBytes / 1024).toFixed(1)} KB resident, ${(perNode.heapUsedBytes / 1024).toFixed(1)} KB heap, ${perNode.nodeListBytes.toFixed(0)} bytes of /v1/node`,
    );
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `node-scale-${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ startedAt, options, runs, perNode }, null, 2) + '\n');
  console.log(`\nwritten to ${file}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
