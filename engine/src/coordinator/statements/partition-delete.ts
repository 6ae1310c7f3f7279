// DELETE on a catalog whose tables drop whole partitions instead of rows (the lake), as Trino's Hive
// connector does it for non-transactional tables: Trino deletes without reading rows only when the
// connector enforces the whole WHERE (applyDelete/executeDelete), and Hive enforces just what becomes
// a domain of partition columns: a partition column compared with a constant (=, <>, <, <=, >, >=,
// IS DISTINCT FROM), BETWEEN, IN and IS NULL on one, NOT, AND, and OR within one column. Any other
// WHERE (a data column, a function of a column, a subquery) leaves a row-level delete, which a
// non-transactional table refuses. Trino reports no count (too costly to know): the `rows` value is
// NULL and there is no update count.

import type { Connector, RowPredicate, TableMetadata } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { isDeterministicFunction } from '../../functions/scalar/registry.js';
import type * as ast from '../../sql/parser/ast.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { cannotChangeRows, compiledPredicate, deleteCondition } from './ddl-statements.js';
import { rowCountResult } from './results.js';
import { COMPARISON_NAMES } from '../../functions/scalar/operator-names.js';

export async function deleteWholePartitions(
  s: ast.DeleteStatement,
  table: TableMetadata,
  connector: Connector,
  session: Session,
  parameters: readonly RowExpression[],
): Promise<StatementResult> {
  let predicate: RowPredicate = (page) => new Uint8Array(page.rowCount).fill(1);
  if (s.where !== undefined) {
    if (containsSubquery(s.where)) throw cannotChangeRows(connector, s.location);
    const { expression, symbols } = deleteCondition(s.where, table, session, parameters);
    const partitionNames = connector.writePartitionColumns?.(table) ?? [];
    const partitionSymbols = partitionNames.map((name) => symbols[table.columns.findIndex((c) => c.name === name)]);
    if (columnsOfDomain(expression, new Set(partitionSymbols.map((p) => p.id))) === undefined)
      throw cannotChangeRows(connector, s.location);
    predicate = compiledPredicate(expression, partitionSymbols);
  }
  if (!connector.deletePartitions) throw cannotChangeRows(connector, s.location);
  await connector.deletePartitions(session, table.schema, table.name, predicate);
  return rowCountResult('DELETE', undefined);
}

/**
 * The partition columns (symbol ids) a predicate Trino's Hive connector enforces on partition values
 * constrains (a constant: none); undefined when it is not such a predicate.
 */
function columnsOfDomain(e: RowExpression, partitionIds: ReadonlySet<number>): Set<number> | undefined {
  const column = (a: RowExpression): number | undefined => {
    const inner = a.kind === 'cast' && !a.safe ? a.arg : a;
    return inner.kind === 'symbol' && partitionIds.has(inner.symbol.id) ? inner.symbol.id : undefined;
  };
  const onColumn = (subject: RowExpression, others: readonly RowExpression[]): Set<number> | undefined => {
    const id = column(subject);
    return id !== undefined && others.every(isConstant) ? new Set([id]) : undefined;
  };
  if (e.kind === 'constant') return e.type.kind === 'boolean' || e.type.kind === 'unknown' ? new Set() : undefined;
  if (e.kind === 'call' && (COMPARISON_NAMES.has(e.name) || e.name === 'is_distinct_from') && e.args.length === 2) {
    const [a, b] = e.args;
    return onColumn(a, [b]) ?? onColumn(b, [a]);
  }
  if (e.kind !== 'special') return undefined;
  switch (e.form) {
    case 'is_null':
    case 'in':
    case 'between':
      return onColumn(e.args[0], e.args.slice(1));
    case 'not':
      return columnsOfDomain(e.args[0], partitionIds);
    case 'and':
    case 'or': {
      const parts = e.args.map((a) => columnsOfDomain(a, partitionIds));
      if (parts.some((p) => p === undefined)) return undefined;
      const all = new Set(parts.flatMap((p) => [...(p as Set<number>)]));
      // A union over several columns is not a domain: Trino leaves it to a row-level delete.
      return e.form === 'or' && all.size > 1 ? undefined : all;
    }
    default:
      return undefined;
  }
}

/** Whether an expression is a constant Trino folds before pushing a predicate down: no column, nothing non-deterministic. */
function isConstant(e: RowExpression): boolean {
  switch (e.kind) {
    case 'constant':
      return true;
    case 'cast':
      return isConstant(e.arg);
    case 'call':
      return isDeterministicFunction(e.name) && e.args.every(isConstant);
    case 'special':
      return e.args.every(isConstant);
    default:
      return false;
  }
}
