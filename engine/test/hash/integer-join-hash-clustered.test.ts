// Clustered keys (runs of one key, as lineitem by order): the integer join table inserts and probes
// a row with the key of the row before it without hashing it again. Every build row must still be
// chained in build order under its key, and every probe must answer as a Map of the build rows does,
// across NULLs inside a run, runs over the build's slices, keys equal in one word only, and probes
// the table's filter of key hashes rejects.

import { expect } from 'chai';
import { IntegerJoinHash } from '../../src/exec/hash/integer-join-hash.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT, INTEGER } from '../../src/types/types.js';

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
  it('chains every build row of a run in build order, runs crossing the build slices included', async () => {
    const build = clusteredKeys(40_000, 7);
    const probe = [...build, ...clusteredKeys(5_000, 8)];
    const { table, oracle } = await chains(build, probe);
    expect(oracle.filter((rows) => rows.length > 1).length).to.be.greaterThan(10_000);
    expect(table).to.deep.equal(oracle);
    expect(build.includes(null)).to.equal(true);
  });

  it('answers runs of probes the filter rejects, then hits, then NULLs, then the same key again', async () => {
    const build = [5n, 5n, 6n, 2n ** 32n + 5n, null, 7n];
    const probe = [9n, 9n, 9n, 5n, 5n, null, 5n, 2n ** 32n + 5n, 2n ** 32n + 5n, 5n, null, null, 8n, 7n, 7n];
    const { table, oracle } = await chains(build, probe);
    expect(table).to.deep.equal(oracle);
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
});
