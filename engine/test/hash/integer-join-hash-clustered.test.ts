// Clustered keys (runs of one key, as lineitem by order): the integer join table is sized by the
// runs of equal keys rather than the rows (no more distinct keys than runs). Every probe must answer
// as a Map of the build rows does (its whole chain, in build order), across NULLs inside a run, keys
// equal in one word only, runs of probes the table's filter of key hashes rejects, one key repeated,
// keys alternating (as many runs as rows), all NULL and no rows.

import { expect } from 'chai';
import { IntegerJoinHash } from '../../src/exec/hash/integer-join-hash.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT, INTEGER } from '../../src/types/types.js';

/** Build rows of the big table (a few MB). */
const BIG_BUILD = 300_000;

/** Runs of 1..7 equal keys; a NULL inside some runs; keys alternating between two that share their low word. */
function clusteredKeys(count: number, seed: number): (bigint | null)[] {
  const keys: (bigint | null)[] = [];
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return state >>> 0;
  };
  for (let run = 0; keys.length < count; run++) {
    const r = next();
    const key = r % 10 === 0 ? BigInt(run % 50) << 32n : r % 10 === 1 ? -BigInt(run) : BigInt(run * 4 + (r % 3));
    const length = 1 + (r % 7);
    for (let i = 0; i < length && keys.length < count; i++) keys.push(i === 2 && r % 5 === 0 ? null : key);
  }
  return keys;
}

/** Each probe's build rows in chain order (first row, then `next`), through the table and through a Map. */
async function chains(build: (bigint | null)[], probe: (bigint | null)[]): Promise<{ table: number[][]; oracle: number[][] }> {
  const hash = await IntegerJoinHash.build(columnFromScalars(BIGINT, build), build.length);
  const out = new Int32Array(probe.length);
  hash.lookup([columnFromScalars(BIGINT, probe)], probe.length, out);
  const table = [...out].map((first) => {
    const rows: number[] = [];
    for (let row = first; row >= 0; row = hash.next[row]) rows.push(row);
    return rows;
  });
  const rowsOfKey = new Map<bigint, number[]>();
  build.forEach((k, row) => {
    if (k !== null) rowsOfKey.set(k, [...(rowsOfKey.get(k) ?? []), row]);
  });
  return { table, oracle: probe.map((k) => (k === null ? [] : (rowsOfKey.get(k) ?? []))) };
}

describe('integer join table on clustered keys', () => {
  it('chains every build row of a run in build order, big and small tables', async () => {
    for (const rows of [BIG_BUILD, 20_000]) {
      const build = clusteredKeys(rows, 7);
      const probe = [...build, ...clusteredKeys(5_000, 8)];
      const { table, oracle } = await chains(build, probe);
      expect(oracle.filter((chain) => chain.length > 1).length).to.be.greaterThan(rows / 4);
      expect(table).to.deep.equal(oracle);
      expect(build.includes(null)).to.equal(true);
    }
  });

  it('answers runs of probes the filter rejects, then hits, then NULLs, then the same key again', async () => {
    const absent = 2n ** 40n + 1n;
    const probe = [absent, absent, absent, 5n, 5n, null, 5n, 2n ** 32n + 5n, 2n ** 32n + 5n, 5n, null, null, absent, 7n, 7n];
    for (const build of [
      [5n, 5n, 6n, 2n ** 32n + 5n, null, 7n],
      [...clusteredKeys(BIG_BUILD, 9), 5n, 5n, 2n ** 32n + 5n, 7n],
    ]) {
      const { table, oracle } = await chains(build, probe);
      expect(oracle[0]).to.deep.equal([]);
      expect(oracle[3].length).to.be.greaterThan(0);
      expect(table).to.deep.equal(oracle);
    }
  });

  it('integer keys (sign-extended words) in runs, negative ones included', async () => {
    const build = [-1, -1, 0, 0, 0, 1, null, 1, -2147483648, -2147483648, 2147483647];
    const probe = [0, 0, -1, -1, 1, 1, null, -2147483648, 2147483647, 2147483647, 3, 3];
    const hash = await IntegerJoinHash.build(columnFromScalars(INTEGER, build), build.length);
    const out = new Int32Array(probe.length);
    hash.lookup([columnFromScalars(INTEGER, probe)], probe.length, out);
    const first = probe.map((k) => (k === null ? -1 : build.indexOf(k)));
    expect([...out]).to.deep.equal(first);
    expect(hash.next[2]).to.equal(3);
    expect(hash.next[3]).to.equal(4);
    expect(hash.next[5]).to.equal(7);
    expect([...hash.nullKeyRows]).to.deep.equal([6]);
  });

  it('holds every key whatever its runs: one key repeated, keys alternating, all NULL, no rows', async () => {
    const alternating = Array.from({ length: 5_000 }, (_, i) => BigInt(i % 2 === 0 ? i : -i));
    const cases: (bigint | null)[][] = [Array(5_000).fill(42n), alternating, Array(100).fill(null), []];
    for (const build of cases) {
      const { table, oracle } = await chains(build, [...alternating, 42n, 42n, null, 7n]);
      expect(table).to.deep.equal(oracle);
    }
  });
});
