// EXPLAIN output: the plan as an indented tree, in the spirit of Trino's text plans.

import { tableFunctionArgumentLines } from '../../connectors/table-functions/table-function-explain.js';
import { formatRowOperator } from '../../functions/scalar/row-operators.js';
import { formatValueAsText } from '../../types/values.js';
import { typeName } from '../../types/types.js';
import type { AggregateNode, AggregationCall, OrderingItem, PlanNode, TableScanNode, WriteTarget } from './plan.js';
import { sources } from './plan.js';
import type { RowExpression, Symbol } from './row-expression.js';
import { formatFrame } from './window-frame.js';
import { assertNever } from './assert-never.js';

/**
 * Per-node runtime figures for EXPLAIN ANALYZE, added up over the tasks that ran the node's
 * operator: its own times, without those of the operators below it.
 */
export interface NodeRuntimeStats {
  /** The operators that ran it (one name, or two when some tasks ran it on worker threads and some not). */
  operatorTypes: string[];
  inputRows: number;
  outputRows: number;
  cpuMillis: number;
  wallMillis: number;
  blockedMillis: number;
  /** A scan's connector metrics (a lake's files and bytes read and skipped), summed. */
  connectorMetrics: Record<string, number>;
  /** What its physical node chose in its adaptive decisions, by decision name. */
  decisions?: Record<string, string>;
}

/** `tree`: the lines of the tree under the output (by default the logical plan's). */
export function printPlan(
  root: PlanNode,
  columnNames: string[],
  stats?: ReadonlyMap<number, NodeRuntimeStats>,
  tree: string[] = printTree(root, stats),
): string {
  return [`Output[columnNames = [${columnNames.join(', ')}]]`, `│   Layout: [${layout(root.outputs)}]`, ...tree].join('\n');
}

/** The tree under a fragment's output (no Output line), as lines. */
export function printTree(root: PlanNode, stats?: ReadonlyMap<number, NodeRuntimeStats>): string[] {
  const lines: string[] = [];
  visit(root, '', lines, stats);
  return lines;
}

function visit(node: PlanNode, indent: string, lines: string[], stats?: ReadonlyMap<number, NodeRuntimeStats>): void {
  lines.push(...nodeLines(describe(node), node, indent, stats));
  for (const child of sources(node)) visit(child, childIndent(indent), lines, stats);
}

/** The indent of a node's children (and of its detail lines, which are four more). */
export function childIndent(indent: string): string {
  return `${indent}   `;
}

/** A node's lines: `title`, its layout and, for EXPLAIN ANALYZE, its operator's figures. */
export function nodeLines(title: string, node: PlanNode, indent: string, stats?: ReadonlyMap<number, NodeRuntimeStats>): string[] {
  const detail = `${childIndent(indent)}    `;
  const lines = [`${indent}└─ ${title}`, `${detail}Layout: [${layout(node.outputs)}]`];
  if (node.kind === 'TableScan') lines.push(...tableFunctionArgumentLines(node.table).map((line) => `${detail}${line}`));
  const s = stats?.get(node.id);
  if (s)
    lines.push(
      `${detail}Output: ${s.outputRows} rows, Input: ${s.inputRows} rows; CPU: ${s.cpuMillis.toFixed(2)}ms, Wall: ${s.wallMillis.toFixed(2)}ms, Blocked: ${s.blockedMillis.toFixed(2)}ms; ${s.operatorTypes.join(', ')}`,
    );
  const metrics = Object.entries(s?.connectorMetrics ?? {});
  if (metrics.length > 0) lines.push(`${detail}Connector metrics: ${metrics.map(([name, value]) => `${name} = ${value}`).join(', ')}`);
  return lines;
}

export function layout(symbols: readonly Symbol[]): string {
  return symbols.map((s) => `${name(s)}:${typeName(s.type)}`).join(', ');
}

export function name(s: Symbol): string {
  return `${s.name}_${s.id}`;
}

