// The dense integer join table (build keys spanning no more numbers than a hashed table's words):
// every probe answers as a Map of the build rows does (its whole chain, in build order) across
// build slices, NULL keys on either side, negative keys, probe keys outside the range and beyond
// 2^53, narrower key types, and the same through the copy another thread revives; keys too spread
// out, or beyond 2^53, are left to the hashed table.

import { expect } from 'chai';
import { DenseIntegerJoinLookup } from '../../src/exec/hash/dense-integer-join-lookup.js';
import { lookupFromShared } from '../../src/exec/hash/shared-join-lookup-revival.js';
import type { JoinLookup } from '../../src/exec/hash/join-lookup.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT, INTEGER, type SqlType } from '../../src/types/types.js';
import type { Scalar } from '../../src/types/scalar.js';

function keys(count: number, seed: number, low: number, span: number, nullEvery: number): (number | null)[] {
  let state = seed;
  const out: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    out.push(i % nullEvery === 3 ? null : low + ((state >>> 4) % span));
  }
  return out;
}

/** Each probe's build rows in chain order through the table, and through a Map of the build rows. */
function chains(
  table: JoinLookup,
  build: (number | null)[],
  probe: Scalar[],
  probeType: SqlType,
): { ours: number[][]; oracle: number[][] } {
  const out = new Int32Array(probe.length);
  const probeNulls = new Uint8Array(probe.length);
  table.lookup([columnFromScalars(probeType, probe)], probe.length, out, probeNulls);
  expect([...probeNulls]).to.deep.equal(probe.map((k) => (k === null ? 1 : 0)));
  const ours = [...out].map((first) => {
    const rows: number[] = [];
    for (let row = first; row >= 0; row = table.next[row]) rows.push(row);
    return rows;
  });
  const rowsOfKey = new Map<string, number[]>();
  build.forEach((k, row) => {
    if (k !== null) rowsOfKey.set(String(k), [...(rowsOfKey.get(String(k)) ?? []), row]);
  });
  return { ours, oracle: probe.map((k) => (k === null ? [] : (rowsOfKey.get(String(k)) ?? []))) };
}

const big = (values: (number | null)[]) => values.map((v) => (v === null ? null : BigInt(v)));

describe('dense integer join table', () => {
  it('chains every build row of a key in build order, across slices, NULLs and probes out of range', async () => {
    const build = keys(200_000, 7, -5_000, 60_000, 11);
    const table = await DenseIntegerJoinLookup.build(columnFromScalars(BIGINT, big(build)), build.length);
    expect(table).not.to.equal(undefined);
    const edges = [-5_001n, -5_000n, 54_999n, 55_000n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, null];
    const probe: Scalar[] = [...big(keys(30_000, 8, -6_000, 62_000, 13)), ...edges];
    const { ours, oracle } = chains(table!, build, probe, BIGINT);
    expect(oracle.filter((chain) => chain.length > 1).length).to.be.greaterThan(1000);
    expect(ours).to.deep.equal(oracle);
    expect([...table!.nullKeyRows]).to.deep.equal(build.flatMap((k, row) => (k === null ? [row] : [])));
    const revived = lookupFromShared(table!.share(), []);
    expect(chains(revived, build, probe, BIGINT).ours).to.deep.equal(oracle);
  });

  it('takes integer keys and integer probes against bigint builds', async () => {
    const build = keys(5_000, 3, -100, 300, 7);
    const table = await DenseIntegerJoinLookup.build(columnFromScalars(INTEGER, build), build.length);
    const probe = keys(2_000, 4, -150, 400, 9);
    const { ours, oracle } = chains(table!, build, probe, INTEGER);
    expect(ours).to.deep.equal(oracle);
    const wide = await DenseIntegerJoinLookup.build(columnFromScalars(BIGINT, big(build)), build.length);
    expect(chains(wide!, build, probe, INTEGER).ours).to.deep.equal(oracle);
  });

  it('no rows, only NULL keys, one key', async () => {
    for (const build of [[], [null, null], [42, 42, null, 42]]) {
      const table = await DenseIntegerJoinLookup.build(columnFromScalars(BIGINT, big(build)), build.length);
      const { ours, oracle } = chains(table!, build, [41n, 42n, 43n, null, 0n], BIGINT);
      expect(ours).to.deep.equal(oracle);
    }
  });

  it('leaves spread out keys and keys beyond 2^53 to the hashed table', async () => {
    const spread = big([1, 2, 3, 1_000_000]);
    expect(await DenseIntegerJoinLookup.build(columnFromScalars(BIGINT, spread), spread.length)).to.equal(undefined);
    const huge = [1n, 2n, 2n ** 53n + 1n];
    expect(await DenseIntegerJoinLookup.build(columnFromScalars(BIGINT, huge), huge.length)).to.equal(undefined);
  });
});
