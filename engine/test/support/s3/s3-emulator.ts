// An S3 emulator run as a real process on a free loopback port, started and stopped by a test:
// fauxqs@1.9.2, in memory, with faithful ranged GETs, ListObjectsV2 paging, multipart uploads with
// `-N` ETags and DeleteObjects; it checks no signature and ignores If-None-Match on PUT (the test
// proxy checks signatures and can emulate the condition; Ceph RGW proves both for real).

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FAUXQS_MAIN = fileURLToPath(new URL('./fauxqs-main.js', import.meta.url));

export class S3Emulator {
  private constructor(
    private readonly child: ChildProcess,
    readonly endpoint: string,
  ) {}

  /** Starts the emulator with `buckets` created. */
  static async start(buckets: readonly string[]): Promise<S3Emulator> {
    const child = spawn(process.execPath, [FAUXQS_MAIN], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^listening (\d+)$/.exec(line);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`fauxqs exited with ${code} before listening:\n${stderr.join('')}`)));
    });
    const emulator = new S3Emulator(child, `http://127.0.0.1:${port}`);
    for (const bucket of buckets) {
      const response = await fetch(`${emulator.endpoint}/${bucket}`, { method: 'PUT' });
      if (!response.ok) throw new Error(`fauxqs did not create bucket ${bucket}: ${response.status}`);
    }
    return emulator;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      await exited;
    }
  }
}
