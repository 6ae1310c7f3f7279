import { expect } from 'chai';
import { IntegerJoinHash } from '../../src/exec/hash/integer-join-hash.js';
import { JoinHash } from '../../src/exec/hash/join-hash.js';
import { KeyBitsTrial, keyBitsLog2 } from '../../src/exec/hash/key-bits.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT, VARCHAR } from '../../src/types/types.js';

/** Deterministic pseudo-random bigints over the whole int64 range and near zero. */
function keys(count: number, seed: number): (bigint | null)[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return state >>> 0;
  };
  return Array.from({ length: count }, () => {
    const r = next();
    if (r % 29 === 0) return null;
    if (r % 7 === 0) return BigInt.asIntN(64, (BigInt(next()) << 32n) | BigInt(next()));
    if (r % 11 === 0) return BigInt(r % 1000) << 32n;
    return BigInt((r % 100_000) - 50_000);
  });
}

/** The first build row of each probe key through the table, and through a Map (the oracle). */
async function firstRows(build: (bigint | null)[], probe: (bigint | null)[]): Promise<{ table: number[]; oracle: number[] }> {
  const hash = await IntegerJoinHash.build(columnFromScalars(BIGINT, build), build.length);
  const out = new Int32Array(probe.length);
  hash.lookup([columnFromScalars(BIGINT, probe)], probe.length, out);
  const firstOfKey = new Map<bigint, number>();
  build.forEach((k, row) => {
    if (k !== null && !firstOfKey.has(k)) firstOfKey.set(k, row);
  });
  return { table: [...out], oracle: probe.map((k) => (k === null ? -1 : (firstOfKey.get(k) ?? -1))) };
}

describe('join lookup tables with their filter of key hashes', () => {
  it('finds every build key and only those, whether or not the filter rejects the probe first', async () => {
    const build = keys(20_000, 3);
    // Half the probes are build keys (hits), half fresh keys (mostly rejected by the filter).
    const probe = [...keys(20_000, 3).slice(0, 10_000), ...keys(10_000, 77)];
    const { table, oracle } = await firstRows(build, probe);
    expect(oracle.filter((r) => r >= 0).length).to.be.greaterThan(9000);
    expect(table).to.deep.equal(oracle);
  });

  it('extreme int64 keys and keys equal in one word only', async () => {
    const extremes = [-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 1n, 2n ** 32n, -(2n ** 32n), 2n ** 32n + 1n, 4294967295n];
    const { table, oracle } = await firstRows(extremes, [...extremes, 2n, -2n, 2n ** 33n, 2n ** 62n, null]);
    expect(table).to.deep.equal(oracle);
  });

  it('a table shared with another thread keeps its filter and answers the same', async () => {
    const build = keys(5_000, 5);
    const probe = keys(5_000, 6);
    const hash = await IntegerJoinHash.build(columnFromScalars(BIGINT, build), build.length, undefined, true);
    const shared = hash.share();
    expect(shared.keyBits.length).to.be.greaterThan(0);
    const here = new Int32Array(probe.length);
    const there = new Int32Array(probe.length);
    hash.lookup([columnFromScalars(BIGINT, probe)], probe.length, here);
    IntegerJoinHash.fromShared(shared).lookup([columnFromScalars(BIGINT, probe)], probe.length, there);
    expect([...there]).to.deep.equal([...here]);
    expect([...here]).to.deep.equal((await firstRows(build, probe)).oracle);
  });

  it('the general table (two keys, one a string) finds the same build rows as a Map, also when shared', async () => {
    const pairs = (count: number, seed: number) =>
      keys(count, seed).map((k, i) => [k === null ? null : k % 500n, i % 13 === 0 ? null : `s${(i * 7919) % 40}`] as const);
    const build = pairs(8_000, 11);
    const probe = [...build.slice(0, 3_000), ...pairs(3_000, 12)];
    const columns = (rows: typeof build) => [
      columnFromScalars(
        BIGINT,
        rows.map((r) => r[0]),
      ),
      columnFromScalars(
        VARCHAR,
        rows.map((r) => r[1]),
      ),
    ];
    const hash = await JoinHash.build([BIGINT, VARCHAR], columns(build), build.length, undefined, true);
    expect(hash.share().keyBits.length).to.be.greaterThan(0);
    const here = new Int32Array(probe.length);
    const there = new Int32Array(probe.length);
    hash.lookup(columns(probe), probe.length, here);
    JoinHash.fromShared(hash.share(), columns(build)).lookup(columns(probe), probe.length, there);
    const firstOfKey = new Map<string, number>();
    build.forEach(([k, s], row) => {
      if (k !== null && s !== null && !firstOfKey.has(`${k}|${s}`)) firstOfKey.set(`${k}|${s}`, row);
    });
    const oracle = probe.map(([k, s]) => (k === null || s === null ? -1 : (firstOfKey.get(`${k}|${s}`) ?? -1)));
    expect(oracle.filter((r) => r >= 0).length).to.be.greaterThan(2500);
    expect([...here]).to.deep.equal(oracle);
    expect([...there]).to.deep.equal(oracle);
  });

  it('stops testing the filter where it rejects under a tenth of the first 65,536 probes, and answers the same after', async () => {
    const hits = new KeyBitsTrial(true);
    hits.record(65_536, 6_000);
    expect(hits.active).to.equal(false);
    const misses = new KeyBitsTrial(true);
    misses.record(65_536, 7_000);
    misses.record(65_536, 7_000);
    expect(misses.active).to.equal(true);
    // A table probed only with its own keys (every probe hits) past the trial, then with misses.
    const build = keys(30_000, 8);
    const hash = await IntegerJoinHash.build(columnFromScalars(BIGINT, build), build.length);
    for (let i = 0; i < 3; i++) hash.lookup([columnFromScalars(BIGINT, build)], build.length, new Int32Array(build.length));
    const probe = [...build.slice(0, 2_000), ...keys(2_000, 9)];
    const out = new Int32Array(probe.length);
    hash.lookup([columnFromScalars(BIGINT, probe)], probe.length, out);
    expect([...out]).to.deep.equal((await firstRows(build, probe)).oracle);
  });

  it('has a filter of at most a megabyte, and none where that would be under 4 bits a key', () => {
    expect(keyBitsLog2(100)).to.equal(11);
    expect(keyBitsLog2(500_000)).to.equal(23);
    expect(keyBitsLog2(2 ** 21)).to.equal(23);
    expect(keyBitsLog2(2 ** 21 + 1)).to.equal(0);
  });
});
