// Places a write's nodes over its query's plan, once the query's exchanges are in (add-exchanges.ts):
// TableWriter runs where the query's rows are — in every task of the fragment that produces them,
// when the target's connector writes from any node — else on the coordinator, and TableFinish
// gathers the writers' rows on the coordinator (the root fragment) and commits the write once.
// Rows of a partitioned table are first repartitioned on its partition columns, so that each
// partition is written by one writer and gets few files.

import type { PlanFactory } from '../plan-factory.js';
import type { PlanNode, TableFinishNode, TableWriterNode, WriteTarget } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { BIGINT, VARCHAR } from '../../../types/types.js';

export interface TableWriterSpec {
  target: WriteTarget;
  /** The table's columns in table order, and per column the root symbol written to it. */
  columnNames: string[];
  columns: Symbol[];
  notNull: string[];
  /** Whether the connector writes from any node (else only on the coordinator). */
  writesAnywhere: boolean;
  /** Symbols whose rows should go to one writer each (a partitioned table's partition columns). */
  partitionBy: Symbol[];
}

/** `root`: the query's plan; with its exchanges, its rows gathered (or in one task) at the top. */
export function addTableWriter(root: PlanNode, spec: TableWriterSpec, factory: PlanFactory): TableFinishNode {
  const writer = (source: PlanNode): TableWriterNode => ({
    kind: 'TableWriter',
    id: factory.nodeId(),
    outputs: [factory.newSymbol('rows', BIGINT), factory.newSymbol('fragments', VARCHAR)],
    source,
    target: spec.target,
    columnNames: spec.columnNames,
    columns: spec.columns,
    notNull: spec.notNull,
  });
  const finish = (source: PlanNode): TableFinishNode => ({
    kind: 'TableFinish',
    id: factory.nodeId(),
    outputs: [factory.newSymbol('rows', BIGINT)],
    source,
    target: spec.target,
  });
  const spread = root.kind === 'Exchange' && root.type === 'GATHER' ? root.source : undefined;
  if (spread === undefined || !spec.writesAnywhere) return finish(writer(root));
  const exchange = (type: 'GATHER' | 'REPARTITION', source: PlanNode, partitionKeys: Symbol[]): PlanNode => ({
    kind: 'Exchange',
    id: factory.nodeId(),
    type,
    source,
    partitionKeys,
    outputs: source.outputs,
  });
  const rows = spec.partitionBy.length > 0 ? exchange('REPARTITION', spread, spec.partitionBy) : spread;
  return finish(exchange('GATHER', writer(rows), []));
}
