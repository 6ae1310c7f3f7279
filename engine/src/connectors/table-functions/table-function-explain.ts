// What EXPLAIN and the planner's statistics know of a scan of a table function's table: the call's
// arguments, shown as Trino's plan printer shows a table function's (`START => ScalarArgument{type=
// bigint, value=1}`), and the statistics its arguments give (sequence's are counted from its range).

import type { TableMetadata, TableStatistics } from '../../spi/connector.js';
import { sequenceStatistics, tableFunctionArguments, TABLE_FUNCTION_CATALOG } from './sequence-connector.js';

/** The detail lines naming the call's arguments, for a scan of a table function's table; none for other scans. */
export function tableFunctionArgumentLines(table: TableMetadata): string[] {
  const args = tableFunctionArguments(table);
  if (args === undefined || args.length === 0) return [];
  return ['Arguments:', ...args.map(([name, value]) => `${name} => ScalarArgument{type=bigint, value=${value}}`)];
}

/** The statistics of a table function's table (made by the planner, so never loaded with the catalogs' tables). */
export function tableFunctionStatistics(table: TableMetadata): TableStatistics | undefined {
  return table.catalog === TABLE_FUNCTION_CATALOG ? sequenceStatistics(table) : undefined;
}
