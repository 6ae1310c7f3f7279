// ALTER TABLE t EXECUTE procedure[(arguments)] [WHERE ...]: a connector's table procedure
// (spi/table-procedure.ts), with Trino's checks and messages: the procedure by its canonical name
// (an unquoted name upper-cased; a quoted one as written) among the catalog's (none: not registered,
// as Trino's memory and tpch catalogs answer), its properties named or positional (not
// both), a WHERE only on the columns the connector can select by (the partitions of a lake table),
// which the coordinator evaluates into the partitions it selects.

import { EngineError } from '../../errors/engine-error.js';
import { getScalar } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { TableProcedureProperty } from '../../spi/table-procedure.js';
import { parseDataSize } from '../../config/data-size.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import { qualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatIdentifier } from '../../sql/parser/expression-formatter.js';
import { formatExpression } from '../../sql/parser/formatter.js';
import { parseStatement } from '../../sql/parser/parser.js';
import type { QueryRunner } from './merge-statement.js';
import { updateResult } from './results.js';

export async function executeTableProcedure(
  s: ast.TableExecute,
  metadata: StatementMetadata,
  runQuery: QueryRunner,
): Promise<StatementResult> {
  const q = qualifiedObjectName(s.table, metadata.session);
  const table = await metadata.table(s.table);
  if (table === undefined) {
    if ((await metadata.view(s.table)) !== undefined)
      throw new EngineError('NOT_SUPPORTED', 'ALTER TABLE EXECUTE is not supported for views', s.location);
    throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist`, s.table.location);
  }
  const procedures = metadata.connector(q.catalog, s.table.location).tableProcedures;
  const name = s.procedure.quoted ? s.procedure.value : s.procedure.value.toUpperCase();
  const properties = procedures?.procedures.get(name);
  if (procedures === undefined || properties === undefined)
    throw new EngineError('PROCEDURE_NOT_FOUND', `Table procedure not registered: ${name}`, s.procedure.location);
  // The catalog has the procedure; its information_schema tables do not take it (Trino's default table handle).
  if (q.schema === 'information_schema')
    throw new EngineError('NOT_SUPPORTED', 'This connector does not support table procedures', s.location);
  const values = propertyValues(s, name, properties);
  const partitions = s.where === undefined ? undefined : await selectedPartitions(s, procedures.filterColumns(table), runQuery);
  await procedures.execute(metadata.session, table, { procedure: name, values, ...(partitions === undefined ? {} : { partitions }) });
  return updateResult('ALTER TABLE EXECUTE');
}

/** Each property's value, given (by name or position) or its default. */
function propertyValues(s: ast.TableExecute, procedure: string, properties: readonly TableProcedureProperty[]): Map<string, number> {
  const named = s.arguments.filter((a) => a.kind === 'NamedArgument');
  if (named.length > 0 && named.length < s.arguments.length)
    throw new EngineError('INVALID_ARGUMENTS', 'Named and positional arguments cannot be mixed', s.location);
  if (named.length === 0 && s.arguments.length > properties.length)
    throw new EngineError('INVALID_ARGUMENTS', 'Too many positional arguments', s.location);
  const given = new Map<string, ast.Expression>();
  s.arguments.forEach((a, i) => {
    if (a.kind !== 'NamedArgument') return given.set(properties[i].name, a);
    const key = a.name.value.toLowerCase();
    if (!properties.some((p) => p.name === key))
      throw new EngineError(
        'INVALID_PROCEDURE_ARGUMENT',
        `Table procedure '${procedure}' property '${key}' does not exist`,
        a.name.location,
      );
    given.set(key, a.value);
  });
  return new Map(
    properties.map((p) => {
      const e = given.get(p.name);
      const text = e === undefined ? p.defaultValue : e.kind === 'StringLiteral' ? e.value : undefined;
      const bytes = text === undefined ? undefined : parseDataSize(text);
      if (bytes === undefined) {
        const written = e === undefined ? p.defaultValue : formatExpression(e);
        throw new EngineError(
          'INVALID_PROCEDURE_ARGUMENT',
          `Invalid value for table procedure property '${p.name}': Cannot convert [${written}] to data size`,
          e?.location ?? s.location,
        );
      }
      return [p.name, bytes];
    }),
  );
}

/**
 * The partitions (their values, in `columns` order) whose rows the WHERE keeps: the WHERE is run over
 * those columns only, so a WHERE naming any other column fails as it does in Trino, whose planner
 * cannot hand such a filter to the connector.
 */
async function selectedPartitions(s: ast.TableExecute, columns: readonly string[], runQuery: QueryRunner): Promise<Scalar[][]> {
  const where = s.where!;
  const quote = (name: string) => formatIdentifier({ kind: 'Identifier', value: name, quoted: true, location: s.location });
  const parts = s.table.parts;
  const tableName = parts.map((p) => formatIdentifier(p)).join('.');
  const alias = formatIdentifier(parts[parts.length - 1]);
  const list = columns.map(quote).join(', ');
  const unfiltered = () =>
    new EngineError(
      'NOT_SUPPORTED',
      'Unexpected FilterNode found in plan; probably connector was not able to handle provided WHERE expression',
      where.location,
    );
  if (columns.length === 0) throw unfiltered();
  const query = parseStatement(`SELECT DISTINCT ${list} FROM (SELECT ${list} FROM ${tableName}) ${alias} WHERE ${formatExpression(where)}`);
  if (query.kind !== 'QueryStatement') throw new EngineError('GENERIC_INTERNAL_ERROR', 'partition query is not a query');
  try {
    const { pages } = await runQuery(query.query);
    return pages.flatMap((page) => Array.from({ length: page.rowCount }, (_, row) => page.columns.map((c) => getScalar(c, row))));
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'COLUMN_NOT_FOUND') throw unfiltered();
    throw e;
  }
}
