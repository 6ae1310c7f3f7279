// DELETE and UPDATE on a catalog whose data source changes rows itself (PostgreSQL), as Trino's JDBC
// connectors make them: the whole WHERE goes down as the source's filter, and each SET value is a
// constant (Trino folds constant expressions before it offers them); the source runs one statement
// and reports the rows it changed. What the source cannot take whole is a row-level change, which
// the connector refuses with its own message (rowLevelChangeRefusal).

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { evaluateConstant } from '../../exec/expression/compiler.js';
import { isDeterministicFunction } from '../../functions/scalar/registry.js';
import type { Connector, InPlaceRowChange, PushedRowChange, TableMetadata } from '../../spi/connector.js';
import type { ConnectorExpression } from '../../spi/pushdown.js';
import type { Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import { translateExpression } from '../../sql/analyzer/expression-translator.js';
import type * as ast from '../../sql/parser/ast.js';
import { expressionOverColumns } from '../../sql/planner/optimizer/push-into-connectors.js';
import { extractConjuncts } from '../../sql/planner/plan-factory.js';
import { constant, mapChildren, type RowExpression, type Symbol } from '../../sql/planner/row-expression.js';
import { deleteCondition, tableFields } from './ddl-statements.js';
import { rowCountResult } from './results.js';
import { assignmentCast, checkSetTypes } from './update-statement.js';

export type InPlaceConnector = Connector & Required<Pick<Connector, 'applyRowChange' | 'executeRowChange'>>;

interface Target {
  table: TableMetadata;
  connector: InPlaceConnector;
  session: Session;
  parameters: readonly RowExpression[];
}

/** The DELETE made by the connector; undefined when it cannot make it whole but changes single rows (deleteRows). */
export async function deleteInPlace(s: ast.DeleteStatement, target: Target): Promise<StatementResult | undefined> {
  const pushed = await applyDelete(s, target);
  return pushed && rowCountResult('DELETE', await execute(target, pushed));
}

/** `s`: its SET targets checked and spelled as the table's columns. Undefined as for deleteInPlace (updateRows). */
export async function updateInPlace(s: ast.Update, target: Target): Promise<StatementResult | undefined> {
  const pushed = await applyUpdate(s, target);
  return pushed && rowCountResult('UPDATE', await execute(target, pushed));
}

/** The DELETE as the connector will make it; refused when it cannot (undefined: it changes single rows instead). */
export function applyDelete(s: ast.DeleteStatement, target: Target): Promise<PushedRowChange | undefined> {
  return apply(target, { where: whereConjuncts(s.where, target) }, s.location);
}

/** The UPDATE as the connector will make it; refused when it cannot (undefined: it changes single rows instead). */
export function applyUpdate(s: ast.Update, target: Target): Promise<PushedRowChange | undefined> {
  const { table, session, parameters } = target;
  const { scope, symbols } = tableFields(table);
  // In table order, as the engine's own UPDATE checks and reports them.
  const assignments = table.columns.flatMap((column) => {
    const assignment = s.assignments.find((a) => a.column.value === column.name);
    if (assignment === undefined) return [];
    const value = containsSubquery(assignment.value) ? undefined : translateExpression(assignment.value, { scope, session, parameters });
    return [{ column, value }];
  });
  const typed = assignments.flatMap(({ column, value }) => (value === undefined ? [] : [{ column, value }]));
  checkSetTypes(
    s,
    typed.map((t) => t.column),
    typed.map((t) => t.value),
  );
  const set = assignments.map(({ column, value }) => ({
    column: column.name,
    value: value && expressionOverColumns(folded(assignmentCast(value, column.type, session)), columnNames(symbols, table), true),
  }));
  return apply(target, { where: whereConjuncts(s.where, target), set }, s.location);
}

async function apply(target: Target, change: InPlaceRowChange, location: SourceLocation): Promise<PushedRowChange | undefined> {
  const { table, connector, session } = target;
  const pushed = await connector.applyRowChange(session, table.schema, table.name, change);
  if (pushed !== undefined) return pushed;
  const refusal = connector.rowLevelChangeRefusal
    ? await connector.rowLevelChangeRefusal(session, table.schema, table.name)
    : 'This connector does not support modifying table rows';
  if (refusal !== undefined) throw new EngineError('NOT_SUPPORTED', refusal, location);
  return undefined;
}

function execute(target: Target, change: PushedRowChange): Promise<number> {
  return target.connector.executeRowChange(target.session, change);
}

/** The WHERE's conjuncts over the table's columns; undefined when one reads anything else (a subquery, a lambda). */
function whereConjuncts(where: ast.Expression | undefined, target: Target): ConnectorExpression[] | undefined {
  if (where === undefined) return [];
  if (containsSubquery(where)) return undefined;
  const { expression, symbols } = deleteCondition(where, target.table, target.session, target.parameters);
  const conjuncts: ConnectorExpression[] = [];
  for (const conjunct of extractConjuncts(folded(expression))) {
    const translated = expressionOverColumns(conjunct, columnNames(symbols, target.table), true);
    if (translated === undefined) return undefined;
    conjuncts.push(translated);
  }
  return conjuncts;
}

function columnNames(symbols: readonly Symbol[], table: TableMetadata): (symbol: Symbol) => string | undefined {
  return (symbol) => {
    const index = symbols.findIndex((s) => s.id === symbol.id);
    return index < 0 ? undefined : table.columns[index].name;
  };
}

/**
 * Deterministic parts without columns replaced by their values, as Trino's planner folds them before
 * it offers a predicate or a SET value to the connector; a part that would fail stays as it is.
 */
function folded(e: RowExpression): RowExpression {
  const done = mapChildren(e, folded);
  if (done.kind !== 'call' && done.kind !== 'cast' && done.kind !== 'special') return done;
  if (done.kind === 'call' && !isDeterministicFunction(done.name)) return done;
  const args = done.kind === 'cast' ? [done.arg] : done.args;
  if (!args.every((a) => a.kind === 'constant')) return done;
  try {
    return constant(evaluateConstant(done), done.type);
  } catch {
    return done;
  }
}
