// What a dynamic filter keeps of a build key column: its range in SQL's order (strings by code
// point, the order of their UTF-8 bytes that file statistics use, not by UTF-16 unit), its
// distinct values while they are few, never NULL; no non-NULL key: a domain nothing satisfies.

import { expect } from 'chai';
import { KeyDomainCollector } from '../../src/exec/dynamic-filters/key-domain.js';
import { BIGINT, INTEGER, VARCHAR } from '../../src/types/types.js';
import type { Column } from '../../src/columnar/page.js';

const column = (type: Column['type'], values: Column['values'], nulls: Uint8Array | null = null): Column => ({
  type,
  length: values.length,
  values,
  nulls,
});

describe('dynamic filters: the domain of a build key column', () => {
  it('orders strings by code point: U+FFFD below an emoji (UTF-16 units order them the other way)', () => {
    const collector = new KeyDomainCollector();
    collector.add(column(VARCHAR, ['a\u{1F600}', 'a\uFFFD', 'b']));
    const domain = collector.domain();
    expect([domain.low, domain.high]).to.deep.equal([
      { value: 'a\uFFFD', inclusive: true },
      { value: 'b', inclusive: true },
    ]);
    collector.add(column(VARCHAR, ['a\u{1F600}z']));
    expect(collector.domain().high).to.deep.equal({ value: 'b', inclusive: true });
  });

  it('leaves NULL keys out, and keeps only the range once the distinct values exceed the limit', () => {
    const collector = new KeyDomainCollector(3);
    collector.add(column(BIGINT, BigInt64Array.of(7n, 3n, 99n, 3n), Uint8Array.of(0, 0, 1, 0)));
    expect(collector.domain()).to.deep.equal({
      low: { value: 3n, inclusive: true },
      high: { value: 7n, inclusive: true },
      values: [7n, 3n],
    });
    collector.add(column(BIGINT, BigInt64Array.of(5n, 4n)));
    expect(collector.domain()).to.deep.equal({ low: { value: 3n, inclusive: true }, high: { value: 7n, inclusive: true } });
  });

  it('keeps 64-bit keys exact on both sides of 2^53 and below zero, as bigints', () => {
    const collector = new KeyDomainCollector();
    const big = 2n ** 53n + 1n;
    collector.add(column(BIGINT, BigInt64Array.of(big, -1n, 2n ** 53n, -(2n ** 63n), big, 5n)));
    expect(collector.domain()).to.deep.equal({
      low: { value: -(2n ** 63n), inclusive: true },
      high: { value: big, inclusive: true },
      values: [big, -1n, 2n ** 53n, -(2n ** 63n), 5n],
    });
  });

  it('past the distinct limit, keeps the exact range of 64-bit keys beyond 2^53, below zero and beside NULLs', () => {
    const pages = [
      [10n, 11n, 12n],
      [2n ** 53n + 3n, -5n, 2n ** 53n + 1n],
      [-(2n ** 53n) - 7n, 0n, 4n],
      [2n ** 63n - 1n, -(2n ** 63n), 9n],
    ];
    for (const [page, expected] of [
      [2, { low: -(2n ** 53n) - 7n, high: 2n ** 53n + 3n }],
      [3, { low: -(2n ** 63n), high: 2n ** 63n - 1n }],
    ] as const) {
      const collector = new KeyDomainCollector(2);
      for (const values of pages.slice(0, page + 1)) collector.add(column(BIGINT, BigInt64Array.from(values), Uint8Array.of(0, 0, 0)));
      // A NULL row holds a value beyond every key: it must not widen the range.
      collector.add(column(BIGINT, BigInt64Array.of(2n ** 62n, 1n), Uint8Array.of(1, 0)));
      const all = pages.slice(0, page + 1).flat();
      expect(expected.low).to.equal(all.reduce((a, b) => (b < a ? b : a)));
      expect(collector.domain()).to.deep.equal({
        low: { value: expected.low, inclusive: true },
        high: { value: expected.high, inclusive: true },
      });
    }
  });

  it('added in slices, or past the distinct limit halfway through a page, keeps the range of every key', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1009);
    const expectedRange = (values: readonly number[]) => [Math.min(...values), Math.max(...values)];
    for (const limit of [10_000, 300]) {
      for (const [type, values] of [
        [BIGINT, () => BigInt64Array.from(keys, BigInt)],
        [INTEGER, () => Int32Array.from(keys)],
      ] as const) {
        const whole = new KeyDomainCollector(limit);
        const sliced = new KeyDomainCollector(limit);
        const keyColumn = column(type, values());
        whole.add(keyColumn);
        for (let start = 0; start < keys.length; start += 128) sliced.add(keyColumn, start, Math.min(keys.length, start + 128));
        const domain = whole.domain();
        expect(sliced.domain()).to.deep.equal(domain);
        const toKey = (k: number) => (type === BIGINT ? BigInt(k) : k);
        const [low, high] = expectedRange(keys);
        expect([domain.low?.value, domain.high?.value]).to.deep.equal([toKey(low), toKey(high)]);
        expect(domain.values?.length).to.equal(limit > 1009 ? new Set(keys).size : undefined);
      }
    }
  });

  it('of no non-NULL key is a domain no value satisfies', () => {
    const collector = new KeyDomainCollector();
    collector.add(column(BIGINT, BigInt64Array.of(1n), Uint8Array.of(1)));
    expect(collector.domain()).to.deep.equal({ values: [] });
  });
});
