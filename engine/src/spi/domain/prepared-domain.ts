// A column domain (spi/connector.ts) prepared for testing values against it, whatever their source:
// a file's statistics (min/max, a dictionary) or decoded rows (exclude-rows.ts). Domains come from
// null-rejecting predicates (comparisons, BETWEEN, IN), so all-NULL data never matches. Strings and
// byte arrays compare as unsigned bytes, which for UTF-8 is the code-point order SQL uses; NaN
// bounds prove nothing (NaN compares false with everything, and writers leave it out of min/max).

import type { ColumnDomain, KeyBitmap } from '../connector.js';
import type { Scalar } from '../../types/scalar.js';

/** A bound as statistics give it: decoded into the engine's storage, or raw bytes for strings and binaries. */
export type Bound = number | bigint | Uint8Array;

/** A domain value in the form bounds take, or undefined when it cannot be compared with them. */
export function domainBound(value: Scalar, bytewise: boolean): Bound | undefined {
  if (bytewise) {
    if (typeof value === 'string') return new TextEncoder().encode(value);
    return value instanceof Uint8Array ? value : undefined;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  return typeof value === 'bigint' ? value : undefined;
}

/** a - b's sign, or undefined when they are of different kinds. */
export function compareBounds(a: Bound, b: Bound): number | undefined {
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array)) return undefined;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }
  if (b instanceof Uint8Array || typeof a !== typeof b) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A domain with its values in bound form (values that cannot be compared make it unprunable). */
export interface PreparedDomain {
  low?: { value: Bound; inclusive: boolean };
  high?: { value: Bound; inclusive: boolean };
  values?: Bound[];
  /** `values` in ascending order, when they are all of one kind (a dynamic filter's may be many: searched, not scanned). */
  sorted?: Bound[];
  /** The integer values as bits (a dynamic filter's build keys, ColumnDomain's keys); tested on rows, not statistics. */
  keys?: KeyBitmap;
}

/** Prepared domains by their domain: a thread's dynamic filter is one object for all the splits it reads, each of which prepares it. */
const preparedDomains = new WeakMap<ColumnDomain, Map<boolean, PreparedDomain | undefined>>();

/**
 * The domain in bound form, prepared once per domain object (a dynamic filter may hold many
 * values, sorted here; exclude-rows.ts keeps its number tests per prepared domain too).
 */
export function prepareDomain(domain: ColumnDomain, bytewise: boolean): PreparedDomain | undefined {
  let byKind = preparedDomains.get(domain);
  if (byKind === undefined) preparedDomains.set(domain, (byKind = new Map()));
  if (!byKind.has(bytewise)) byKind.set(bytewise, preparedDomain(domain, bytewise));
  return byKind.get(bytewise);
}

function preparedDomain(domain: ColumnDomain, bytewise: boolean): PreparedDomain | undefined {
  const prepared: PreparedDomain = {};
  for (const side of ['low', 'high'] as const) {
    const bound = domain[side];
    if (bound === undefined) continue;
    const value = domainBound(bound.value, bytewise);
    if (value === undefined) return undefined;
    prepared[side] = { value, inclusive: bound.inclusive };
  }
  if (domain.keys !== undefined && !bytewise) prepared.keys = domain.keys;
  if (domain.values !== undefined) {
    const values: Bound[] = [];
    for (const v of domain.values) {
      const b = domainBound(v, bytewise);
      if (b === undefined) return undefined;
      values.push(b);
    }
    prepared.values = values;
    const sorted = sortedBounds(values);
    if (sorted !== undefined) prepared.sorted = sorted;
  }
  return prepared;
}

/** Whether some value in [min, max] (either may be unknown) can satisfy the domain. */
export function rangeCanMatch(domain: PreparedDomain, min: Bound | undefined, max: Bound | undefined): boolean {
  if (domain.low !== undefined && max !== undefined) {
    const c = compareBounds(max, domain.low.value);
    if (c !== undefined && (c < 0 || (c === 0 && !domain.low.inclusive))) return false;
  }
  if (domain.high !== undefined && min !== undefined) {
    const c = compareBounds(min, domain.high.value);
    if (c !== undefined && (c > 0 || (c === 0 && !domain.high.inclusive))) return false;
  }
  if (domain.sorted !== undefined) return someBetween(domain.sorted, min, max);
  if (domain.values !== undefined) {
    return domain.values.some((v) => {
      const aboveMin = min === undefined ? undefined : compareBounds(v, min);
      const belowMax = max === undefined ? undefined : compareBounds(v, max);
      return (aboveMin === undefined || aboveMin >= 0) && (belowMax === undefined || belowMax <= 0);
    });
  }
  return true;
}

/** Bounds in ascending order, or undefined when some two do not compare (different kinds). */
function sortedBounds(values: readonly Bound[]): Bound[] | undefined {
  const kind = (b: Bound) => (b instanceof Uint8Array ? 'bytes' : typeof b);
  if (values.some((v) => kind(v) !== kind(values[0]))) return undefined;
  return [...values].sort((a, b) => compareBounds(a, b)!);
}

/** Whether some of the ascending `sorted` lies in [min, max] (either may be unknown). */
function someBetween(sorted: readonly Bound[], min: Bound | undefined, max: Bound | undefined): boolean {
  if (sorted.length === 0) return false;
  if (min !== undefined && compareBounds(sorted[0], min) === undefined) return true;
  // The first value not below min.
  let lo = 0;
  let hi = sorted.length;
  while (min !== undefined && lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBounds(sorted[mid], min)! < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo === sorted.length) return false;
  const c = max === undefined ? undefined : compareBounds(sorted[lo], max);
  return c === undefined || c <= 0;
}

/** Whether one value satisfies the domain (dictionary entries). */
export function valueMatches(domain: PreparedDomain, value: Bound): boolean {
  return rangeCanMatch(domain, value, value);
}
