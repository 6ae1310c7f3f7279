// An S3 emulator run as a real process on a free loopback port, started and stopped by a test:
// - fauxqs@1.9.2: in memory; faithful ranged GETs, ListObjectsV2 paging, multipart uploads with
//   `-N` ETags, DeleteObjects; checks no signature; ignores If-None-Match on PUT.
// - s3rver@3.7.1: on disk; knows one access key (`S3RVER`) and refuses others, but does not check
//   V4 signatures ("unimplemented" in its source) and lets unsigned requests through; needs OpenSSL's
//   legacy provider (it encrypts continuation tokens with DES); ignores If-None-Match on PUT.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export type EmulatorKind = 'fauxqs' | 's3rver';

/** The credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' } as const;

const FAUXQS_MAIN = fileURLToPath(new URL('./fauxqs-main.js', import.meta.url));

export class S3Emulator {
  private constructor(
    readonly kind: EmulatorKind,
    private readonly child: ChildProcess,
    readonly endpoint: string,
    private readonly dataDirectory: string | undefined,
  ) {}

  /** Starts the emulator with `buckets` created. */
  static async start(kind: EmulatorKind, buckets: readonly string[]): Promise<S3Emulator> {
    const dataDirectory = kind === 's3rver' ? await mkdtemp(path.join(tmpdir(), 's3rver-')) : undefined;
    const args =
      kind === 'fauxqs'
        ? [FAUXQS_MAIN]
        : [
            '--openssl-legacy-provider',
            createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js'),
            ...['-d', dataDirectory!, '-a', '127.0.0.1', '-p', '0', '--silent', '--no-vhost-buckets'],
            ...buckets.flatMap((bucket) => ['--configure-bucket', bucket]),
          ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^listening (\d+)$/.exec(line) ?? /^S3rver listening on [\d.]+:(\d+)$/.exec(line);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`${kind} exited with ${code} before listening:\n${stderr.join('')}`)));
    });
    const emulator = new S3Emulator(kind, child, `http://127.0.0.1:${port}`, dataDirectory);
    if (kind === 'fauxqs') {
      for (const bucket of buckets) {
        const response = await fetch(`${emulator.endpoint}/${bucket}`, { method: 'PUT' });
        if (!response.ok) throw new Error(`fauxqs did not create bucket ${bucket}: ${response.status}`);
      }
    }
    return emulator;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      await exited;
    }
    if (this.dataDirectory !== undefined) await rm(this.dataDirectory, { recursive: true, force: true });
  }
}
