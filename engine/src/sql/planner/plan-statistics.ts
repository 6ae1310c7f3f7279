// What is known of a plan's output (SHOW STATS FOR (query)): the row count and per output symbol
// the column statistics, carried from the tables' statistics through the nodes that keep them
// (projections of a column, VALUES, a global aggregation's one row). A node that changes which rows
// there are in a way not known without estimating (a filter, a join, a limit below the row count)
// makes its figures unknown: SHOW STATS prints NULL rather than a guess.

import type { ColumnStatistics } from '../../spi/connector.js';
import type { PlannerContext } from './planner-context.js';
import type { PlanNode } from './plan.js';
import { assertNever } from './assert-never.js';

export interface PlanStatistics {
  rowCount?: number;
  /** By symbol id. */
  columns: Map<number, ColumnStatistics>;
}

const UNKNOWN: PlanStatistics = { columns: new Map() };

export function planStatistics(node: PlanNode, context: PlannerContext): PlanStatistics {
  switch (node.kind) {
    case 'TableScan': {
      if (node.pushed !== undefined) return UNKNOWN;
      const table = context.metadata.tableStatistics(node.table);
      if (table === undefined) return UNKNOWN;
      const columns = new Map<number, ColumnStatistics>();
      node.columns.forEach((column, i) => {
        const found = table.columns?.[column.name];
        if (found !== undefined) columns.set(node.outputs[i].id, found);
      });
      return { ...(table.rowCount === undefined ? {} : { rowCount: table.rowCount }), columns };
    }
    case 'Project': {
      const source = planStatistics(node.source, context);
      const columns = new Map<number, ColumnStatistics>();
      for (const { symbol, expression } of node.assignments) {
        const found = expression.kind === 'symbol' ? source.columns.get(expression.symbol.id) : undefined;
        if (found !== undefined) columns.set(symbol.id, found);
      }
      return { ...(source.rowCount === undefined ? {} : { rowCount: source.rowCount }), columns };
    }
    case 'Values':
      return { rowCount: node.rows.length, columns: new Map() };
    case 'Aggregate':
      return node.groupingKeys.length === 0 && node.step !== 'partial' ? { rowCount: 1, columns: new Map() } : UNKNOWN;
    case 'Limit': {
      const source = planStatistics(node.source, context);
      // Rows past the offset and up to the count: known only when the source's count is, and then every row stays when it fits.
      if (source.rowCount === undefined) return UNKNOWN;
      const rowCount = Math.max(0, Math.min(node.count, source.rowCount - node.offset));
      return { rowCount, columns: rowCount === source.rowCount ? source.columns : new Map() };
    }
    case 'Sort':
      return planStatistics(node.source, context);
    case 'RecursiveUnion':
    case 'Filter':
    case 'Join':
    case 'TopN':
    case 'Window':
    case 'SetOperation':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Apply':
    case 'Exchange':
    case 'RemoteSource':
    case 'TableWriter':
    case 'TableFinish':
      return UNKNOWN;
    default:
      return assertNever(node);
  }
}
