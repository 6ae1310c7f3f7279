// `engine cluster`: a coordinator and N workers on loopback, each its own `engine server` process,
// for trying the engine as a cluster on one machine. Their log lines go to stdout prefixed with the
// node's name. Ctrl-C (SIGINT) or SIGTERM shuts every node down gracefully; a second signal kills them.
// The nodes share a secret generated for the run (unless the user set one), so the cluster runs with
// internal authentication as a real one should; it goes to them in the environment, not on a command
// line. A generated secret is also kept where `engine node` finds it (cluster-secret-file.ts), so
// `engine node drain --server <a worker>` works as it is, and printed once on stderr as the line to
// export for anything else.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/config-loader.js';
import { ALLOCATOR_ENV } from '../config/memory-budget.js';
import { optionTable, parseCommandLine, stringOption, UsageError } from './args.js';
import { removeClusterSecret, writeClusterSecret } from './cluster-secret-file.js';

const ENGINE_MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

export const CLUSTER_USAGE = `Usage: engine cluster [--workers N] [--port PORT] [--environment NAME] [--config FILE]

Starts a coordinator on 127.0.0.1:PORT and N workers on free loopback ports, each its own
'engine server' process; the workers announce themselves to the coordinator. Send queries to the
coordinator (engine sql --server http://127.0.0.1:PORT): it runs their stages as tasks on the
workers, which it lists in /v1/node and system.runtime.nodes.
Requests between the nodes carry tokens signed with a shared secret: the one set in
ENGINE_SHARED_SECRET or the configuration file (internalCommunication.sharedSecret), else one
generated for this run. A generated one is printed on stderr as the line to export, and kept in
~/.engine/clusters/PORT.json (readable only by you) while the cluster runs, where 'engine node'
finds it: 'engine node drain --server http://127.0.0.1:WORKER_PORT' drains a worker.
Ctrl-C stops them all (gracefully; a second Ctrl-C at once).

Options:
${optionTable([
  ['--workers N', 'number of workers (default: 2)'],
  ['--port PORT', "the coordinator's port (default: 8080)"],
  ['--environment NAME', 'node.environment of every node (default: production)'],
  ['--config FILE', 'configuration file every node reads (its role, port and discovery are set here)'],
  ['--help', 'show this help'],
])}
`;

interface NodeProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export async function clusterCommand(args: readonly string[]): Promise<number> {
  const values = parseCommandLine('cluster', args, {
    workers: { type: 'string' },
    port: { type: 'string' },
    environment: { type: 'string' },
    config: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    process.stdout.write(CLUSTER_USAGE);
    return 0;
  }
  const workers = countOption(stringOption(values, 'workers') ?? '2', 'workers', 0);
  const port = countOption(stringOption(values, 'port') ?? '8080', 'port', 0);
  const common = ['--host', '127.0.0.1'];
  const environment = stringOption(values, 'environment');
  if (environment !== undefined) common.push('--environment', environment);
  const config = stringOption(values, 'config');
  if (config !== undefined) common.push('--config', config);
  const { env, generatedSecret } = sharedSecretEnvironment(config);
  let secretFile: string | undefined;

  const nodes: NodeProcess[] = [];
  let signals = 0;
  const stopAll = (signal: NodeJS.Signals) =>
    nodes.forEach((n) => n.child.exitCode === null && n.child.signalCode === null && n.child.kill(signal));
  const onSignal = () => stopAll(++signals === 1 ? 'SIGTERM' : 'SIGKILL');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const coordinator = await startNode(
      'coordinator',
      [...common, '--role', 'coordinator', '--node-id', 'coordinator', '--port', String(port)],
      env,
      nodes,
    );
    const started = await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        startNode(
          `worker-${i + 1}`,
          [...common, '--role', 'worker', '--node-id', `worker-${i + 1}`, '--port', '0', '--discovery-uri', coordinator.uri],
          env,
          nodes,
        ),
      ),
    );
    if (generatedSecret !== undefined) {
      secretFile = writeClusterSecret(Number(new URL(coordinator.uri).port), {
        pid: process.pid,
        secret: generatedSecret,
        nodes: [coordinator, ...started].map((n) => n.uri),
      });
      // The one place the secret is shown: on stderr, never in the nodes' logs.
      process.stderr.write(
        `\nThe nodes share a secret generated for this run. 'engine node' on this machine finds it in ${secretFile} while the cluster runs.\n` +
          `Anything else that talks to the nodes' internal endpoints needs it in its environment:\n  export ENGINE_SHARED_SECRET=${generatedSecret}\n`,
      );
    }
    process.stdout.write(
      `\nCluster up: coordinator ${coordinator.uri}, ${started.length} worker(s) ${started.map((w) => w.uri).join(' ')}\n` +
        `Requests between the nodes are signed with ${generatedSecret !== undefined ? 'a shared secret generated for this run' : 'the configured shared secret'}.\n` +
        `Try: engine sql --server ${coordinator.uri} --execute 'SELECT * FROM system.runtime.nodes'\n` +
        (started.length > 0 ? `Drain a worker: engine node drain --server ${started[0]!.uri}\n` : '') +
        `Ctrl-C stops them all.\n\n`,
    );
    // The cluster ends when the coordinator does (by a signal, or on its own); then the workers follow.
    const code = await nodes[0]!.exited;
    stopAll('SIGTERM');
    await Promise.all(nodes.map((n) => n.exited));
    return signals > 0 ? 0 : (code ?? 1);
  } catch (e) {
    stopAll('SIGTERM');
    await Promise.all(nodes.map((n) => n.exited));
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (secretFile !== undefined) removeClusterSecret(secretFile);
  }
}

function countOption(text: string, name: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`engine cluster: --${name} must be a whole number, got '${text}'`);
  return Number(text);
}

/**
 * The nodes' environment: the allocator settings that give freed memory back (unless ours sets
 * them), ours, plus a generated ENGINE_SHARED_SECRET (also returned) when neither the environment
 * nor the configuration file (read as the coordinator will read it) sets a secret.
 */
function sharedSecretEnvironment(configFile: string | undefined): { env: NodeJS.ProcessEnv; generatedSecret?: string } {
  const env = { ...ALLOCATOR_ENV, ...process.env };
  const configured = loadConfig({ file: configFile, env: process.env, flags: { role: 'coordinator' } }).internalCommunication.sharedSecret;
  if (configured !== undefined) return { env };
  const generatedSecret = randomBytes(32).toString('base64url');
  return { env: { ...env, ENGINE_SHARED_SECRET: generatedSecret }, generatedSecret };
}

/** Spawns `engine server` (in its own process group: a terminal's Ctrl-C reaches only us) and waits until it listens. */
async function startNode(name: string, args: readonly string[], env: NodeJS.ProcessEnv, nodes: NodeProcess[]): Promise<{ uri: string }> {
  const child = spawn(process.execPath, [ENGINE_MAIN, 'server', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = once(child, 'exit').then(([code]) => {
    process.stdout.write(`[${name}] exited with ${String(code ?? 'a signal')}\n`);
    return code as number | null;
  });
  nodes.push({ name, child, exited });
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      process.stdout.write(`[${name}] ${line}\n`);
      const uri = listeningUri(line);
      if (uri !== undefined) resolve({ uri });
    });
    void exited.then((code) => reject(new Error(`engine cluster: ${name} exited with ${String(code)} before listening`)));
  });
}

function listeningUri(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; uri?: unknown };
    return parsed.msg === 'listening' && typeof parsed.uri === 'string' ? parsed.uri : undefined;
  } catch {
    return undefined;
  }
}
