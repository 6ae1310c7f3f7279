// Starts the API test server (or the whole test cluster: kubelet, controllers, Service proxy) on
// loopback with a kubeconfig in a temporary folder, and runs the real kubectl and helm against it
// (asynchronously: the server answers from this same process).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApiServer, type ApiServerOptions } from '../../src/apiserver/server.js';
import { kubeconfig } from '../../src/apiserver/kubeconfig.js';
import { envWithTools } from '../../src/binaries/tools.js';
import { LocalCluster, type LocalClusterOptions } from '../../src/cluster/local-cluster.js';
import { groupsEverStarted } from '../../src/kubelet/processes.js';

const run = promisify(execFile);

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class TestCluster {
  private constructor(
    readonly server: ApiServer,
    readonly url: string,
    readonly dir: string,
    /** Set when the cluster runs pods (startWithNode). */
    readonly local?: LocalCluster,
  ) {}

  static async start(options: ApiServerOptions = {}): Promise<TestCluster> {
    const server = new ApiServer(options);
    const url = await server.listen();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-kube-'));
    fs.writeFileSync(path.join(dir, 'kubeconfig'), kubeconfig(url));
    return new TestCluster(server, url, dir);
  }

  /** The whole cluster, with a restart backoff of 1 s (instead of 10 s) to keep tests short. */
  static async startWithNode(options: LocalClusterOptions = {}): Promise<TestCluster> {
    const local = await LocalCluster.start({ backoff: { initialMs: 1000 }, ...options });
    return new TestCluster(local.server, local.url, local.stateDir, local);
  }

  get kubeconfigPath(): string {
    return path.join(this.dir, 'kubeconfig');
  }

  /** Stops the cluster; with a node, fails if any process a pod started is still there. */
  async stop(): Promise<void> {
    if (this.local) {
      await this.local.stop();
      assertNoStrayProcesses();
    } else {
      await this.server.close();
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private async tool(tool: 'kubectl' | 'helm', args: string[], stdin?: string): Promise<KubectlResult> {
    const env = envWithTools({
      KUBECONFIG: this.kubeconfigPath,
      HOME: this.dir,
      HELM_CACHE_HOME: path.join(this.dir, 'helm-cache'),
      HELM_CONFIG_HOME: path.join(this.dir, 'helm-config'),
      HELM_DATA_HOME: path.join(this.dir, 'helm-data'),
    });
    const extra = tool === 'kubectl' ? ['--cache-dir', path.join(this.dir, 'cache')] : [];
    const child = run(tool, [...extra, ...args], { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    child.child.stdin!.end(stdin ?? '');
    try {
      const { stdout, stderr } = await child;
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  /** Runs kubectl; resolves with its exit code instead of throwing, so tests can assert errors. */
  kubectl(args: string[], stdin?: string): Promise<KubectlResult> {
    return this.tool('kubectl', args, stdin);
  }

  /** kubectl that must succeed; returns stdout. */
  async ok(args: string[], stdin?: string): Promise<string> {
    const r = await this.kubectl(args, stdin);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  }

  async json<T = any>(args: string[]): Promise<T> {
    return JSON.parse(await this.ok([...args, '-o', 'json'])) as T;
  }

  /** helm that must succeed; returns stdout. */
  async helm(args: string[]): Promise<string> {
    const r = await this.tool('helm', args);
    if (r.code !== 0) throw new Error(`helm ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  }
}

/**
 * Fails when a process of any process group the kubelet started (pods, probes, hooks) still runs.
 * Zombies do not count: they run nothing, and reaping orphans is up to the machine's init.
 */
export function assertNoStrayProcesses(): void {
  const started = new Set(groupsEverStarted());
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  const strays = out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && started.has(Number(m[2])) && !m[3].startsWith('Z'));
  if (strays.length) throw new Error(`processes of pods are still running:\n${strays.map((m) => m[0]).join('\n')}`);
}

export const fixtures = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../test/fixtures');

/** Polls until `check` returns true (the GC and controllers act right after a write). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
