// DESCRIBE INPUT and DESCRIBE OUTPUT of a prepared statement, answered as Trino's
// DescribeInputRewrite and DescribeOutputRewrite answer them: from an analysis of the statement,
// never by running it.

import { perRowQuery } from './row-subqueries.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import { EngineError } from '../../errors/engine-error.js';
import { expressionEvaluator } from '../../exec/expression/index.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { analyzeQuery } from '../../sql/analyzer/analyzer.js';
import { countParameters } from '../../sql/analyzer/ast-utils.js';
import type { ColumnOrigin } from '../../sql/analyzer/scope.js';
import { assertSupported } from '../../sql/analyzer/unsupported-features.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { parseStatement } from '../../sql/parser/parser.js';
import { parameterPlaceholder, type ParameterSlot, type RowExpression } from '../../sql/planner/row-expression.js';
import { BIGINT, BOOLEAN, UNKNOWN, VARCHAR, typeName, type SqlType } from '../../types/types.js';
import { deleteCondition } from './ddl-statements.js';
import { column, rowsResult, varcharColumns } from './results.js';
import { preparedSql } from './session-statements.js';

/** Position and type of each `?`: the type its context gives it, `unknown` where nothing does (`SELECT ?`). */
export async function describeInput(s: ast.DescribeInput, metadata: StatementMetadata): Promise<StatementResult> {
  const statement = parseStatement(preparedSql(metadata.session, s.name));
  const slots: ParameterSlot[] = Array.from({ length: countParameters(statement) }, (_, index) => ({ index }));
  await metadata.analyze(statement, () => analyzeForParameters(statement, metadata, slots.map(parameterPlaceholder)));
  const rows = slots.map((slot) => [BigInt(slot.index), typeName(slot.inferred ?? UNKNOWN)]);
  return rowsResult([column('Position', BIGINT), column('Type', VARCHAR)], rows);
}

/** Analyzes the parts of a statement whose `?` take a type from their context. */
function analyzeForParameters(statement: ast.Statement, metadata: StatementMetadata, parameters: readonly RowExpression[]): void {
  switch (statement.kind) {
    case 'QueryStatement':
    case 'CreateTableAsSelect':
    case 'Insert':
      analyzeQuery(statement.query, metadata, expressionEvaluator, parameters);
      return;
    case 'Delete':
      if (statement.where && containsSubquery(statement.where))
        analyzeQuery(perRowQuery(statement.table, [statement.where]), metadata, expressionEvaluator, parameters);
      else if (statement.where)
        deleteCondition(statement.where, metadata.resolveTableOrFail(statement.table), metadata.session, parameters);
      return;
    case 'Explain':
      analyzeForParameters(statement.statement, metadata, parameters);
      return;
    default:
      return;
  }
}

interface OutputField {
  name: string;
  type: SqlType;
  origin?: ColumnOrigin;
  aliased: boolean;
}

/** The columns a statement returns: name, the table a column reads unchanged, type, fixed size in bytes, and whether AS named it. */
export async function describeOutput(s: ast.DescribeOutput, metadata: StatementMetadata): Promise<StatementResult> {
  const statement: ast.Statement =
    'name' in s
      ? parseStatement(preparedSql(metadata.session, s.name))
      : { kind: 'QueryStatement', query: s.query, location: s.query.location };
  assertSupported(statement);
  const fields = await metadata.analyze(statement, () => outputFields(statement, metadata, s));
  const rows = fields.map((f) => [
    f.name,
    f.origin?.catalog ?? '',
    f.origin?.schema ?? '',
    f.origin?.table ?? '',
    typeName(f.type),
    BigInt(fixedSize(f.type)),
    f.aliased,
  ]);
  return rowsResult(
    [...varcharColumns('Column Name', 'Catalog', 'Schema', 'Table', 'Type'), column('Type Size', BIGINT), column('Aliased', BOOLEAN)],
    rows,
  );
}

function outputFields(statement: ast.Statement, metadata: StatementMetadata, describe: ast.DescribeOutput): OutputField[] {
  switch (statement.kind) {
    case 'QueryStatement': {
      const parameters = Array.from({ length: countParameters(statement) }, (_, index) => parameterPlaceholder({ index }));
      const analyzed = analyzeQuery(statement.query, metadata, expressionEvaluator, parameters);
      return analyzed.fields.map((f, i) => ({
        name: analyzed.columns[i].name,
        type: f.symbol.type,
        ...(f.origin ? { origin: f.origin } : {}),
        aliased: f.aliased === true,
      }));
    }
    case 'CreateTableAsSelect':
      return [rowCount()];
    case 'Insert':
      metadata.resolveTableOrFail(statement.target);
      return [rowCount()];
    case 'Delete':
    case 'Update':
      metadata.resolveTableOrFail(statement.table);
      return [rowCount()];
    case 'Merge':
      metadata.resolveTableOrFail(statement.target);
      return [rowCount()];
    case 'Explain':
      return [
        statement.type === 'VALIDATE'
          ? { name: 'Valid', type: BOOLEAN, aliased: false }
          : { name: 'Query Plan', type: VARCHAR, aliased: false },
      ];
    case 'ShowCatalogs':
    case 'ShowSchemas':
    case 'ShowTables':
    case 'ShowColumns':
    case 'ShowFunctions':
    case 'ShowSession':
    case 'ShowCreateTable':
    case 'DescribeInput':
    case 'DescribeOutput':
      throw new EngineError(
        'NOT_SUPPORTED',
        `DESCRIBE OUTPUT of ${statement.kind.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase()} is not supported`,
        describe.location,
      );
    default:
      // DDL and session statements return no columns.
      return [];
  }
}

function rowCount(): OutputField {
  return { name: 'rows', type: BIGINT, aliased: false };
}

/** Bytes of a fixed-width value as Trino's types declare them; 0 for variable-width types (strings, binary). */
function fixedSize(type: SqlType): number {
  switch (type.kind) {
    case 'boolean':
    case 'tinyint':
    case 'unknown':
      return 1;
    case 'smallint':
      return 2;
    case 'integer':
    case 'real':
    case 'date':
    case 'interval year to month':
    case 'color': // Trino's int
      return 4;
    case 'bigint':
    case 'double':
    case 'time':
    case 'interval day to second':
      return 8;
    case 'timestamp with time zone': // Trino's short layout to p = 3, then Fixed12 (millis, picos and zone)
      return type.precision <= 3 ? 8 : 12;
    case 'time with time zone': // Trino's short layout to p = 9, then Fixed12 (picos and offset)
      return type.precision <= 9 ? 8 : 12;
    case 'decimal':
      return type.precision <= 18 ? 8 : 16;
    case 'uuid':
    case 'ipaddress':
      return 16;
    case 'timestamp':
      return type.precision <= 6 ? 8 : 12;
    case 'varchar':
    case 'char':
    case 'number':
    case 'json':
    case 'varbinary':
    case 'sketch':
    case 'variant':
    case 'array':
    case 'function':
    case 'map':
    case 'row':
    case 'unsupported':
      return 0;
  }
}
