// The share of rows a column's domain (`column op constant`, BETWEEN, IN, gathered per column by
// columnDomains) keeps, from the column's statistics, as Trino's filter estimates do: an equality
// or IN keeps 1/ndv per value (none outside the column's least and greatest values), a range keeps
// the part of [low, high] it overlaps, assuming values spread evenly. Undefined when the
// statistics say nothing of it (the fixed selectivities apply then).

import type { ColumnDomain, ColumnStatistics } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';

/** Never quite no rows: an estimate of 0 would make every join above it free. */
export const MIN_SELECTIVITY = 1e-4;

export function domainSelectivity(domain: ColumnDomain, statistics: ColumnStatistics): number | undefined {
  const nonNull = 1 - (statistics.nullsFraction ?? 0);
  const range = numericRange(statistics);
  if (domain.values !== undefined) {
    const values = range === undefined ? domain.values : domain.values.filter((v) => withinRange(v, range));
    if (values.length === 0 && range !== undefined) return MIN_SELECTIVITY;
    const ndv = statistics.distinctValuesCount;
    if (ndv === undefined || ndv <= 0) return undefined;
    return clamp((Math.min(values.length, ndv) / ndv) * nonNull);
  }
  if (range === undefined) return undefined;
  const lower = domain.low === undefined ? range.low : numeric(domain.low.value);
  const upper = domain.high === undefined ? range.high : numeric(domain.high.value);
  if (lower === undefined || upper === undefined) return undefined;
  const [from, to] = [Math.max(lower, range.low), Math.min(upper, range.high)];
  if (to < from) return MIN_SELECTIVITY;
  const width = range.high - range.low;
  return clamp((width === 0 ? 1 : (to - from) / width) * nonNull);
}

interface NumericRange {
  low: number;
  high: number;
}

export function numericRange(statistics: ColumnStatistics): NumericRange | undefined {
  const low = statistics.low === undefined ? undefined : numeric(statistics.low);
  const high = statistics.high === undefined ? undefined : numeric(statistics.high);
  return low === undefined || high === undefined || high < low ? undefined : { low, high };
}

function withinRange(value: Scalar, range: NumericRange): boolean {
  const n = numeric(value);
  return n === undefined || (n >= range.low && n <= range.high);
}

/** A number or bigint (integers, dates, decimals as stored) as a number; undefined for other values. */
function numeric(value: Scalar): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'bigint' ? Number(value) : undefined;
}

function clamp(selectivity: number): number {
  return Math.min(1, Math.max(MIN_SELECTIVITY, selectivity));
}
