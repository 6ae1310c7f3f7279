// Accounting follows real allocations: what a hash table of distinct strings reserves is within
// 1.5x of what V8 really holds for it (heap plus typed-array buffers), for short and long, one- and
// two-byte strings. Before memory-estimate, strings were counted at two bytes per character and no
// header, so a table of long one-byte strings was counted at about twice its real size.

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROBE = fileURLToPath(new URL('./string-hash-probe.js', import.meta.url));

/** Measured in a process of its own, so that no other test's garbage comes or goes in between. */
function probe(length: number, wide: boolean): { groups: number; counted: number; real: number } {
  const run = spawnSync(process.execPath, ['--expose-gc', PROBE, String(length), String(wide)], { encoding: 'utf8' });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as { groups: number; counted: number; real: number };
}

describe('memory accounting of strings', function () {
  this.timeout(60_000);

  for (const [length, wide] of [
    [6, false],
    [40, false],
    [40, true],
  ] as const) {
    it(`counts a distinct hash of ${length}-character ${wide ? 'two' : 'one'}-byte strings within 1.5x of the real heap`, () => {
      const { groups, counted, real } = probe(length, wide);
      expect(groups).to.equal(200_000);
      expect(counted / real, `counted ${counted}, real ${real}`).to.be.within(1 / 1.5, 1.5);
    });
  }
});
