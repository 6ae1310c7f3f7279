// A build's integer keys as a bitmap (key-bitmap.ts), checked against a Set of the same keys: keys
// in any order and of any sign, the span limit, keys that are not safe integers, NULLs; and what a
// domain with a bitmap drops of a column's rows (exclude-rows.ts), against the keys themselves.

import { expect } from 'chai';
import { KeyBitmapBuilder, keyBitmapProblem, keysOfUnion } from '../../src/exec/dynamic-filters/key-bitmap.js';
import { forOtherNodes, KeyDomainCollector, unionDomains } from '../../src/exec/dynamic-filters/key-domain.js';
import { excludeRows } from '../../src/spi/domain/exclude-rows.js';
import { prepareDomain } from '../../src/spi/domain/prepared-domain.js';
import type { KeyBitmap } from '../../src/spi/connector.js';
import type { Column } from '../../src/columnar/page.js';
import { BIGINT, INTEGER } from '../../src/types/types.js';

const column = (type: Column['type'], values: Column['values'], nulls: Uint8Array | null = null): Column => ({
  type,
  length: values.length,
  values,
  nulls,
});

/** The keys a bitmap holds, ascending. */
function keysOf(bitmap: KeyBitmap): number[] {
  const keys: number[] = [];
  for (let i = 0; i < bitmap.size; i++) if ((bitmap.bits[i >>> 3] & (1 << (i & 7))) !== 0) keys.push(bitmap.base + i);
  return keys;
}

