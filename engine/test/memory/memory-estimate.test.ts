// Accounting follows real allocations: what a hash table of distinct strings reserves is within
// 1.5x of what V8 really holds for it (heap plus typed-array buffers), for short and long, one- and
// two-byte strings. Before memory-estimate, strings were counted at two bytes per character and no
// header, so a table of long one-byte strings was counted at about twice its real size.

import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GroupByHash } from '../../src/exec/hash/group-by-hash.js';
import type { Column } from '../../src/spi/page.js';
import { VARCHAR } from '../../src/types/types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function realBytes(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** `count` distinct flat strings (as decoding makes them) of about `length` characters. */
function strings(count: number, length: number, wide: boolean): string[] {
  const pad = (wide ? 'ж' : 'x').repeat(Math.max(0, length - 7));
  return Array.from({ length: count }, (_, i) => Buffer.from(`${i}${pad}`, 'utf8').toString('utf8'));
}

describe('memory accounting of strings', function () {
  this.timeout(60_000);

  for (const [length, wide] of [
    [6, false],
    [40, false],
    [40, true],
  ] as const) {
    it(`counts a distinct hash of ${length}-character ${wide ? 'two' : 'one'}-byte strings within 1.5x of the real heap`, () => {
      const before = realBytes();
      const values = strings(200_000, length, wide);
      const hash = new GroupByHash([VARCHAR]);
      const column: Column = { type: VARCHAR, length: values.length, values, nulls: null };
      hash.putRows([column], values.length, new Int32Array(values.length));
      // Only the hash holds the strings now, as after the page that brought them is gone.
      values.length = 0;
      const real = realBytes() - before;
      const counted = hash.sizeInBytes();
      expect(hash.groupCount).to.equal(200_000);
      expect(counted / real, `counted ${counted}, real ${real}`).to.be.within(1 / 1.5, 1.5);
    });
  }
});
