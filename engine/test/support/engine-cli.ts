// Runs the real `engine` command line as a child process and collects what it prints.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ENGINE_MAIN } from './server-process.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** What it printed so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once it exited. */
  done: Promise<CliRun>;
}

/** Starts `engine ...args`; its environment is ours plus `env`. */
export function startEngine(args: readonly string[], env: Record<string, string> = {}): RunningCli {
  const child = spawn(process.execPath, [ENGINE_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const done = once(child, 'close').then(([code]) => ({ code: code as number | null, ...output }));
  return {
    child,
    get stdout() {
      return output.stdout;
    },
    get stderr() {
      return output.stderr;
    },
    done,
  };
}

export function runEngine(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return startEngine(args, env).done;
}
