// Run as its own process (node --expose-gc string-hash-probe.js LENGTH WIDE): fills a distinct hash
// with 200,000 strings and prints what the accounting counts and what V8 really holds for it, so that
// no other test's garbage is freed or made in between.

import { GroupByHash } from '../../src/exec/hash/group-by-hash.js';
import type { Column } from '../../src/columnar/page.js';
import { VARCHAR } from '../../src/types/types.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

function realBytes(): number {
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** `count` distinct flat strings (as decoding makes them) of about `length` characters. */
function strings(count: number, length: number, wide: boolean): string[] {
  const pad = (wide ? 'ж' : 'x').repeat(Math.max(0, length - 7));
  return Array.from({ length: count }, (_, i) => Buffer.from(`${i}${pad}`, 'utf8').toString('utf8'));
}

const length = Number(process.argv[2]);
const wide = process.argv[3] === 'true';
const before = realBytes();
const values = strings(200_000, length, wide);
const hash = new GroupByHash([VARCHAR]);
const column: Column = { type: VARCHAR, length: values.length, values, nulls: null };
hash.putRows([column], values.length, new Int32Array(values.length));
// Only the hash holds the strings now, as after the page that brought them is gone.
values.length = 0;
const real = realBytes() - before;
console.log(JSON.stringify({ groups: hash.groupCount, counted: hash.sizeInBytes(), real }));
