// Offers the nodes right above a table scan to its connector (see spi/pushdown.ts): a filter's
// conjuncts, a LIMIT, a TopN, an aggregation. What the connector takes it records in the scan's
// `pushed` handle; a filter keeps the conjuncts it did not take, while a LIMIT or TopN stays above
// the scan as it was (the connector cuts each split's rows, the engine the whole result) and an
// aggregation the connector takes disappears, the scan reading its result instead.

import type { ColumnMetadata, Connector } from '../../../spi/connector.js';
import type { ConnectorAggregate, ConnectorExpression, SortItem } from '../../../spi/pushdown.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, FilterNode, LimitNode, PlanNode, TableScanNode, TopNNode } from '../plan.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import type { RowExpression, Symbol } from '../row-expression.js';
import { rewriteBottomUp } from './rewrite-plan.js';
import { assertNever } from '../assert-never.js';

export function pushIntoConnectors(root: PlanNode, context: PlannerContext): PlanNode {
  return rewriteBottomUp(root, (node) => {
    switch (node.kind) {
      case 'Filter':
        return pushFilter(node, context) ?? node;
      case 'Limit':
        return pushLimit(node, context) ?? node;
      case 'TopN':
        return pushTopN(node, context) ?? node;
      case 'Aggregate':
        return pushAggregation(node, context) ?? node;
      case 'TableScan':
      case 'Values':
      case 'RecursiveUnion':
      case 'Project':
      case 'Join':
      case 'Sort':
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
        return node;
      default:
        return assertNever(node);
    }
  });
}

/** A sampled scan (TABLESAMPLE SYSTEM) reads part of the table: nothing is pushed into it, as the connector would apply it to the whole table. */
function connectorOf(scan: TableScanNode, context: PlannerContext): Connector | undefined {
  return scan.splitSampleRatio === undefined ? context.catalogs.get(scan.table.catalog) : undefined;
}

function pushFilter(node: FilterNode, context: PlannerContext): PlanNode | undefined {
  const scan = node.source;
  if (scan.kind !== 'TableScan') return undefined;
  const connector = connectorOf(scan, context);
  if (connector?.applyFilter === undefined) return undefined;
  const conjuncts = extractConjuncts(node.predicate);
  const offered: { index: number; expression: ConnectorExpression }[] = [];
  conjuncts.forEach((c, index) => {
    const expression = connectorExpression(c, scan);
    if (expression !== undefined) offered.push({ index, expression });
  });
  if (offered.length === 0) return undefined;
  const application = connector.applyFilter(
    context.session,
    scan.table,
    scan.pushed,
    offered.map((o) => o.expression),
  );
  if (application === undefined) return undefined;
  const enforced = new Set(application.enforced.map((i) => offered[i].index));
  const source: TableScanNode = { ...scan, pushed: application.pushed };
  const remaining = combineConjuncts(conjuncts.filter((_, i) => !enforced.has(i)));
  return remaining === undefined ? source : { ...node, source, predicate: remaining };
}

function pushLimit(node: LimitNode, context: PlannerContext): PlanNode | undefined {
  const rows = node.count + node.offset;
  const under = scanUnderRenames(node.source);
  if (!Number.isFinite(rows) || under === undefined) return undefined;
  const { scan } = under;
  const pushed = connectorOf(scan, context)?.applyLimit?.(context.session, scan.table, scan.pushed, rows);
  return pushed && { ...node, source: under.rebuild({ ...scan, pushed }) };
}

function pushTopN(node: TopNNode, context: PlannerContext): PlanNode | undefined {
  const under = scanUnderRenames(node.source);
  if (under === undefined) return undefined;
  const { scan } = under;
  const orderBy: SortItem[] = [];
  for (const item of node.orderBy) {
    const column = under.column(item.symbol);
    if (column === undefined) return undefined;
    orderBy.push({ column: column.name, ascending: item.ascending, nullsFirst: item.nullsFirst });
  }
  const pushed = connectorOf(scan, context)?.applyTopN?.(context.session, scan.table, scan.pushed, node.count, orderBy);
  return pushed && { ...node, source: under.rebuild({ ...scan, pushed }) };
}

