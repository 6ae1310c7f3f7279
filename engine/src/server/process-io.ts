// The bytes this process read and wrote, as Linux counts them in /proc/self/io: `read_bytes` and
// `write_bytes` reached storage, `rchar` and `wchar` every read and write call (sockets included).
// Elsewhere (no /proc) the figures are absent, not zero.

import { readFileSync } from 'node:fs';

export interface ProcessIo {
  storageReadBytes: number;
  storageWriteBytes: number;
  readCallBytes: number;
  writeCallBytes: number;
}

export function processIo(): ProcessIo | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/io', 'utf8');
  } catch {
    return undefined;
  }
  const fields = new Map(text.split('\n').map((line) => line.split(':').map((part) => part.trim()) as [string, string]));
  const field = (name: string) => Number(fields.get(name) ?? NaN);
  const io = {
    storageReadBytes: field('read_bytes'),
    storageWriteBytes: field('write_bytes'),
    readCallBytes: field('rchar'),
    writeCallBytes: field('wchar'),
  };
  return Object.values(io).every(Number.isFinite) ? io : undefined;
}
