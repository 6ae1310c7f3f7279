// SHOW STATS FOR table and SHOW STATS FOR (query), as Trino's ShowStatsRewrite answers them: a row
// per output column (data_size, distinct_values_count, nulls_fraction, low_value, high_value) and a
// last row with a NULL column_name and the row count. The figures are the connectors' table
// statistics carried through the query's plan (plan-statistics.ts); an unknown one is NULL. Low and
// high values are printed as Trino prints its (numeric) statistics: integers as integers, doubles
// and decimals as Java prints a double, dates and timestamps in ISO form; other types have none.

import { isLongPlain, writePicos } from '../../types/long-plain-temporal.js';
import { expressionEvaluator } from '../../exec/expression/index.js';
import type { ColumnStatistics } from '../../spi/connector.js';
import type { Scalar } from '../../types/scalar.js';
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
  // A table's columns of a type the engine cannot read yet (nested lake columns) are listed without figures.
  const tableColumns = statement.target.kind === 'Query' ? undefined : (await metadata.tableOrFail(statement.target)).columns;
  const query =
    statement.target.kind === 'Query'
      ? statement.target
      : selectFrom(
          statement.target,
          tableColumns!.filter((c) => c.type.kind !== 'unsupported').map((c) => c.name),
        );
  const analyzed = await metadata.analyze(query, () => analyzeQuery(query, metadata, expressionEvaluator));
  const statistics = planStatistics(analyzed.root, analyzed.context);
  const byName = new Map<string, Scalar[]>();
  const rows: Scalar[][] = analyzed.root.outputs.map((symbol, i) => {
    const c: ColumnStatistics = statistics.columns.get(symbol.id) ?? {};
    const row = [
      analyzed.columns[i].name,
      c.dataSize ?? null,
      c.distinctValuesCount ?? null,
      c.nullsFraction ?? null,
      null,
      bound(c.low, symbol.type),
      bound(c.high, symbol.type),
    ];
    byName.set(analyzed.columns[i].name, row);
    return row;
  });
  const columnRows =
    tableColumns === undefined ? rows : tableColumns.map((c) => byName.get(c.name) ?? [c.name, null, null, null, null, null, null]);
  columnRows.push([null, null, null, null, statistics.rowCount ?? null, null, null]);
  return rowsResult(COLUMNS, columnRows);
}

/** `SELECT <columns> FROM name` (`SELECT NULL` for none), placed where the name is (errors about the table point at it). */
function selectFrom(name: ast.QualifiedName, columns: readonly string[]): ast.Query {
  const location = name.location;
  const specification: ast.QuerySpecification = {
    kind: 'QuerySpecification',
    select: {
      kind: 'Select',
      distinct: false,
      items:
        columns.length === 0
          ? [{ kind: 'SelectExpression', expression: { kind: 'NullLiteral', location }, location }]
          : columns.map((value) => ({
              kind: 'SelectExpression',
              expression: { kind: 'Identifier', value, quoted: true, location },
              location,
            })),
      location,
    },
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
    case 'timestamp': {
      // Shown to micros at most; a long value (picoseconds, long-plain-temporal.ts) rounds there first.
      const shown = timestamp(Math.min(type.precision, 6));
      return formatValueAsText(isLongPlain(type) ? writePicos(shown)(value as bigint) : value, shown);
    }
    default:
      return null;
  }
}
