// Starts the real `engine server` as a child process on a free loopback port, waits for its
// "listening" log line, and stops it at the end of a test.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** dist/test/support -> dist/src/cli/main.js */
export const ENGINE_MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface LogLine {
  msg?: string;
  level?: number;
  [field: string]: unknown;
}

export class ServerProcess {
  readonly logs: LogLine[] = [];
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly uri: string,
    readonly port: number,
    logs: LogLine[],
    stderr: string[],
  ) {
    this.logs = logs;
    this.stderr = stderr;
    this.exited = once(child, 'exit').then(([code]) => {
      this.exitCode = code as number | null;
      return this.exitCode;
    });
  }

  readonly stderr: string[];

  /** Starts `engine server --port 0 --host 127.0.0.1 ...args`. */
  static async start(args: readonly string[] = [], env: Record<string, string> = {}): Promise<ServerProcess> {
    const child = spawn(process.execPath, [ENGINE_MAIN, 'server', '--port', '0', '--host', '127.0.0.1', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: LogLine[] = [];
    const stderr: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const listening = new Promise<LogLine>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let parsed: LogLine;
        try {
          parsed = JSON.parse(line) as LogLine;
        } catch {
          parsed = { msg: line };
        }
        logs.push(parsed);
        if (parsed.msg === 'listening') resolve(parsed);
      });
      child.once('exit', (code) => reject(new Error(`engine server exited with ${code} before listening:\n${stderr.join('')}`)));
    });
    const line = await listening;
    const port = line.port as number;
    return new ServerProcess(child, `http://127.0.0.1:${port}`, port, logs, stderr);
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Resolves with the exit code once the process ended by itself. */
  waitForExit(): Promise<number | null> {
    return this.exited;
  }

  /**
   * SIGTERM (a graceful shutdown); if queries still hold the server after a second, a second SIGTERM
   * stops it at once, so that a test's leftovers do not keep it waiting for the grace period.
   */
  async stop(): Promise<number | null> {
    if (!this.running) return this.exited;
    this.child.kill('SIGTERM');
    const impatient = setTimeout(() => this.signal('SIGTERM'), 1000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(impatient);
    }
  }

  /** Sends a signal if the process still runs. */
  signal(name: NodeJS.Signals): void {
    if (this.running) this.child.kill(name);
  }
}