/** A deterministic pseudo-random sequence (xorshift), for keys in no order. */
function randoms(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const ascending = (keys: Iterable<number>) => [...new Set(keys)].sort((a, b) => a - b);

describe('dynamic filters: a build key bitmap', () => {
  it('holds exactly the keys added, ascending, descending, in no order, negative, at the ends of the safe integers', () => {
    const random = randoms(7);
    const cases: number[][] = [
      Array.from({ length: 100_000 }, (_, i) => 3 * i + 1),
      Array.from({ length: 100_000 }, (_, i) => 1_000_000 - 5 * i),
      Array.from({ length: 100_000 }, () => Math.floor(random() * 6_000_000) - 3_000_000),
      Array.from({ length: 1000 }, (_, i) => -17 - 13 * i),
      [-(2 ** 52), -(2 ** 52) + 20],
      [2 ** 53 - 1, 2 ** 53 - 9],
    ];
    for (const keys of cases) {
      const builder = new KeyBitmapBuilder();
      for (const k of keys) expect(builder.add(k)).to.equal(true);
      const bitmap = builder.finish()!;
      expect(bitmap.bits.buffer).to.be.instanceOf(SharedArrayBuffer);
      expect(keysOf(bitmap)).to.deep.equal(ascending(keys));
      expect(bitmap.base).to.equal(keys.reduce((a, b) => Math.min(a, b)) - (((keys.reduce((a, b) => Math.min(a, b)) % 8) + 8) % 8));
    }
  });

  it('gives up on keys spanning more than its limit, or not safe integers', () => {
    const spread = new KeyBitmapBuilder(1000);
    expect(spread.add(0)).to.equal(true);
    expect(spread.add(999)).to.equal(true);
    // Within a byte of the limit a key may still fit (the bits already held); past it, never.
    expect(spread.add(1020)).to.equal(false);
    const below = new KeyBitmapBuilder(1000);
    expect(below.add(500)).to.equal(true);
    expect(below.add(-500)).to.equal(false);
    expect(new KeyBitmapBuilder().add(2 ** 53)).to.equal(false);
    expect(new KeyBitmapBuilder().add(1.5)).to.equal(false);
    const huge = new KeyBitmapBuilder();
    expect(huge.addInt64(BigInt64Array.of(1n, 2n ** 60n), null, 0, 2)).to.equal(false);
    expect(new KeyBitmapBuilder().finish()).to.equal(undefined);
  });

  it('makes no bitmap of keys that fill half their span or more (a bitmap drops too few rows to pay)', () => {
    const dense = new KeyBitmapBuilder();
    for (let k = 1; k <= 200_000; k++) if (k % 20 !== 0) dense.add(k);
    expect(dense.finish()).to.equal(undefined);
    const one = new KeyBitmapBuilder();
    one.add(42);
    expect(one.finish()).to.equal(undefined);
    const half = new KeyBitmapBuilder();
    for (let k = 1; k <= 200_000; k += 2) half.add(k);
    expect(half.finish()).to.equal(undefined);
    const third = new KeyBitmapBuilder();
    for (let k = 1; k <= 200_000; k += 3) third.add(k);
    expect(keysOf(third.finish()!).length).to.equal(66_667);
  });

  it('a collector asked for bitmaps keeps one past its values limit, NULLs left out; not asked, only the range', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => 7 * i - 10_000);
    const nulls = Uint8Array.from(keys, (_, i) => (i % 3 === 0 ? 1 : 0));
    const values = BigInt64Array.from(keys, BigInt);
    for (const [type, data] of [
      [BIGINT, values],
      [INTEGER, Int32Array.from(keys)],
    ] as const) {
      const collector = new KeyDomainCollector(100, true);
      // In slices, as a long build page is added.
      for (let start = 0; start < keys.length; start += 1024)
        collector.add(column(type, data, nulls), start, Math.min(keys.length, start + 1024));
      const domain = collector.domain();
      expect(domain.values).to.equal(undefined);
      expect(keysOf(domain.keys!)).to.deep.equal(ascending(keys.filter((_, i) => nulls[i] === 0)));
      const off = new KeyDomainCollector(100, false);
      off.add(column(type, data, nulls));
      expect(off.domain().keys).to.equal(undefined);
      expect(off.domain().low).to.deep.equal(domain.low);
    }
  });

  it('a collector keeps no bitmap for keys beyond 2^53 or spanning too much, and the values while few', () => {
    const beyond = new KeyDomainCollector(2, true);
    beyond.add(column(BIGINT, BigInt64Array.of(1n, 2n, 3n, 2n ** 60n)));
    expect(beyond.domain()).to.deep.equal({ low: { value: 1n, inclusive: true }, high: { value: 2n ** 60n, inclusive: true } });
    const wide = new KeyDomainCollector(2, true);
    wide.add(column(BIGINT, BigInt64Array.of(1n, 2n, 3n, 2n ** 40n)));
    expect(wide.domain().keys).to.equal(undefined);
    const few = new KeyDomainCollector(10, true);
    few.add(column(BIGINT, BigInt64Array.of(1n, 2n, 3n)));
    expect(few.domain()).to.deep.equal({ low: { value: 1n, inclusive: true }, high: { value: 3n, inclusive: true }, values: [1n, 2n, 3n] });
  });

  it('a collector with a bitmap past bitmapAfter keys (a probe side read first) keeps the keys it cannot bit as a list to maxValues', () => {
    const keys = [40, 3, 17, 3, 25, 9, 12];
    const integers = new KeyDomainCollector(100, true, 3);
    for (let start = 0; start < keys.length; start += 2)
      integers.add(column(BIGINT, BigInt64Array.from(keys, BigInt)), start, Math.min(keys.length, start + 2));
    const bits = integers.domain();
    expect(bits.values).to.equal(undefined);
    expect(keysOf(bits.keys!)).to.deep.equal(ascending([...new Set(keys)]));
    expect([bits.low?.value, bits.high?.value]).to.deep.equal([3n, 40n]);
    // Spanning more than a bitmap may: the list goes on, as without bitmaps, to maxValues.
    const wideKeys = [1n, 2n ** 40n, 5n, 7n, 11n];
    const wide = new KeyDomainCollector(100, true, 2);
    wide.add(column(BIGINT, BigInt64Array.from(wideKeys)));
    expect(wide.domain().keys).to.equal(undefined);
    expect(wide.domain().values).to.deep.equal(wideKeys);
    const tooMany = new KeyDomainCollector(4, true, 2);
    tooMany.add(column(BIGINT, BigInt64Array.from(wideKeys)));
    expect(tooMany.domain()).to.deep.equal({ low: { value: 1n, inclusive: true }, high: { value: 2n ** 40n, inclusive: true } });
    // Keys filling half their span or more stay a list (a bitmap of them would end as their range alone).
    const dense = new KeyDomainCollector(100, true, 3);
    dense.add(column(BIGINT, BigInt64Array.of(1n, 2n, 3n, 4n, 6n, 8n)));
    expect(dense.domain().values).to.deep.equal([1n, 2n, 3n, 4n, 6n, 8n]);
    const off = new KeyDomainCollector(100, false, 3);
    off.add(column(BIGINT, BigInt64Array.from(keys, BigInt)));
    expect(off.domain().values).to.have.length(6);
  });

  it("the union of a build made in parts holds both parts' keys; sent to other nodes, the bitmap only within its byte budget", () => {
    const part = (keys: number[]) => {
      const collector = new KeyDomainCollector(3, true);
      collector.add(column(BIGINT, BigInt64Array.from(keys, BigInt)));
      return collector.domain();
    };
    const a = part([10, 20, 30, 40, 50]);
    const b = part([-5, 1000, 7, 9]);
    const union = unionDomains(a, b, 3);
    expect(keysOf(union.keys!)).to.deep.equal([-5, 7, 9, 10, 20, 30, 40, 50, 1000]);
    expect([union.low?.value, union.high?.value]).to.deep.equal([-5n, 1000n]);
    const withList = unionDomains(a, part([60, 70]), 3);
    expect(keysOf(withList.keys!)).to.deep.equal([10, 20, 30, 40, 50, 60, 70]);
    expect(keysOfUnion(a, { values: ['x'] })).to.equal(undefined);
    expect(unionDomains(a, { low: { value: 0n, inclusive: true }, high: { value: 1n, inclusive: true } }).keys).to.equal(undefined);
    // Bits from -8 (a multiple of 8) to 1000: 127 bytes.
    expect(union.keys!.bits.byteLength).to.equal(127);
    expect(forOtherNodes(union, 126)).to.deep.equal({ low: union.low, high: union.high });
    expect(forOtherNodes(union, 127)).to.equal(union);
  });

  it('the union of bitmaps from several tasks (a partitioned build) ORs them, and drops one that fills half its span', () => {
    const bitmap = (keys: number[]) => {
      const collector = new KeyDomainCollector(1, true);
      collector.add(column(BIGINT, BigInt64Array.from(keys, BigInt)));
      return collector.domain();
    };
    // Even keys in one task, odd ones in the other, interleaved over the same span (as a hash partitioning spreads them).
    const even = Array.from({ length: 100 }, (_, i) => 1_000 + 40 * i);
    const odd = Array.from({ length: 100 }, (_, i) => 1_013 + 40 * i + (i % 3));
    const union = unionDomains(bitmap(even), bitmap(odd));
    expect(keysOf(union.keys!)).to.deep.equal(ascending([...even, ...odd]));
    expect(union.keys!.bits.buffer).to.be.instanceOf(SharedArrayBuffer);
    // Far apart: the union spans both, with nothing between set.
    const far = unionDomains(bitmap([3, 9, 17]), bitmap([1_000_003, 1_000_100]));
    expect(keysOf(far.keys!)).to.deep.equal([3, 9, 17, 1_000_003, 1_000_100]);
    // Each a third of its span, together two thirds: no bitmap, only the range.
    const thirds = (offset: number) => Array.from({ length: 300 }, (_, i) => 3 * i + offset);
    const dense = unionDomains(bitmap(thirds(0)), bitmap(thirds(1)));
    expect(dense).to.deep.equal({ low: { value: 0n, inclusive: true }, high: { value: 898n, inclusive: true } });
  });

  it("two lists of keys past the limit together make a bitmap only when asked (a partitioned join's tasks at the coordinator)", () => {
    const list = (keys: number[]) => {
      const collector = new KeyDomainCollector(100, true);
      collector.add(column(BIGINT, BigInt64Array.from(keys, BigInt)));
      return collector.domain();
    };
    const a = list([5, 50, 500]);
    const b = list([7, 70, 700, 7000]);
    expect(unionDomains(a, b, 5).keys).to.equal(undefined);
    const union = unionDomains(a, b, 5, true);
    expect(keysOf(union.keys!)).to.deep.equal([5, 7, 50, 70, 500, 700, 7000]);
    expect(union.values).to.equal(undefined);
    // Within the limit, the list as ever; keys not all integers, the range only.
    expect(unionDomains(a, b, 10, true).values).to.have.length(7);
    expect(
      unionDomains(a, { low: { value: 'a', inclusive: true }, high: { value: 'b', inclusive: true }, values: ['a', 'b'] }, 3, true).keys,
    ).to.equal(undefined);
  });

  it('names what is wrong with a bitmap another node sent', () => {
    const bits = new Uint8Array(2);
    expect(keyBitmapProblem({ base: 8, size: 16, bits })).to.equal(undefined);
    expect(keyBitmapProblem({ base: 3, size: 16, bits })).to.match(/base 3/);
    expect(keyBitmapProblem({ base: 8, size: 17, bits })).to.match(/not 3 bytes/);
    expect(keyBitmapProblem({ base: 8, size: 2 ** 26, bits })).to.match(/size/);
    expect(keyBitmapProblem({ base: 2 ** 60, size: 16, bits })).to.match(/base/);
  });

  it('drops the rows of a column whose value is no key, keeps NULL out and values beyond 2^53 for the engine', () => {
    const random = randoms(11);
    const keys = Array.from({ length: 80_000 }, () => Math.floor(random() * 1_000_000));
    const collector = new KeyDomainCollector(50_000, true);
    collector.add(column(BIGINT, BigInt64Array.from(keys, BigInt)));
    const domain = { column: 'k', ...collector.domain() };
    expect(domain.keys).to.not.equal(undefined);
    const keySet = new Set(keys);
    const probe = Array.from({ length: 50_000 }, () => Math.floor(random() * 1_200_000) - 100_000);
    const values = BigInt64Array.from([...probe.map(BigInt), 2n ** 60n, 5n]);
    const nulls = new Uint8Array(values.length);
    nulls[values.length - 1] = 1;
    const keep = new Uint8Array(values.length).fill(1);
    excludeRows(column(BIGINT, values, nulls), prepareDomain(domain, false)!, keep);
    expect([...keep.subarray(0, probe.length)]).to.deep.equal(probe.map((v) => (keySet.has(v) ? 1 : 0)));
    // 2^60 is above the range (dropped by its bounds); the NULL never matches.
    expect([keep[probe.length], keep[probe.length + 1]]).to.deep.equal([0, 0]);
  });
});
