// A PostgreSQL table's statistics as Trino's connector reads them: the row count from
// pg_class.reltuples, and per column from pg_stats the NULL fraction, the distinct values (a
// negative n_distinct is a fraction of the rows) and the data size (average width of the non-NULL
// values times their number). All are PostgreSQL's estimates from its last ANALYZE.

import type { ColumnStatistics, TableStatistics } from '../../spi/connector.js';
import type { CatalogColumnStatistics } from './catalog-queries.js';

export function tableStatistics(
  rowCount: number,
  columns: readonly { name: string }[],
  sampled: readonly CatalogColumnStatistics[],
): TableStatistics {
  if (rowCount === 0) return { rowCount };
  const byName = new Map(sampled.map((s) => [s.name, s]));
  const statistics: Record<string, ColumnStatistics> = {};
  for (const column of columns) {
    const s = byName.get(column.name);
    if (s === undefined) continue;
    const c: ColumnStatistics = {};
    if (s.nullFraction !== null) c.nullsFraction = s.nullFraction;
    if (s.distinct !== null) c.distinctValuesCount = s.distinct >= 0 ? s.distinct : -s.distinct * rowCount;
    if (s.averageWidth !== null && s.nullFraction !== null) c.dataSize = s.averageWidth * rowCount * (1 - s.nullFraction);
    statistics[column.name] = c;
  }
  return { rowCount, columns: statistics };
}
