// The generator's building blocks: the random streams and their jumps, the embedded distributions
// (checked against the reference dists.dss), and the text pool.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sharedPath } from '../../scripts/shared-dir.js';
import * as data from '../../src/connectors/tpch/distribution-data.js';
import { drawIntAt, drawInts, drawKeys, drawLineInts } from '../../src/connectors/tpch/draws.js';
import { MODULUS, jumpFactor, mulMod, nextSeed } from '../../src/connectors/tpch/random.js';
import { RandomStream64 } from '../../src/connectors/tpch/random64.js';
import {
  TEXT_POOL_SIZE,
  TextPool,
  adoptSharedTextPool,
  generateTextPoolBytes,
  sharedTextPool,
  textPool,
} from '../../src/connectors/tpch/text-pool.js';

/** dists.dss parsed: name -> [value, weight][] (the `count` line checked and dropped). */
function parseDists(text: string): Map<string, [string, number][]> {
  const dists = new Map<string, [string, number][]>();
  let name: string | undefined;
  let entries: [string, number][] = [];
  let count = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const words = line.split(/\s+/);
    if (name === undefined) {
      if (words.length === 2 && words[0].toLowerCase() === 'begin') {
        name = words[1].toLowerCase();
        entries = [];
      }
      continue;
    }
    if (words[0].toLowerCase() === 'end') {
      expect(entries.length, name).to.equal(count);
      dists.set(name, entries);
      name = undefined;
      continue;
    }
    const [value, weight] = line.split('|').map((s) => s.trim());
    if (value.toLowerCase() === 'count') count = Number(weight);
    else entries.push([value, Number(weight)]);
  }
  return dists;
}

function powMod(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
  return result;
}

describe('tpch: random streams', () => {
  it('step as seed * 16807 mod 2^31-1', () => {
    let seed = 933588178;
    for (let i = 0; i < 1000; i++) {
      const expected = Number((BigInt(seed) * 16807n) % 2147483647n);
      seed = nextSeed(seed);
      expect(seed).to.equal(expected);
    }
  });

  it('multiply exactly modulo 2^31-1', () => {
    const samples = [1, 2, 16807, 65535, 65536, 1 << 30, MODULUS - 1, 1234567891, 2095021727];
    for (const a of samples) {
      for (const b of samples) expect(mulMod(a, b), `${a}*${b}`).to.equal(Number((BigInt(a) * BigInt(b)) % BigInt(MODULUS)));
    }
  });

  it('jump ahead by any count as that many steps', () => {
    let seed = 1095462486;
    for (let steps = 0; steps <= 300; steps++) {
      expect(mulMod(1095462486, jumpFactor(steps)), `${steps} steps`).to.equal(seed);
      seed = nextSeed(seed);
    }
    // 16807^(m-1) = 1 (Fermat), so a jump by m-1 is no move at all.
    expect(jumpFactor(MODULUS - 1)).to.equal(1);
    expect(jumpFactor(2 * (MODULUS - 1) + 5)).to.equal(jumpFactor(5));
  });

  it('start any order where drawing the orders before it would', () => {
    const lineCounts = Uint8Array.from({ length: 60 }, (_, i) => 1 + ((i * 5) % 7));
    const linesBefore = (order: number) => lineCounts.subarray(0, order).reduce((a, b) => a + b, 0);
    const all = drawLineInts(2095021727, 7, 0, lineCounts, linesBefore(60), 0, 3);
    for (const start of [1, 13, 59]) {
      const counts = lineCounts.subarray(start);
      const tail = drawLineInts(2095021727, 7, start, counts, linesBefore(60) - linesBefore(start), 0, 3);
      expect(Array.from(tail), `from order ${start}`).to.deep.equal(Array.from(all.subarray(linesBefore(start))));
    }
    const rows = drawInts(1066728069, 3, 0, 100, 1, 1000);
    expect(Array.from(drawInts(1066728069, 3, 42, 58, 1, 1000))).to.deep.equal(Array.from(rows.subarray(42)));
    expect(drawIntAt(1066728069, 3, 77, 1, 1000)).to.equal(rows[77]);
  });

  it('draw uniform integers as dbgen does: low + floor(value / m * range)', () => {
    // The first value from seed 1 is 16807, and 16807 / m * 5 < 1.
    expect(drawInts(1, 1, 0, 1, 1, 5)[0]).to.equal(1);
    const values = drawInts(1, 1, 0, 2000, -3, 3);
    expect(Math.min(...values)).to.equal(-3);
    expect(Math.max(...values)).to.equal(3);
    expect(drawKeys(1, 1, 0, 2000, 1, 6e9).every((v) => Number.isInteger(v) && v >= 1 && v <= 6e9)).to.equal(true);
  });

  it('64-bit streams (from SF 30000) step as a 64-bit LCG and start rows with the 31-bit jump, as dbgen', () => {
    const range = 4_500_000_000n;
    const step = (seed: bigint) => BigInt.asIntN(64, seed * 6364136223846793005n + 1n);
    const value = (seed: bigint) => Number(1n + ((seed < 0n ? -seed : seed) % range));
    // Within a chunk, rows that use all their values follow the LCG.
    const stream = new RandomStream64(851767375, 1);
    let seed = 851767375n;
    for (let row = 0; row < 50; row++) {
      seed = step(seed);
      const v = stream.nextLong(1, Number(range));
      expect(v).to.equal(value(seed)).and.to.be.within(1, Number(range));
      stream.finishRow();
    }
    // A chunk starting at row k starts from seed * 16807^k mod 2^31-1.
    for (const row of [1, 7, 1000, 123456789]) {
      const start = (851767375n * powMod(16807n, BigInt(row), 2147483647n)) % 2147483647n;
      expect(new RandomStream64(851767375, 1, row).nextLong(1, Number(range)), `row ${row}`).to.equal(value(step(start)));
    }
  });
});

