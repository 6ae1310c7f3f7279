// EXPLAIN of a DELETE or UPDATE a connector makes itself (in-place-row-change.ts): Trino's plan of
// such a statement is one TableDelete or TableUpdate node on the coordinator under the output of
// the rows count; its target here says the table and the statement the data source runs.

import { EngineError } from '../../errors/engine-error.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { BOOLEAN } from '../../types/types.js';
import { modifiedTable } from './ddl-statements.js';
import { applyDelete, applyUpdate, type InPlaceConnector } from './in-place-row-change.js';
import { column, rowsResult, varcharColumns } from './results.js';
import { checkedUpdate } from './update-statement.js';

/** The EXPLAIN result, or undefined when the statement's catalog does not make row changes itself. */
export async function explainRowChange(
  explain: ast.ExplainStatement,
  statement: ast.DeleteStatement | ast.Update,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<StatementResult | undefined> {
  const isDelete = statement.kind === 'Delete';
  const table = await modifiedTable(
    statement.table,
    metadata,
    isDelete ? 'Deleting from' : 'Updating',
    statement.location,
    statement.branch,
  );
  const connector = metadata.connector(table.catalog);
  if (!connector.applyRowChange) return undefined;
  const verb = isDelete ? 'DELETE' : 'UPDATE';
  if (explain.analyze) throw new EngineError('NOT_SUPPORTED', `EXPLAIN ANALYZE of ${verb} is not supported`, explain.location);
  if (explain.type === 'IO') throw new EngineError('NOT_SUPPORTED', 'EXPLAIN (TYPE IO) is not supported', explain.location);
  if (explain.format && explain.format !== 'TEXT')
    throw new EngineError('NOT_SUPPORTED', `EXPLAIN format ${explain.format} is not supported`, explain.location);
  const target = { table, connector: connector as InPlaceConnector, session: metadata.session, parameters };
  const pushed = isDelete ? await applyDelete(statement, target) : await applyUpdate(checkedUpdate(statement, table), target);
  // A change of single rows has no plan of its own to show (as DELETE and UPDATE of other catalogs).
  if (pushed === undefined) return undefined;
  if (explain.type === 'VALIDATE') return rowsResult([column('Valid', BOOLEAN)], [[true]]);
  const plan = [
    'Output[columnNames = [rows]]',
    '│   Layout: [rows:bigint]',
    `└─ Table${isDelete ? 'Delete' : 'Update'}[target = ${table.catalog}:${table.schema}.${table.name}, statement = ${pushed.explain}]`,
    '       Layout: [rows:bigint]',
  ];
  const fragment = ['Fragment 0 [COORDINATOR_ONLY]', '    Output layout: [rows]', '    Output partitioning: SINGLE []'];
  const lines = explain.type === 'LOGICAL' ? plan : [...fragment, ...plan.map((line) => `    ${line}`)];
  return rowsResult(varcharColumns('Query Plan'), [[lines.join('\n')]]);
}