/** A whole aggregation (no DISTINCT, no FILTER) over a scan, through projections that only pass columns on. */
function pushAggregation(node: AggregateNode, context: PlannerContext): PlanNode | undefined {
  if (node.step !== 'single' || node.aggregations.some((a) => a.distinct || a.mask !== undefined)) return undefined;
  const under = scanUnderRenames(node.source);
  if (under === undefined) return undefined;
  const { scan } = under;
  const groupBy = node.groupingKeys.map(under.column);
  if (groupBy.some((c) => c === undefined)) return undefined;
  const aggregates: ConnectorAggregate[] = [];
  for (const call of node.aggregations) {
    const args = call.arguments.map(under.column);
    if (args.some((c) => c === undefined)) return undefined;
    aggregates.push({
      function: call.function.name,
      arguments: args.map((c) => ({ kind: 'column', name: c!.name, type: c!.type })),
      distinct: false,
      outputType: call.function.returnType,
    });
  }
  const application = connectorOf(scan, context)?.applyAggregation?.(
    context.session,
    scan.table,
    scan.pushed,
    aggregates,
    groupBy.map((c) => c!),
  );
  if (application === undefined) return undefined;
  return {
    kind: 'TableScan',
    id: context.factory.nodeId(),
    outputs: node.outputs,
    table: scan.table,
    columns: application.columns,
    pushed: application.pushed,
  };
}

/**
 * The scan under `node` through projections that only pass symbols on (renames): the column each
 * symbol above them reads, and the same projections over another scan. Undefined when anything
 * else is in between.
 */
function scanUnderRenames(
  node: PlanNode,
): { scan: TableScanNode; column: (s: Symbol) => ColumnMetadata | undefined; rebuild: (scan: TableScanNode) => PlanNode } | undefined {
  if (node.kind === 'TableScan') {
    const column = (s: Symbol) => {
      const index = node.outputs.findIndex((o) => o.id === s.id);
      return index < 0 ? undefined : node.columns[index];
    };
    return { scan: node, column, rebuild: (scan) => scan };
  }
  if (node.kind !== 'Project') return undefined;
  const under = scanUnderRenames(node.source);
  if (under === undefined) return undefined;
  const renames = new Map<number, Symbol>();
  for (const a of node.assignments) if (a.expression.kind === 'symbol') renames.set(a.symbol.id, a.expression.symbol);
  const column = (s: Symbol) => {
    const source = renames.get(s.id);
    return source === undefined ? undefined : under.column(source);
  };
  return { scan: under.scan, column, rebuild: (scan) => ({ ...node, source: under.rebuild(scan) }) };
}

function columnOf(symbol: Symbol, scan: TableScanNode): string | undefined {
  const index = scan.outputs.findIndex((s) => s.id === symbol.id);
  return index < 0 ? undefined : scan.columns[index].name;
}

/** The expression over the scan's columns, or undefined when it reads anything else. */
export function connectorExpression(e: RowExpression, scan: TableScanNode): ConnectorExpression | undefined {
  return expressionOverColumns(e, (symbol) => columnOf(symbol, scan), false);
}

/**
 * The expression over the columns `column` names its symbols as, or undefined when it reads anything
 * else; with `boundParameters`, parameters are the constants they are bound to (a statement run once).
 */
export function expressionOverColumns(
  e: RowExpression,
  column: (symbol: Symbol) => string | undefined,
  boundParameters: boolean,
): ConnectorExpression | undefined {
  switch (e.kind) {
    case 'symbol': {
      const name = column(e.symbol);
      return name === undefined ? undefined : { kind: 'column', name, type: e.type };
    }
    case 'input':
    case 'lambda':
    case 'variable':
    case 'routine':
      return undefined;
    case 'constant':
      return e.parameter === undefined || boundParameters ? { kind: 'constant', value: e.value, type: e.type } : undefined;
    case 'cast': {
      if (e.sessionZone !== undefined) return undefined; // connectors do not know the session zone
      const arg = expressionOverColumns(e.arg, column, boundParameters);
      return arg && { kind: 'cast', arg, type: e.type, safe: e.safe };
    }
    case 'call':
    case 'special': {
      const args: ConnectorExpression[] = [];
      for (const a of e.args) {
        const translated = expressionOverColumns(a, column, boundParameters);
        if (translated === undefined) return undefined;
        args.push(translated);
      }
      return e.kind === 'call' ? { kind: 'call', name: e.name, args, type: e.type } : { kind: 'special', form: e.form, args, type: e.type };
    }
  }
}
