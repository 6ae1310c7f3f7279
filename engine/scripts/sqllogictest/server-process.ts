// Starts an Engine server as a child process on a free loopback port for a run, and stops it.
// The server listens on 127.0.0.1 only.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export interface EngineServerProcess {
  url: string;
  pid: number | undefined;
  /** SIGTERM (the server shuts down), SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL at once, to its process group when it leads one: for a server that answers nothing (a held event loop, SIGSTOP). */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** engine/dist/src/cli/main.js */
  cliPath: string;
  startupTimeoutMillis?: number;
  /** More `engine server` flags. */
  args?: readonly string[];
  /** The server's environment (default: ours). */
  env?: NodeJS.ProcessEnv;
  /** Flags of node itself, before the CLI's path (e.g. --cpu-prof, which NODE_OPTIONS may not hold). */
  nodeArgs?: readonly string[];
  /**
   * The server leads a process group of its own, which kill() ends whole. It then no longer gets the
   * terminal's Ctrl-C: whoever starts it stops it (the sqllogictest runner does on SIGINT and at exit).
   */
  processGroup?: boolean;
}

/** Lines of server output kept to explain a failed start. */
const KEPT_OUTPUT_LINES = 40;

export async function startEngineServer(options: StartOptions): Promise<EngineServerProcess> {
  if (!existsSync(options.cliPath)) {
    throw new Error(`The engine CLI is not built (${options.cliPath}); build it or pass --server <url>`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), options.cliPath, 'server', '--host', '127.0.0.1', '--port', String(port), ...(options.args ?? [])],
    { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.processGroup === true },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    );
    output.splice(0, Math.max(0, output.length - KEPT_OUTPUT_LINES));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  try {
    await waitUntilReady(url, exited, options.startupTimeoutMillis ?? 60_000);
  } catch (e) {
    await stopChild(child, exited);
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- server output ---\n${output.join('\n')}`);
  }
  return { url, pid: child.pid, stop: () => stopChild(child, exited), kill: () => killChild(child, exited, options.processGroup === true) };
}

/** What every node of a cluster gets besides its role: more flags and its environment. */
export interface ClusterNodeOptions {
  args?: readonly string[];
  /** Each node leads a process group of its own (StartOptions.processGroup). */
  processGroup?: boolean;
  /** Flags of the workers only, after `args`. */
  workerArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Flags of node itself for every node (StartOptions.nodeArgs), e.g. --cpu-prof. */
  nodeArgs?: readonly string[];
  /**
   * The nodes keep the configured heartbeat and announcement intervals (1 s and 3 s by default),
   * as a deployed cluster does; otherwise both are 500 ms, so that tests see their nodes sooner.
   */
  configuredIntervals?: boolean;
}

/**
 * A coordinator and `workers` worker processes (the coordinator first); resolves once the
 * coordinator has checked them all healthy.
 */
export async function startCluster(cliPath: string, workers: number, nodeOptions: ClusterNodeOptions = {}): Promise<EngineServerProcess[]> {
  const common = nodeOptions.args ?? [];
  const fast = nodeOptions.configuredIntervals !== true;
  const coordinator = await startEngineServer({
    cliPath,
    env: nodeOptions.env,
    nodeArgs: nodeOptions.nodeArgs,
    processGroup: nodeOptions.processGroup,
    args: ['--role', 'coordinator', '--node-id', 'coordinator', ...(fast ? ['--heartbeat-interval', '500ms'] : []), ...common],
  });
  const nodes = [coordinator];
  try {
    for (let i = 1; i <= workers; i++) {
      const args = [
        '--role',
        'worker',
        '--node-id',
        `worker-${i}`,
        '--discovery-uri',
        coordinator.url,
        ...(fast ? ['--announcement-interval', '500ms'] : []),
        ...common,
        ...(nodeOptions.workerArgs ?? []),
      ];
      nodes.push(
        await startEngineServer({
          cliPath,
          env: nodeOptions.env,
          nodeArgs: nodeOptions.nodeArgs,
          processGroup: nodeOptions.processGroup,
          args,
        }),
      );
    }
    const deadline = Date.now() + 30_000;
    for (;;) {
      const entries = (await (await fetch(`${coordinator.url}/v1/node`)).json()) as {
        lastResponseTime?: string;
        recentFailureRatio: number;
      }[];
      if (entries.filter((e) => e.lastResponseTime !== undefined && e.recentFailureRatio < 0.5).length >= workers) return nodes;
      if (Date.now() > deadline) throw new Error(`The coordinator did not see ${workers} healthy workers within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (e) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw e;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Ready once GET /v1/info answers and no longer says `starting` (or /v1/status answers). */
async function waitUntilReady(url: string, exited: Promise<number | null>, timeoutMillis: number): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`The engine server exited during startup (code ${exitCode})`);
    if (await answers(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The engine server did not become ready within ${timeoutMillis} ms`);
}

async function answers(url: string): Promise<boolean> {
  try {
    const info = await fetch(`${url}/v1/info`, { signal: AbortSignal.timeout(2000) });
    if (info.ok) return (await info.json().catch(() => ({}))).starting !== true;
    const status = await fetch(`${url}/v1/status`, { signal: AbortSignal.timeout(2000) });
    return status.ok;
  } catch {
    return false;
  }
}

async function killChild(child: ChildProcess, exited: Promise<number | null>, group: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
  await exited;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killTimer);
}
