// excludeRows on bigint and short decimal columns (int64 values read as word pairs) clears exactly
// the rows an exact BigInt comparison rules out: ranges with inclusive and exclusive bounds, value
// sets dense enough for a bitmap and too spread for one, values at and beyond +-2^53, negatives,
// NULLs, an empty column. The reference below compares BigInts, not the code under test's numbers.

import { expect } from 'chai';
import { excludeRows } from '../../src/spi/domain/exclude-rows.js';
import type { PreparedDomain } from '../../src/spi/domain/prepared-domain.js';
import type { Column } from '../../src/columnar/page.js';
import { BIGINT, INTEGER, decimal, type SqlType } from '../../src/types/types.js';

const TWO_53 = 2n ** 53n;

/** Values around the edges a double cannot tell apart, and ordinary ones. */
const VALUES: bigint[] = [
  0n,
  1n,
  -1n,
  2n,
  5n,
  6n,
  7n,
  99n,
  100n,
  101n,
  -100n,
  -101n,
  4294967295n,
  4294967296n,
  -4294967296n,
  8_388_607n,
  8_388_608n,
  TWO_53 - 2n,
  TWO_53 - 1n,
  TWO_53,
  TWO_53 + 1n,
  TWO_53 + 2n,
  -TWO_53 + 1n,
  -TWO_53,
  -TWO_53 - 1n,
  -TWO_53 - 2n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  3n * 2n ** 40n,
  -(3n * 2n ** 40n),
];

function column(type: SqlType, values: bigint[], nullAt: number[]): Column {
  const nulls = new Uint8Array(values.length);
  for (const i of nullAt) nulls[i] = 1;
  const stored = type.kind === 'integer' ? Int32Array.from(values, Number) : BigInt64Array.from(values);
  return { type, values: stored, nulls: nullAt.length > 0 ? nulls : null, length: values.length };
}

/** Whether `v` satisfies the domain, in exact BigInt arithmetic (NULL never does). */
function satisfies(domain: PreparedDomain, values: Set<bigint> | undefined, v: bigint | null): boolean {
  if (v === null) return false;
  const { low, high } = domain;
  // An integer column's domain holds numbers: compared with the BigInt value exactly all the same.
  if (low !== undefined && (v < (low.value as bigint) || (v === BigInt(low.value as number | bigint) && !low.inclusive))) return false;
  if (high !== undefined && (v > (high.value as bigint) || (v === BigInt(high.value as number | bigint) && !high.inclusive))) return false;
  return values === undefined || values.has(v);
}

function check(type: SqlType, domain: PreparedDomain, values: bigint[], nullAt: number[] = []): void {
  const keep = new Uint8Array(values.length).fill(1);
  excludeRows(column(type, values, nullAt), domain, keep);
  const set = domain.values === undefined ? undefined : new Set(domain.values.map((x) => BigInt(x as number | bigint)));
  const expected = values.map((v, i) => (satisfies(domain, set, nullAt.includes(i) ? null : v) ? 1 : 0));
  expect(
    Array.from(keep),
    JSON.stringify(domain, (_, x) => (typeof x === 'bigint' ? String(x) : x)),
  ).to.deep.equal(expected);
}

const bound = (value: bigint, inclusive: boolean) => ({ value, inclusive });
const number = (value: bigint, inclusive: boolean) => ({ value: Number(value), inclusive });

describe('excludeRows on int64 columns', () => {
  for (const type of [BIGINT, decimal(18, 2)]) {
    it(`${type.kind}: ranges with inclusive and exclusive bounds, open ends, at and beyond 2^53`, () => {
      const edges = [-(2n ** 63n), -TWO_53 - 1n, -TWO_53, -101n, -1n, 0n, 5n, 100n, TWO_53 - 1n, TWO_53, TWO_53 + 1n, 2n ** 63n - 1n];
      for (const lo of edges)
        for (const hi of edges)
          for (const [li, hiInc] of [
            [true, true],
            [false, false],
            [true, false],
            [false, true],
          ] as const) {
            check(type, { low: bound(lo, li), high: bound(hi, hiInc) }, VALUES, [3]);
            check(type, { low: bound(lo, li) }, VALUES);
            check(type, { high: bound(hi, hiInc) }, VALUES, [0, VALUES.length - 1]);
          }
    });

    it(`${type.kind}: value sets as a bitmap (dense) and as a set (spread), with bounds`, () => {
      const dense = [-101n, -1n, 2n, 5n, 7n, 100n, 8_388_607n];
      const spread = [-(3n * 2n ** 40n), -100n, 6n, 4294967296n, TWO_53 - 1n];
      for (const values of [dense, spread, [5n]]) {
        const sorted = [...values].sort((a, b) => (a < b ? -1 : 1));
        check(type, { low: bound(sorted[0], true), high: bound(sorted.at(-1)!, true), values: sorted, sorted }, VALUES, [4]);
        check(type, { low: bound(0n, false), high: bound(100n, false), values: sorted, sorted }, VALUES);
      }
    });

    it(`${type.kind}: a set holding a value beyond 2^53 and an empty column`, () => {
      const values = [-TWO_53 - 1n, 1n, TWO_53 + 1n];
      check(type, { low: bound(values[0], true), high: bound(values[2], true), values, sorted: values }, VALUES, [1]);
      check(type, { low: bound(0n, true), high: bound(10n, true) }, []);
    });

    it(`${type.kind}: a set with no value inside its bounds drops every row`, () => {
      const values = [5n, 7n];
      check(type, { low: bound(10n, true), high: bound(20n, true), values, sorted: values }, VALUES);
      check(type, { low: bound(5n, false), high: bound(7n, false), values, sorted: values }, VALUES);
    });
  }

  it('integer columns: ranges, a dense set, a set spread beyond a bitmap, none in range, NULLs', () => {
    const ints = [-2147483648n, -8_388_609n, -101n, -1n, 0n, 1n, 5n, 7n, 100n, 8_388_608n, 2147483647n];
    const sets = [[-101n, 0n, 7n], [-2147483648n, 5n, 2147483647n], [-8_388_609n, 8_388_608n], [3n]];
    for (const values of sets)
      for (const [lo, hi] of [
        [-(2n ** 40n), 2n ** 40n],
        [-101n, 7n],
        [0n, 3n],
      ])
        for (const inclusive of [true, false])
          check(
            INTEGER,
            { low: number(lo, inclusive), high: number(hi, !inclusive), values: values.map(Number), sorted: values.map(Number) },
            ints,
            [2],
          );
    check(INTEGER, { low: number(-1n, false), high: number(100n, false) }, ints, [0]);
  });

  it('keeps every row across many pages of sorted keys against a dense key set (the scan path)', () => {
    const keys: bigint[] = [];
    for (let i = 0; i < 70_000; i++) keys.push(BigInt(1 + 4 * Math.floor(i / 3)));
    const wanted = keys.filter((_, i) => i % 7 === 0);
    const values = [...new Set(wanted)];
    check(BIGINT, { low: bound(values[0], true), high: bound(values.at(-1)!, true), values, sorted: values }, keys);
  });
});
