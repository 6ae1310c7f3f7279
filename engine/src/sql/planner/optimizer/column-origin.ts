// Where a plan's output symbol comes from: the table column it carries unchanged (through
// projections of the symbol, filters, joins, grouping keys, exchanges), with that column's
// statistics and its table's row count. Estimates read the figures as bounds: a column has at most
// as many distinct values as its table has rows, and its values lie within its least and greatest.

import type { ColumnStatistics } from '../../../spi/connector.js';
import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { assertNever } from '../assert-never.js';

export interface ColumnOrigin {
  /** The column's statistics (empty when the connector gave none). */
  statistics: ColumnStatistics;
  /** The row count of the column's table, when known. */
  tableRows?: number;
}

/** The table column `symbol` (an output of `node`) carries, or undefined when it is computed or not traced. */
export function columnOrigin(node: PlanNode, symbol: Symbol, context: PlannerContext): ColumnOrigin | undefined {
  switch (node.kind) {
    case 'TableScan': {
      const index = node.outputs.findIndex((s) => s.id === symbol.id);
      if (index < 0) return undefined;
      const table = context.metadata.tableStatistics(node.table);
      const statistics = table?.columns?.[node.columns[index].name] ?? {};
      return table?.rowCount === undefined ? { statistics } : { statistics, tableRows: table.rowCount };
    }
    case 'Project': {
      const assigned = node.assignments.find((a) => a.symbol.id === symbol.id);
      return assigned?.expression.kind === 'symbol' ? columnOrigin(node.source, assigned.expression.symbol, context) : undefined;
    }
    case 'Join':
      return throughSources([node.left, node.right], symbol, context);
    case 'Apply':
      return throughSources([node.input], symbol, context);
    case 'Filter':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Exchange':
    case 'Window':
    case 'MarkDistinct':
    case 'AssignUniqueId':
    case 'EnforceSingleRow':
    case 'Aggregate':
      return throughSources([node.source], symbol, context);
    case 'Values':
    case 'SetOperation':
    case 'GroupId':
    case 'Unnest':
    case 'RemoteSource':
    case 'TableWriter':
    case 'TableFinish':
    case 'RecursiveUnion':
      return undefined;
    default:
      return assertNever(node);
  }
}

/** The origin through the source that outputs `symbol` unchanged. */
function throughSources(sources: PlanNode[], symbol: Symbol, context: PlannerContext): ColumnOrigin | undefined {
  const source = sources.find((s) => s.outputs.some((o) => o.id === symbol.id));
  return source === undefined ? undefined : columnOrigin(source, symbol, context);
}
