import { expect } from 'chai';
import { limit } from '../../src/exec/operators/limit.js';
import { sort } from '../../src/exec/operators/sort.js';
import { topN } from '../../src/exec/operators/top-n.js';
import type { PageStream } from '../../src/exec/operators/operator.js';
import type { SortKey } from '../../src/functions/scalar/value-ordering.js';
import type { Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, DOUBLE, INTEGER, VARCHAR, decimal } from '../../src/types/types.js';
import { collectPages, collectRows, pageOf, rowsStream, testContext } from './helpers.js';

const asc = (channel: number, nullsFirst = false): SortKey => ({ channel, ascending: true, nullsFirst });
const desc = (channel: number, nullsFirst = false): SortKey => ({ channel, ascending: false, nullsFirst });

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

describe('sort operator', () => {
  const types = [BIGINT, VARCHAR];
  const rows: Scalar[][] = [
    [3n, 'a'],
    [null, 'b'],
    [1n, 'c'],
    [3n, 'd'],
    [-(2n ** 40n), 'e'],
    [null, 'f'],
    [1n, 'g'],
  ];

  it('sorts ascending with NULLS LAST, stably', async () => {
    const result = await collectRows(sort(testContext(), rowsStream(types, rows), types, [asc(0)]));
    expect(result.map((r) => r[1])).to.deep.equal(['e', 'c', 'g', 'a', 'd', 'b', 'f']);
  });

  it('sorts descending with NULLS FIRST, stably', async () => {
    const result = await collectRows(sort(testContext(), rowsStream(types, rows), types, [desc(0, true)]));
    expect(result.map((r) => r[1])).to.deep.equal(['b', 'f', 'a', 'd', 'c', 'g', 'e']);
  });

  it('sorts 50000 rows (sorted in runs, then merged) stably, letting a timer run meanwhile', async () => {
    const next = random(7);
    const many: Scalar[][] = Array.from({ length: 50_000 }, (_, i) => [next() < 0.05 ? null : BigInt(Math.floor(next() * 1000)), i]);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const result = await collectRows(sort(testContext(), rowsStream([BIGINT, INTEGER], many, 4096), [BIGINT, INTEGER], [desc(0)]));
    const rank = (v: Scalar): number => (v === null ? Infinity : -Number(v));
    const expected = [...many].sort((a, b) => rank(a[0]) - rank(b[0]) || (a[1] as number) - (b[1] as number));
    expect(result).to.deep.equal(expected);
    expect(timerRan).to.equal(true);
  });

  it('orders doubles with NaN largest and strings by code point, on several keys', async () => {
    const t = [DOUBLE, VARCHAR];
    const input: Scalar[][] = [
      [NaN, 'x'],
      [1, '\uffff'],
      [1, '\u{1F600}'],
      [-Infinity, 'y'],
      [1, 'a'],
      [Infinity, 'z'],
    ];
    const result = await collectRows(sort(testContext(), rowsStream(t, input), t, [asc(0), desc(1)]));
    expect(result).to.deep.equal([
      [-Infinity, 'y'],
      [1, '\u{1F600}'],
      [1, '\uffff'],
      [1, 'a'],
      [Infinity, 'z'],
      [NaN, 'x'],
    ]);
  });

  it('sorts long decimals and frees its buffer afterwards', async () => {
    const t = [decimal(30, 2)];
    const ctx = testContext();
    const result = await collectRows(sort(ctx, rowsStream(t, [[10n ** 25n], [-(10n ** 25n)], [5n]]), t, [asc(0)]));
    expect(result).to.deep.equal([[-(10n ** 25n)], [5n], [10n ** 25n]]);
    expect(ctx.memory.reservedBytes).to.equal(0);
  });
});

describe('topN operator', () => {
  it('equals a stable sort followed by LIMIT on random data', async () => {
    const next = random(42);
    const types = [INTEGER, VARCHAR, BIGINT];
    const rows: Scalar[][] = Array.from({ length: 5000 }, (_, i) => [
      next() < 0.1 ? null : Math.floor(next() * 50),
      next() < 0.1 ? null : `s${Math.floor(next() * 20)}`,
      BigInt(i),
    ]);
    for (const count of [1, 7, 100, 3000, 6000]) {
      for (const keys of [[asc(0)], [desc(1, true), asc(0, true)], [desc(0), desc(1)]]) {
        const expected = (await collectRows(sort(testContext(), rowsStream(types, rows, 500), types, keys))).slice(0, count);
        const ctx = testContext();
        const actual = await collectRows(topN(ctx, rowsStream(types, rows, 500), types, keys, count));
        expect(actual).to.deep.equal(expected);
        expect(ctx.memory.reservedBytes).to.equal(0);
      }
    }
  });

  it('reserves the long strings of the pages it holds (estimated) and releases exactly that', async () => {
    const types = [INTEGER, VARCHAR];
    const rows: Scalar[][] = Array.from({ length: 2000 }, (_, i) => [i, `${'x'.repeat(2000)}${i}`]);
    const ctx = testContext();
    const actual = await collectRows(topN(ctx, rowsStream(types, rows, 100), types, [desc(0)], 5));
    expect(actual.map((r) => r[0])).to.deep.equal([1999, 1998, 1997, 1996, 1995]);
    // At least one 100-row page of 2000-character strings was held at once.
    expect(ctx.memory.peakBytes).to.be.above(100 * 2000);
    expect(ctx.memory.reservedBytes).to.equal(0);
  });

  it('gives nothing for count 0 and everything for a count above the input size', async () => {
    const types = [INTEGER];
    expect(await collectRows(topN(testContext(), rowsStream(types, [[2], [1]]), types, [asc(0)], 0))).to.deep.equal([]);
    expect(await collectRows(topN(testContext(), rowsStream(types, [[2], [1]]), types, [asc(0)], 10))).to.deep.equal([[1], [2]]);
  });
});

describe('limit operator', () => {
  /** An endless stream of one-row... pages of `rows` rows, recording how many were pulled and whether it was closed. */
  function endless(rows: number): { stream: PageStream; pulled: () => number; closed: () => boolean } {
    let pulled = 0;
    let closed = false;
    async function* generate(): PageStream {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield pageOf(
            [INTEGER],
            Array.from({ length: rows }, (_, r) => [i * rows + r]),
          );
        }
      } finally {
        closed = true;
      }
    }
    return { stream: generate(), pulled: () => pulled, closed: () => closed };
  }

  it('stops pulling its input once it has enough rows, and closes it', async () => {
    const source = endless(10);
    const result = await collectRows(limit(source.stream, 25, 0));
    expect(result.map((r) => r[0])).to.deep.equal(Array.from({ length: 25 }, (_, i) => i));
    expect(source.pulled()).to.equal(3);
    expect(source.closed()).to.equal(true);
  });

  it('skips OFFSET rows across pages', async () => {
    const source = endless(4);
    const result = await collectRows(limit(source.stream, 3, 6));
    expect(result.map((r) => r[0])).to.deep.equal([6, 7, 8]);
    expect(source.closed()).to.equal(true);
  });

  it('LIMIT 0 never pulls its input; a short input gives what it has', async () => {
    const source = endless(4);
    expect(await collectRows(limit(source.stream, 0, 0))).to.deep.equal([]);
    expect(source.pulled()).to.equal(0);
    const pages: Page[] = await collectPages(limit(rowsStream([INTEGER], [[1], [2]]), 5, 1));
    expect(pages.map((p) => p.rowCount)).to.deep.equal([1]);
  });
});
