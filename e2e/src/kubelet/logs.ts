// Container logs in the CRI format kubelets keep on disk ("<RFC3339Nano time> <stream> <F|P> <text>"
// per line), one file per container instance so that ?previous=true reads the one before, and
// the reading side of pods/log: tailLines, sinceSeconds/sinceTime, timestamps, limitBytes, follow.
import fs from 'node:fs';
import type { Readable } from 'node:stream';

/** Lines longer than this are split into partial (P) entries, as the CRI runtime splits them. */
const maxLine = 16 * 1024;

function timestamp(): string {
  const d = new Date();
  return d.toISOString().replace(/\.(\d{3})Z$/, (_m, ms: string) => `.${ms}${String(process.hrtime()[1] % 1_000_000).padStart(6, '0')}Z`);
}

export class LogWriter {
  private readonly fd: number;
  private closed = false;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'a');
  }

  /** Copies a stream line by line; resolves when it ends. */
  capture(stream: Readable, name: 'stdout' | 'stderr'): Promise<void> {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        this.entry(name, 'F', pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
      while (pending.length > maxLine) {
        this.entry(name, 'P', pending.slice(0, maxLine));
        pending = pending.slice(maxLine);
      }
    });
    return new Promise((resolve) =>
      stream.on('close', () => {
        if (pending) this.entry(name, 'F', pending);
        resolve();
      }),
    );
  }

  private entry(stream: string, tag: 'F' | 'P', text: string): void {
    if (this.closed) return;
    fs.writeSync(this.fd, `${timestamp()} ${stream} ${tag} ${text}\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

export interface LogQuery {
  tailLines?: number;
  sinceTime?: number;
  timestamps: boolean;
  limitBytes?: number;
}

interface Entry {
  time: string;
  text: string;
  complete: boolean;
}

function parse(line: string): Entry | undefined {
  const m = /^(\S+) (stdout|stderr) ([FP]) (.*)$/.exec(line);
  return m ? { time: m[1], text: m[4], complete: m[3] === 'F' } : undefined;
}

/** Formats whole log lines (partial entries joined) as pods/log returns them. */
function render(entries: Entry[], q: LogQuery): string {
  let out = '';
  let line = '';
  let first = '';
  for (const e of entries) {
    if (!line) first = e.time;
    line += e.text;
    if (!e.complete) continue;
    if (q.sinceTime === undefined || Date.parse(first) >= q.sinceTime) out += (q.timestamps ? `${first} ` : '') + line + '\n';
    line = '';
  }
  return out;
}

function entriesOf(text: string): Entry[] {
  return text
    .split('\n')
    .map(parse)
    .filter((e): e is Entry => e !== undefined);
}

/** The log so far with tailLines / since / timestamps applied, and the byte offset read to. */
export function readLog(file: string, q: LogQuery): { text: string; offset: number } {
  const buffer = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
  const end = buffer.lastIndexOf(10) + 1;
  let text = render(entriesOf(buffer.subarray(0, end).toString('utf8')), q);
  if (q.tailLines !== undefined) {
    const lines = text.split('\n').slice(0, -1);
    text = lines
      .slice(Math.max(0, lines.length - q.tailLines))
      .map((l) => l + '\n')
      .join('');
  }
  return { text, offset: end };
}

/**
 * Streams what is appended to the log after `offset` until `done()` says the container stopped
 * and everything is read, or `signal` aborts (the client went away).
 */
export async function followLog(
  file: string,
  offset: number,
  q: LogQuery,
  write: (text: string) => void,
  done: () => boolean,
  signal: AbortSignal,
): Promise<void> {
  let position = offset;
  while (!signal.aborted) {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size > position) {
      const fd = fs.openSync(file, 'r');
      const chunk = Buffer.alloc(size - position);
      fs.readSync(fd, chunk, 0, chunk.length, position);
      fs.closeSync(fd);
      const end = chunk.lastIndexOf(10) + 1;
      position += end;
      const text = render(entriesOf(chunk.subarray(0, end).toString('utf8')), { ...q, sinceTime: undefined });
      if (text) write(text);
      continue;
    }
    if (done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