describe('tpch: distributions', () => {
  const reference = parseDists(readFileSync(sharedPath('tpch', 'dists.dss'), 'latin1'));
  const embedded: [string, data.WeightedValues][] = [
    ['nations', data.NATIONS],
    ['regions', data.REGIONS],
    ['p_types', data.PART_TYPES],
    ['p_cntr', data.PART_CONTAINERS],
    ['colors', data.PART_COLORS],
    ['msegmnt', data.MARKET_SEGMENTS],
    ['o_oprio', data.ORDER_PRIORITIES],
    ['rflag', data.RETURN_FLAGS],
    ['instruct', data.SHIP_INSTRUCTIONS],
    ['smode', data.SHIP_MODES],
    ['grammar', data.GRAMMAR],
    ['np', data.NOUN_PHRASES],
    ['vp', data.VERB_PHRASES],
    ['nouns', data.NOUNS],
    ['verbs', data.VERBS],
    ['adjectives', data.ADJECTIVES],
    ['adverbs', data.ADVERBS],
    ['articles', data.ARTICLES],
    ['prepositions', data.PREPOSITIONS],
    ['auxillaries', data.AUXILIARIES],
    ['terminators', data.TERMINATORS],
  ];
  for (const [name, values] of embedded) {
    it(`${name} equals dists.dss`, () => {
      expect(values.map(([v, w]) => [v, w])).to.deep.equal(reference.get(name));
    });
  }
});

describe('tpch: text pool', () => {
  it('is 300 MiB of generated sentences', () => {
    const pool = textPool();
    expect(pool.size).to.equal(TEXT_POOL_SIZE);
    expect(pool.slice(0, 67)).to.equal('furiously special foxes haggle furiously blithely ironic deposits. ');
    expect(pool.slice(TEXT_POOL_SIZE - 1000, 1000)).to.match(/^[a-z ,.;:?!-]{1000}$/);
  });

  it('builds the same bytes into shared memory, for other threads to adopt', () => {
    const size = 1 << 20;
    const bytes = new Uint8Array(new SharedArrayBuffer(size + 1024));
    generateTextPoolBytes(bytes, size);
    expect(new TextPool(bytes, size).slice(size - 1000, 1000)).to.equal(textPool().slice(size - 1000, 1000));
    expect(() => adoptSharedTextPool(new SharedArrayBuffer(size))).to.throw('not a TPC-H text pool buffer');
  });

  it('is shared with a worker thread, which adopts it instead of building its own', async () => {
    const buffer = sharedTextPool();
    expect(sharedTextPool()).to.equal(buffer);
    const workerSource = `
      import { parentPort, workerData } from 'node:worker_threads';
      const { adoptSharedTextPool, textPool } = await import(workerData.module);
      adoptSharedTextPool(workerData.buffer);
      const started = Date.now();
      const pool = textPool();
      parentPort.postMessage({ size: pool.size, head: pool.slice(0, 100), tail: pool.slice(pool.size - 100, 100), millis: Date.now() - started });
    `;
    const module = new URL('../../src/connectors/tpch/text-pool.js', import.meta.url).href;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerSource)}`), { workerData: { module, buffer } });
    const reply = await new Promise<{ size: number; head: string; tail: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    const pool = textPool();
    expect(reply).to.include({ size: pool.size, head: pool.slice(0, 100), tail: pool.slice(pool.size - 100, 100) });
  });
});
