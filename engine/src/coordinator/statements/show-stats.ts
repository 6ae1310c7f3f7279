// SHOW STATS FOR table and SHOW STATS FOR (query), as Trino's ShowStatsRewrite answers them: a row
// per output column (data_size, distinct_values_count, nulls_fraction, low_value, high_value) and a
// last row with a NULL column_name and the row count. The figures are the connectors' table
// statistics carried through the query's plan (plan-statistics.ts); an unknown one is NULL. Low and
// high values are printed as Trino prints its (numeric) statistics: integers as integers, doubles
// and decimals as Java prints a double, dates and timestamps in ISO form; other types have none.

import { expressionEvaluator } from '../../exec/expression/index.js';
import type { ColumnStatistics } from '../../spi/connector.js';
import type { Scalar } from '../../spi/page.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { analyzeQuery } from '../../sql/analyzer/analyzer.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { planStatistics } from '../../sql/planner/plan-statistics.js';
import { formatDoubleAsText, formatRealAsText } from '../../types/number-format.js';
import { DOUBLE, timestamp, VARCHAR, type SqlType } from '../../types/types.js';
import { formatValueAsText } from '../../types/values.js';
import { column, rowsResult } from './results.js';

const COLUMNS = [
  column('column_name', VARCHAR),
  column('data_size', DOUBLE),
  column('distinct_values_count', DOUBLE),
  column('nulls_fraction', DOUBLE),
  column('row_count', DOUBLE),
  column('low_value', VARCHAR),
  column('high_value', VARCHAR),
];

export async function showStats(statement: ast.ShowStats, metadata: StatementMetadata): Promise<StatementResult> {
  const query = statement.target.kind === 'Query' ? statement.target : selectAllFrom(statement.target);
  const analyzed = await metadata.analyze(query, () => analyzeQuery(query, metadata, expressionEvaluator));
  const statistics = planStatistics(analyzed.root, analyzed.context);
  const rows: Scalar[][] = analyzed.root.outputs.map((symbol, i) => {
    const c: ColumnStatistics = statistics.columns.get(symbol.id) ?? {};
    return [analyzed.columns[i].name, c.dataSize ?? null, c.distinctValuesCount ?? null, c.nullsFraction ?? null, null, bound(c.low, symbol.type), bound(c.high, symbol.type)];
  });
  rows.push([null, null, null, null, statistics.rowCount ?? null, null, null]);
  return rowsResult(COLUMNS, rows);
}

/** `SELECT * FROM name`, placed where the name is (errors about the table point at it). */
function selectAllFrom(name: ast.QualifiedName): ast.Query {
  const location = name.location;
  const specification: ast.QuerySpecification = {
    kind: 'QuerySpecification',
    select: { kind: 'Select', distinct: false, items: [{ kind: 'AllColumns', location }], location },
    from: { kind: 'Table', name, location },
    windows: [],
    orderBy: [],
    location,
  };
  return { kind: 'Query', body: specification, orderBy: [], location };
}

/** A low or high value as Trino prints it, or NULL for types its statistics hold no value of. */
function bound(value: Scalar | undefined, type: SqlType): string | null {
  if (value === undefined || value === null) return null;
  switch (type.kind) {
    case 'boolean':
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'date':
      return formatValueAsText(value, type);
    case 'double':
      return formatDoubleAsText(value as number);
    case 'real':
      return formatRealAsText(value as number);
    case 'decimal':
      // Trino keeps a decimal's statistics as a double.
      return formatDoubleAsText(Number(formatValueAsText(value, type)));
    case 'timestamp':
      return formatValueAsText(value, timestamp(Math.min(type.precision, 6)));
    default:
      return null;
  }
}
