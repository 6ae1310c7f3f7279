// Containers as process groups: each container's main process leads its own group (as it is PID 1
// of its own namespace), stop signals go to that process, and SIGKILL goes to the whole group
// (as the runtime kills every process of the container's cgroup). Every live group is tracked,
// so the kubelet can kill them all on shutdown and kube-down can find strays of a crashed cluster.
import { spawn, type ChildProcess } from 'node:child_process';
import type { LogWriter } from './logs.js';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Process groups started and not yet reaped, by group id. */
const liveGroups = new Set<number>();
/** Every group this process ever started (tests check none of them has a process left). */
const startedGroups = new Set<number>();

export function groupsEverStarted(): number[] {
  return [...startedGroups];
}
const listeners = new Set<(groups: number[]) => void>();

function changed(): void {
  for (const l of listeners) l([...liveGroups]);
}

export function onGroupsChanged(listener: (groups: number[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** SIGKILL to every group still alive (shutdown, and the exit handler below). */
export function killAllGroups(): void {
  for (const pgid of liveGroups) killGroup(pgid);
}

process.on('exit', killAllGroups);

export class StartError extends Error {}

export interface SpawnOptions {
  env: Record<string, string>;
  cwd: string;
}

/** Spawns argv as the leader of a new process group; StartError when it cannot be executed. */
async function spawnGroup(argv: string[], options: SpawnOptions, stdio: 'pipe' | 'ignore'): Promise<ChildProcess> {
  const child = spawn(argv[0], argv.slice(1), { env: options.env, cwd: options.cwd, detached: true, stdio: ['ignore', stdio, stdio] });
  if (child.pid === undefined) {
    const err = await new Promise<Error>((resolve) => child.once('error', resolve));
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'executable file not found in $PATH' : code === 'EACCES' ? 'permission denied' : err.message;
    throw new StartError(
      `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: ${JSON.stringify(argv[0])}: ${why}: unknown`,
    );
  }
  liveGroups.add(child.pid);
  startedGroups.add(child.pid);
  changed();
  return child;
}

function reaped(child: ChildProcess): Promise<ProcessExit> {
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      // The container is gone once its main process is: whatever it left behind goes too.
      killGroup(child.pid!);
      liveGroups.delete(child.pid!);
      changed();
      resolve({ code, signal });
    }),
  );
}

export class ContainerProcess {
  private constructor(
    private readonly child: ChildProcess,
    /** Resolves when the main process has exited and its output is written. */
    readonly exited: Promise<ProcessExit>,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  static async start(argv: string[], options: SpawnOptions, log: LogWriter): Promise<ContainerProcess> {
    const child = await spawnGroup(argv, options, 'pipe');
    const output = Promise.all([log.capture(child.stdout!, 'stdout'), log.capture(child.stderr!, 'stderr')]);
    const exit = reaped(child);
    const exited = exit.then(async (result) => {
      // Output still buffered in the pipes is flushed, unless a stray holds them open.
      await Promise.race([output, new Promise((r) => setTimeout(r, 2000).unref())]);
      log.close();
      return result;
    });
    return new ContainerProcess(child, exited);
  }

  /** The stop signal, to the container's main process only. */
  signal(signal: NodeJS.Signals): void {
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  kill(): void {
    killGroup(this.child.pid!);
  }
}

export interface CommandResult {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** An exec probe or hook: runs to completion or is killed (whole group) at the timeout, or when `signal` aborts. */
export async function runCommand(argv: string[], options: SpawnOptions, timeoutMs: number, signal?: AbortSignal): Promise<CommandResult> {
  const child = await spawnGroup(argv, options, 'pipe');
  const onAbort = () => killGroup(child.pid!);
  signal?.addEventListener('abort', onAbort, { once: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < 10240) output += chunk.toString('utf8');
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!);
  }, timeoutMs);
  const exit = await reaped(child);
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  return { code: exit.code, output, timedOut };
}
