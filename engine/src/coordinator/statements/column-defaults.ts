// Column default values (`c type DEFAULT literal` in CREATE TABLE and ALTER TABLE ... ADD COLUMN), as
// Trino has them: only in catalogs whose connector keeps them (Connector.columnDefaults: the memory
// connector, as Trino's); the literal must convert to the column's type (else
// INVALID_DEFAULT_COLUMN_VALUE); it is kept as its SQL text, shown by SHOW CREATE TABLE and
// information_schema.columns, and an INSERT that leaves the column out writes it. Rows already in a
// table when a column with a default is added read NULL for it, as in Trino's memory connector.

import { EngineError } from '../../errors/engine-error.js';
import { evaluateConstant } from '../../exec/expression/index.js';
import type { ColumnMetadata, Connector } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import { coerce, translateExpression } from '../../sql/analyzer/expression-translator.js';
import { castExpression } from '../../sql/analyzer/time-zone-translation.js';
import { Scope } from '../../sql/analyzer/scope.js';
import { parseExpression } from '../../sql/parser/parser.js';
import { formatExpression } from '../../sql/parser/formatter.js';
import type * as ast from '../../sql/parser/ast.js';
import { constant, type RowExpression } from '../../sql/planner/row-expression.js';
import { typeName, typesEqual, type SqlType } from '../../types/types.js';

/** The SQL text of a column definition's default, checked against its type and catalog. */
export function checkedColumnDefault(
  c: ast.ColumnDefinition,
  type: SqlType,
  catalog: string,
  connector: Connector,
  session: Session,
): string | undefined {
  if (c.defaultValue === undefined) return undefined;
  if (connector.columnDefaults !== true)
    throw new EngineError(
      'NOT_SUPPORTED',
      `Catalog '${catalog}' does not support default value for column name '${c.name.value}'`,
      c.location,
    );
  const text = formatExpression(c.defaultValue);
  try {
    defaultValueOf(c.defaultValue, type, session);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw new EngineError(
      'INVALID_DEFAULT_COLUMN_VALUE',
      `'${text}' is not a valid ${typeName(type).toUpperCase()} literal`,
      c.defaultValue.location,
    );
  }
  return text;
}

/** The value an INSERT writes to a column it leaves out: its default, else NULL. */
export function omittedColumnValue(column: ColumnMetadata, session: Session): RowExpression {
  if (column.defaultValue === undefined) return constant(null, column.type);
  return defaultValueOf(parseExpression(column.defaultValue), column.type, session);
}

/** The literal as a constant of the column's type; fails where it does not convert (a too long string included). */
function defaultValueOf(literal: ast.Expression, type: SqlType, session: Session): RowExpression {
  const value = translateExpression(literal, { scope: new Scope([]), session, parameters: [] });
  if (value.type.kind === 'unknown') return coerce(value, type);
  const source = evaluateConstant(value);
  // A cast to varchar(n) or char(n) truncates; a default may not.
  if (
    (type.kind === 'varchar' || type.kind === 'char') &&
    type.length !== undefined &&
    typeof source === 'string' &&
    [...source].length > type.length
  ) {
    throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot truncate characters when casting value '${source}' to ${typeName(type)}`);
  }
  const result = evaluateConstant(typesEqual(value.type, type) ? value : castExpression(value, type, false, session));
  return constant(result, type);
}
