// The values a join's build side holds in one key column, gathered page by page as the build
// input streams in: their minimum and maximum, and the distinct values themselves while they are
// few (Trino's distinct-values limit; beyond it only the range is kept). NULL keys never match,
// so they are left out; a build with no non-NULL key gives a domain no value satisfies.

import type { ColumnDomain } from '../../spi/connector.js';
import type { Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { compareStrings } from '../../types/chars.js';

/** Most distinct values a dynamic filter lists; with more, it keeps only their range. */
export const MAX_DYNAMIC_FILTER_VALUES = 50_000;

/** A domain without its column: what a dynamic filter says about the values a scan needs. */
export type KeyDomain = Omit<ColumnDomain, 'column'>;

type Key = number | bigint | string;

export class KeyDomainCollector {
  private min: Key | undefined;
  private max: Key | undefined;
  /** The distinct keys so far; undefined once there were too many. */
  private distinct: Set<Key> | undefined = new Set();

  constructor(private readonly maxValues = MAX_DYNAMIC_FILTER_VALUES) {}

  add(column: Column): void {
    const values = column.values as ArrayLike<Key>;
    const nulls = column.nulls;
    let { min, max } = this;
    let distinct = this.distinct;
    for (let i = 0; i < column.length; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const v = values[i];
      if (min === undefined || less(v, min)) min = v;
      if (max === undefined || less(max, v)) max = v;
      if (distinct !== undefined) {
        distinct.add(v);
        if (distinct.size > this.maxValues) distinct = undefined;
      }
    }
    this.min = min;
    this.max = max;
    this.distinct = distinct;
  }

  domain(): KeyDomain {
    if (this.min === undefined || this.max === undefined) return { values: [] };
    const range: KeyDomain = { low: { value: this.min, inclusive: true }, high: { value: this.max, inclusive: true } };
    return this.distinct === undefined ? range : { ...range, values: [...this.distinct] as Scalar[] };
  }
}

/** The domain of the keys of both (a build made in parts: each part's keys). */
export function unionDomains(a: KeyDomain, b: KeyDomain, maxValues = MAX_DYNAMIC_FILTER_VALUES): KeyDomain {
  // A domain without a range has no key at all (an empty build, see domain()).
  if (a.low === undefined || a.high === undefined) return b;
  if (b.low === undefined || b.high === undefined) return a;
  const low = less(b.low.value as Key, a.low.value as Key) ? b.low : a.low;
  const high = less(a.high.value as Key, b.high.value as Key) ? b.high : a.high;
  if (a.values === undefined || b.values === undefined) return { low, high };
  const values = new Set([...a.values, ...b.values]);
  return values.size > maxValues ? { low, high } : { low, high, values: [...values] };
}

/** SQL's order: strings by code point (their UTF-8 bytes' order, which file statistics use), not by UTF-16 unit. */
function less(a: Key, b: Key): boolean {
  return typeof a === 'string' ? compareStrings(a, b as string) < 0 : a < (b as number | bigint);
}
