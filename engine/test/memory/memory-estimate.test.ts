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

describe('sampled string sizes (output buffer bounds)', () => {
  it('measures short arrays exactly and long ones from a sample, within a few percent', async () => {
    const { sampledStringArrayBytes, stringArrayBytes } = await import('../../src/columnar/memory-estimate.js');
    const short = ['a', 'bb', 'ccc', 'é', '中文'];
    expect(sampledStringArrayBytes(short)).to.equal(stringArrayBytes(short));
    // Lengths 0..99 from a generator, about one string in eight two-byte: the sample sees the same mix.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const long = Array.from({ length: 20_000 }, () => (next() % 8 === 0 ? '中' : 'x').repeat(next() % 100));
    const exact = stringArrayBytes(long);
    expect(Math.abs(sampledStringArrayBytes(long) - exact) / exact).to.be.lessThan(0.1);
  });
});