function ordering(items: OrderingItem[]): string {
  return items.map((o) => `${name(o.symbol)} ${o.ascending ? 'ASC' : 'DESC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ');
}

/** An aggregate's arguments, the keys of an ORDER BY inside the call after them (a final step merges intermediates). */
function callArguments(a: AggregationCall, step: AggregateNode['step']): string {
  const ordering = a.function.ordering ?? [];
  if (ordering.length === 0 || step === 'final') return a.arguments.map(name).join(', ');
  const own = a.arguments.length - ordering.length;
  const keys = ordering.map(
    (o, i) => `${name(a.arguments[own + i])} ${o.ascending ? 'ASC' : 'DESC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`,
  );
  return `${a.arguments.slice(0, own).map(name).join(', ')} ORDER BY ${keys.join(', ')}`;
}

/**
 * A scan's dynamic filters as Trino prints them: `, dynamicFilters = {"column" = #df_1}`; one whose
 * join is in another fragment (its domain crosses through the coordinator) is marked `#df_1 (remote)`.
 */
function scanDynamicFilters(node: TableScanNode): string {
  if (node.dynamicFilters === undefined) return '';
  return `, dynamicFilters = {${node.dynamicFilters.map((f) => `"${f.column}" = ${dynamicFilterId(f)}`).join(', ')}}`;
}

function dynamicFilterId(filter: { id: string; remote?: boolean }): string {
  return filter.remote === true ? `#${filter.id} (remote)` : `#${filter.id}`;
}

/** One line naming a plan node and its arguments, as EXPLAIN prints it. */
export function describe(node: PlanNode): string {
  switch (node.kind) {
    case 'TableScan':
      return `TableScan[table = ${node.table.catalog}:${node.table.schema}.${node.table.name}, columns = [${node.columns.map((c) => c.name).join(', ')}]${(node.pushed?.explain ?? []).map((p) => `, ${p}`).join('')}${scanDynamicFilters(node)}${node.replicated === true ? ', splits = every task' : ''}]`;
    case 'Values':
      return node.workTable === undefined ? `Values[rows = ${node.rows.length}]` : 'WorkTable';
    case 'RecursiveUnion':
      return `RecursiveUnion[maxDepth = ${node.maxDepth}]`;
    case 'Filter':
      return `Filter[filterPredicate = ${formatRowExpression(node.predicate)}]`;
    case 'Project':
      return `Project[${node.assignments
        .filter((a) => !(a.expression.kind === 'symbol' && a.expression.symbol.id === a.symbol.id))
        .map((a) => `${name(a.symbol)} := ${formatRowExpression(a.expression)}`)
        .join(', ')}]`;
    case 'Aggregate':
      return `Aggregate(${node.step.toUpperCase()})[keys = [${node.groupingKeys.map(name).join(', ')}]] ${node.aggregations
        .map(
          (a) =>
            `${name(a.symbol)} := ${a.function.name}(${a.distinct ? 'DISTINCT ' : ''}${callArguments(a, node.step)})${a.mask ? ` FILTER ${name(a.mask)}` : ''}`,
        )
        .join(', ')}`;
    case 'Join': {
      const criteria = node.criteria.map((c) => `${name(c.left)} = ${name(c.right)}`).join(' AND ');
      const kind = node.nearest
        ? `${capitalize(node.type)}NearestJoin`
        : node.type === 'mark'
          ? 'SemiJoin'
          : node.type === 'inner' && node.criteria.length === 0
            ? 'CrossJoin'
            : `${capitalize(node.type)}Join`;
      const parts = [
        ...(node.mark ? [`${node.mark.nullAware ? 'null-aware, ' : ''}mark = ${name(node.mark.symbol)}`] : []),
        ...(criteria ? [`criteria = (${criteria})`] : []),
        ...(node.filter ? [`filter = ${formatRowExpression(node.filter)}`] : []),
        ...(node.nearest ? [`nearest = ${name(node.nearest.key)} ${node.nearest.operator} ${name(node.nearest.value)}`] : []),
        ...(node.distribution ? [`distribution = ${node.distribution}`] : []),
        ...(node.parallelProbe === true ? ['probe = parallel'] : []),
        ...(node.dynamicFilters === undefined
          ? []
          : [`dynamicFilterAssignments = {${node.dynamicFilters.map((f) => `${name(f.build)} -> ${dynamicFilterId(f)}`).join(', ')}}`]),
        ...(node.probeKeyFilters === undefined
          ? []
          : [`probeKeyFilterAssignments = {${node.probeKeyFilters.map((f) => `${name(f.probe)} -> ${dynamicFilterId(f)}`).join(', ')}}`]),
      ];
      return `${kind}[${parts.join(', ')}]`;
    }
    case 'Sort':
      return `Sort[orderBy = [${ordering(node.orderBy)}]]`;
    case 'TopN':
      return `TopN[count = ${node.count}, orderBy = [${ordering(node.orderBy)}]]`;
    case 'Limit':
      return `Limit[count = ${node.count}${node.offset ? `, offset = ${node.offset}` : ''}]`;
    case 'Window':
      return `Window[partitionBy = [${node.partitionBy.map(name).join(', ')}], orderBy = [${ordering(node.orderBy)}]] ${node.functions
        .map(
          (f) =>
            `${name(f.symbol)} := ${f.function.name}(${f.function.distinct ? 'DISTINCT ' : ''}${f.arguments.map(name).join(', ')}) ${formatFrame(f.frame, name)}`,
        )
        .join(', ')}`;
    case 'SetOperation':
      return `${capitalize(node.operation)}[${node.distinct ? 'DISTINCT' : 'ALL'}]`;
    case 'EnforceSingleRow':
      return 'EnforceSingleRow';
    case 'GroupId':
      return `GroupId[${node.groupingSets.map((s) => `[${s.map(name).join(', ')}]`).join(', ')}]`;
    case 'AssignUniqueId':
      return `AssignUniqueId[${name(node.idSymbol)}]`;
    case 'MarkDistinct':
      return `MarkDistinct[distinct = [${node.distinctSymbols.map(name).join(', ')}], marker = ${name(node.marker)}]`;
    case 'Unnest': {
      const ordinality = node.ordinality === undefined ? '' : `, ordinality = ${name(node.ordinality)}`;
      return `${node.outer ? 'LeftUnnest' : 'Unnest'}[replicate = [${node.replicate.map(name).join(', ')}], unnest = [${node.mappings.map((m) => `${name(m.input)} -> ${name(m.output)}`).join(', ')}]${ordinality}]`;
    }
    case 'Apply':
      return `Apply[${node.applyType === 'lateral' && node.outer ? 'lateral left' : node.applyType}, correlation = [${node.correlation.map(name).join(', ')}]]`;
    // A merging exchange prints as Trino's RemoteMerge, with the order it merges in.
    case 'Exchange':
      if (node.orderBy !== undefined) return `RemoteMerge[type = ${node.type}, orderBy = [${ordering(node.orderBy)}]]`;
      return `RemoteExchange[type = ${node.type}${node.partitionKeys.length > 0 ? `, partitionKeys = [${node.partitionKeys.map(name).join(', ')}]` : ''}]`;
    case 'RemoteSource':
      return `${node.orderBy === undefined ? 'RemoteSource' : 'RemoteMerge'}[sourceFragmentIds = [${node.sourceFragmentIds.join(', ')}]${node.orderBy === undefined ? '' : `, orderBy = [${ordering(node.orderBy)}]`}]`;
    case 'TableWriter':
      return `TableWriter[target = ${writeTarget(node.target)}] ${node.columnNames.map((c, i) => `${c} := ${name(node.columns[i])}`).join(', ')}`;
    case 'TableFinish':
      // Trino prints its TableFinish node as TableCommit.
      return `TableCommit[target = ${writeTarget(node.target)}]`;
    default:
      return assertNever(node);
  }
}

function writeTarget(target: WriteTarget): string {
  return `${target.catalog}:${target.schema}.${target.table}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function formatRowExpression(e: RowExpression): string {
  switch (e.kind) {
    case 'symbol':
      return name(e.symbol);
    case 'input':
      return `#${e.channel}`;
    case 'constant':
      return e.value === null
        ? 'null'
        : e.type.kind === 'varchar' || e.type.kind === 'char'
          ? `'${String(e.value)}'`
          : formatValueAsText(e.value, e.type);
    case 'cast':
      return `${e.safe ? 'TRY_CAST' : 'CAST'}(${formatRowExpression(e.arg)} AS ${typeName(e.type)})`;
    case 'call': {
      const args = e.args.map(formatRowExpression);
      return formatRowOperator(e.name, args) ?? `${e.name}(${args.join(', ')})`;
    }
    case 'special':
      return `${e.form.toUpperCase()}(${e.args.map(formatRowExpression).join(', ')})`;
    case 'lambda':
      return `(${e.parameters.map((p) => p.name).join(', ')}) -> ${formatRowExpression(e.body)}`;
    case 'variable':
      return e.name;
    case 'routine':
      return `${e.routine.name}(${e.args.map(formatRowExpression).join(', ')})`;
  }
}
