// Which units (rows; parts of partsupp; orders of lineitem) can hold the keys a query asks for.
// Each table's unit index maps monotonically to its key column, so a key range or key list
// becomes unit ranges, and a scan generates only those (the streams jump straight to them).

import type { ColumnDomain, TableConstraint } from '../../spi/connector.js';
import type { Scalar } from '../../types/scalar.js';

/** For a table: its key column and the first unit whose key is >= a given key. */
interface UnitKey {
  column: string;
  firstUnitWithKeyAtLeast(key: number): number;
}

/** orders and lineitem: order number n (1-based) has key 32 * floor(n / 8) + n % 8 (8 of every 32 keys). */
function firstOrderAtLeast(key: number): number {
  const block = Math.floor(key / 32);
  const offset = key - block * 32;
  const orderNumber = offset < 8 ? block * 8 + offset : (block + 1) * 8;
  return Math.max(0, orderNumber - 1);
}

const fromOne = (key: number) => Math.max(0, key - 1);
const fromZero = (key: number) => Math.max(0, key);

const UNIT_KEYS: Record<string, UnitKey> = {
  nation: { column: 'n_nationkey', firstUnitWithKeyAtLeast: fromZero },
  region: { column: 'r_regionkey', firstUnitWithKeyAtLeast: fromZero },
  part: { column: 'p_partkey', firstUnitWithKeyAtLeast: fromOne },
  partsupp: { column: 'ps_partkey', firstUnitWithKeyAtLeast: fromOne },
  supplier: { column: 's_suppkey', firstUnitWithKeyAtLeast: fromOne },
  customer: { column: 'c_custkey', firstUnitWithKeyAtLeast: fromOne },
  orders: { column: 'o_orderkey', firstUnitWithKeyAtLeast: firstOrderAtLeast },
  lineitem: { column: 'l_orderkey', firstUnitWithKeyAtLeast: firstOrderAtLeast },
};

/** At most this many listed keys become separate ranges; a longer list uses its min and max. */
const MAX_LISTED_KEYS = 1000;

/** Unit ranges [start, end) that may hold matching rows, sorted and disjoint; all units without a usable domain. */
export function unitRangesFor(table: string, units: number, constraint: TableConstraint | undefined): [number, number][] {
  const key = UNIT_KEYS[table];
  const domain = key && constraint?.find((d) => d.column === key.column);
  if (!key || !domain) return [[0, units]];
  const clamp = (u: number) => Math.min(units, Math.max(0, u));
  let ranges: [number, number][] = [[0, units]];
  const low = keyBound(domain.low, 'low');
  const high = keyBound(domain.high, 'high');
  if (low !== undefined || high !== undefined) {
    const start = low === undefined ? 0 : clamp(key.firstUnitWithKeyAtLeast(low));
    const end = high === undefined ? units : clamp(key.firstUnitWithKeyAtLeast(high + 1));
    ranges = start < end ? [[start, end]] : [];
  }
  const listed = domain.values
    ?.map(Number)
    .filter(Number.isInteger)
    .sort((a, b) => a - b);
  if (listed && listed.length <= MAX_LISTED_KEYS) {
    const unitsOfValues = merge(
      listed
        .map((k) => [clamp(key.firstUnitWithKeyAtLeast(k)), clamp(key.firstUnitWithKeyAtLeast(k + 1))] as [number, number])
        .filter(([s, e]) => s < e),
    );
    ranges = intersect(ranges, unitsOfValues);
  }
  return ranges;
}

/** An integral key bound turned inclusive: `> 5` is `>= 6`, `< 5` is `<= 4`. */
function keyBound(bound: ColumnDomain['low'], side: 'low' | 'high'): number | undefined {
  if (!bound) return undefined;
  const value = asNumber(bound.value);
  if (value === undefined) return undefined;
  if (side === 'low') return bound.inclusive ? Math.ceil(value) : Math.floor(value) + 1;
  return bound.inclusive ? Math.floor(value) : Math.ceil(value) - 1;
}

function asNumber(value: Scalar): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' ? value : undefined;
}

function merge(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function intersect(a: [number, number][], b: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s1, e1] of a) {
    for (const [s2, e2] of b) {
      const s = Math.max(s1, s2);
      const e = Math.min(e1, e2);
      if (s < e) out.push([s, e]);
    }
  }
  return out;
}
