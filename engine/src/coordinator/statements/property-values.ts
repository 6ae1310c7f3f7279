// The values of WITH (name = value, ...) properties: each name must be one the catalog declares for
// that kind of object, given once, and each value a constant of the property's type. Messages follow
// Trino's PropertyUtil, and name the properties that do exist.

import { EngineError } from '../../errors/engine-error.js';
import type { ErrorName } from '../../errors/error-codes.js';
import { evaluateConstant } from '../../exec/expression/index.js';
import type { PropertyValue, PropertyValues } from '../../spi/connector.js';
import type { Scalar } from '../../types/scalar.js';
import type { PropertyMetadata, PropertyType } from '../../spi/properties.js';
import type { Session } from '../../spi/session.js';
import { coerce, translateExpression } from '../../sql/analyzer/expression-translator.js';
import { Scope } from '../../sql/analyzer/scope.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatExpression } from '../../sql/parser/formatter.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { typeName } from '../../types/types.js';

/** Which properties a WITH clause gives: a catalog's table or schema properties. */
export interface PropertyTarget {
  catalog: string;
  object: 'table' | 'column' | 'schema' | 'view';
  declared: readonly PropertyMetadata[];
}

const ERRORS: Record<PropertyTarget['object'], ErrorName> = {
  table: 'INVALID_TABLE_PROPERTY',
  column: 'INVALID_COLUMN_PROPERTY',
  schema: 'INVALID_SCHEMA_PROPERTY',
  view: 'INVALID_VIEW_PROPERTY',
};

/**
 * The values of `properties` for `target`, with the defaults of the declared properties not given
 * (as Trino hands a connector every property of a new table). Fails before anything is created.
 */
export function evaluateProperties(
  properties: readonly ast.Property[],
  target: PropertyTarget,
  session: Session,
  parameters: readonly RowExpression[],
): PropertyValues {
  rejectDuplicates(properties);
  const errorName = ERRORS[target.object];
  const description = `catalog '${target.catalog}' ${target.object} property`;
  const values: Record<string, PropertyValue> = {};
  for (const property of properties) {
    const name = property.name.value.toLowerCase();
    const metadata = target.declared.find((p) => p.name === name);
    if (!metadata) {
      throw new EngineError(errorName, `${capitalize(description)} '${name}' does not exist. ${existing(target)}`, property.location);
    }
    const refused = (reason: string) =>
      new EngineError(errorName, `Invalid value for ${description} '${name}': ${reason}`, property.location);
    const value = property.value ? propertyValue(property.value, metadata, session, parameters, refused) : metadata.defaultValue;
    if (value === null) {
      throw new EngineError(
        errorName,
        `Invalid null value for ${description} '${name}' from [${property.value ? formatExpression(property.value) : 'DEFAULT'}]`,
        property.location,
      );
    }
    if (value !== undefined) values[name] = value;
  }
  for (const metadata of target.declared) {
    if (!(metadata.name in values) && metadata.defaultValue !== undefined && metadata.defaultValue !== null)
      values[metadata.name] = metadata.defaultValue;
  }
  return values;
}

/** A list property's value from `ARRAY[...]` (each item a constant, none NULL); another property's from constantValue. */
function propertyValue(
  expression: ast.Expression,
  metadata: PropertyMetadata,
  session: Session,
  parameters: readonly RowExpression[],
  refused: (reason: string) => EngineError,
): PropertyValue {
  if (!metadata.list) {
    // ARRAY[...] is read only for list properties (the engine has no array type).
    if (expression.kind === 'Array') throw refused(`Cannot convert [${formatExpression(expression)}] to ${typeName(metadata.type)}`);
    return constantValue(expression, metadata, session, parameters, refused);
  }
  if (expression.kind !== 'Array') throw refused(`Cannot convert [${formatExpression(expression)}] to array(${typeName(metadata.type)})`);
  return expression.items.map((item) => {
    const value = constantValue(item, metadata, session, parameters, refused);
    if (value === null) throw refused(`Invalid null item in [${formatExpression(expression)}]`);
    return value;
  });
}

/**
 * `expression` evaluated as a constant of the property's type, then checked by the property.
 * Names that do not resolve fail as in any expression; a value that does not convert, or that the
 * property refuses, fails with `refused(reason)`.
 */
export function constantValue(
  expression: ast.Expression,
  metadata: PropertyMetadata,
  session: Session,
  parameters: readonly RowExpression[],
  refused: (reason: string) => EngineError,
): Scalar {
  const translated = translateExpression(expression, { scope: new Scope([]), session, parameters });
  let value: Scalar;
  try {
    value = evaluateConstant(coerce(translated, metadata.type, expression.location));
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw refused(`Cannot convert [${formatExpression(expression)}] to ${typeName(metadata.type)}`);
  }
  if (value !== null && metadata.validate) {
    try {
      metadata.validate(value);
    } catch (e) {
      throw refused((e as Error).message);
    }
  }
  return value;
}

/** A property value as session properties keep it (and the Session headers carry it): text. */
export function propertyText(value: Exclude<Scalar, null>, type: PropertyType): string {
  return type.kind === 'varchar' ? (value as string) : String(value);
}

function rejectDuplicates(properties: readonly ast.Property[]): void {
  const seen = new Set<string>();
  for (const property of properties) {
    if (seen.has(property.name.value))
      throw new EngineError('DUPLICATE_PROPERTY', `Duplicate property: ${property.name.value}`, property.location);
    seen.add(property.name.value);
  }
}

/** What the target does take, for the message about one it does not. */
function existing(target: PropertyTarget): string {
  const names = target.declared.map((p) => p.name).sort();
  if (names.length === 0) return `Catalog '${target.catalog}' has no ${target.object} properties`;
  return `${capitalize(target.object)} properties of catalog '${target.catalog}': ${names.join(', ')}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
