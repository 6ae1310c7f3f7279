// `kube-test-cluster up | down | status | run`: the test cluster as a background process.
//   up      starts `run` detached (log in <state-dir>/cluster.log), waits until it answers, and
//           prints the kubeconfig path and the lines to export
//   down    stops it (SIGTERM: pods are killed, the server closes), then kills any pod process
//           group a crashed cluster left behind (recorded in <state-dir>/pod-groups)
//   status  says whether it runs
//   run     the cluster in the foreground (Ctrl-C stops it)
// Options: --state-dir DIR (default e2e/.kube), --port N (API server; default any free port),
// --subnet N (addresses 127.N.x.y; default random), --hpa-sync-period SECONDS (the HPA controller's
// period; default 1, 15 on a real cluster), --hpa-downscale-stabilization SECONDS (default 300, as
// the real one), --metric-resolution SECONDS (metrics-server's sampling; default 1, 15 on a real one).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { binDir, e2eRoot } from '../binaries/tools.js';
import { ClusterNetwork } from '../net/network.js';
import { killAllGroups, killGroup, onGroupsChanged } from '../kubelet/processes.js';
import { LocalCluster } from './local-cluster.js';

const usage = `Usage: kube-test-cluster up|down|status|run [--state-dir DIR] [--port N] [--subnet N]
         [--hpa-sync-period SECONDS] [--hpa-downscale-stabilization SECONDS] [--metric-resolution SECONDS]
`;

/** The flags that set a duration of the cluster, in seconds, and the option each sets (in ms). */
const durationFlags = {
  'hpa-sync-period': 'hpaSyncPeriodMs',
  'hpa-downscale-stabilization': 'hpaDownscaleStabilizationMs',
  'metric-resolution': 'metricResolutionMs',
} as const;

type Durations = Partial<Record<(typeof durationFlags)[keyof typeof durationFlags], number>>;

function durations(values: Record<string, string | boolean | undefined>): Durations {
  const out: Durations = {};
  for (const [flag, option] of Object.entries(durationFlags)) {
    const text = values[flag];
    if (typeof text !== 'string') continue;
    const seconds = Number(text);
    if (!(seconds > 0)) throw new Error(`--${flag} must be a positive number of seconds, not ${JSON.stringify(text)}`);
    out[option] = seconds * 1000;
  }
  return out;
}

interface Paths {
  dir: string;
  pid: string;
  kubeconfig: string;
  log: string;
  groups: string;
}

function pathsOf(dir: string): Paths {
  return {
    dir,
    pid: path.join(dir, 'cluster.pid'),
    kubeconfig: path.join(dir, 'kubeconfig'),
    log: path.join(dir, 'cluster.log'),
    groups: path.join(dir, 'pod-groups'),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningPid(p: Paths): number | undefined {
  if (!fs.existsSync(p.pid)) return undefined;
  const pid = Number(fs.readFileSync(p.pid, 'utf8').trim());
  return pid > 0 && alive(pid) ? pid : undefined;
}

function printAccess(p: Paths): void {
  console.log(`kubeconfig: ${p.kubeconfig}`);
  console.log(`export KUBECONFIG=${p.kubeconfig}`);
  console.log(`export PATH=${binDir}:$PATH   # the bundled kubectl v1.32.3 and helm v3.17.2`);
}

async function up(p: Paths, passThrough: string[]): Promise<number> {
  if (runningPid(p)) {
    console.log(`the test cluster is already running (pid ${runningPid(p)})`);
    printAccess(p);
    return 0;
  }
  fs.mkdirSync(p.dir, { recursive: true });
  fs.rmSync(p.kubeconfig, { force: true });
  const log = fs.openSync(p.log, 'w');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'run', '--state-dir', p.dir, ...passThrough], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  fs.writeFileSync(p.pid, String(child.pid));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (!alive(child.pid!)) break;
    if (fs.existsSync(p.kubeconfig)) {
      console.log(`the test cluster is running (pid ${child.pid}, log ${p.log})`);
      printAccess(p);
      return 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.error(`the test cluster did not start; its log (${p.log}):\n${fs.readFileSync(p.log, 'utf8')}`);
  if (alive(child.pid!)) process.kill(child.pid!, 'SIGKILL');
  return 1;
}

async function down(p: Paths): Promise<number> {
  const pid = runningPid(p);
  if (pid) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  // Pod processes of a cluster that could not clean up (crashed, killed).
  if (fs.existsSync(p.groups)) for (const g of fs.readFileSync(p.groups, 'utf8').split('\n').filter(Boolean)) killGroup(Number(g));
  for (const f of [p.pid, p.groups, p.kubeconfig]) fs.rmSync(f, { force: true });
  fs.rmSync(path.join(p.dir, 'pods'), { recursive: true, force: true });
  console.log(pid ? `stopped the test cluster (pid ${pid})` : 'the test cluster was not running');
  return 0;
}

async function run(p: Paths, port: number, subnet: number | undefined, timing: Durations): Promise<number> {
  fs.mkdirSync(p.dir, { recursive: true });
  onGroupsChanged((groups) => fs.writeFileSync(p.groups, groups.join('\n')));
  // The kubeconfig is written last by start(): `up` waits for it.
  fs.rmSync(p.kubeconfig, { force: true });
  const cluster = await LocalCluster.start({ stateDir: p.dir, port, network: new ClusterNetwork(subnet), ...timing });
  console.log(JSON.stringify({ url: cluster.url, kubeconfig: cluster.kubeconfigPath, subnet: cluster.network.subnet }));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      killAllGroups();
      process.exit(1);
    }, 10_000);
    void cluster.stop().then(() => {
      clearTimeout(force);
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return new Promise<number>(() => undefined);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'state-dir': { type: 'string' },
      port: { type: 'string' },
      subnet: { type: 'string' },
      ...Object.fromEntries(Object.keys(durationFlags).map((f) => [f, { type: 'string' as const }])),
      help: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(usage);
    return values.help ? 0 : 2;
  }
  const p = pathsOf(path.resolve(values['state-dir'] ?? path.join(e2eRoot, '.kube')));
  const timing = durations(values as Record<string, string | boolean | undefined>);
  const passThrough = [...(values.port ? ['--port', values.port] : []), ...(values.subnet ? ['--subnet', values.subnet] : [])];
  for (const flag of Object.keys(durationFlags)) {
    const value = (values as Record<string, unknown>)[flag];
    if (typeof value === 'string') passThrough.push(`--${flag}`, value);
  }
  switch (command) {
    case 'up':
      return up(p, passThrough);
    case 'down':
      return down(p);
    case 'status': {
      const pid = runningPid(p);
      console.log(pid ? `running (pid ${pid})` : 'not running');
      if (pid) printAccess(p);
      return pid ? 0 : 3;
    }
    case 'run':
      return run(p, Number(values.port ?? 0), values.subnet ? Number(values.subnet) : undefined, timing);
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n${usage}`);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
