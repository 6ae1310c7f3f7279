// A table as its reader may see it: only the rows the row filter of the reader's table rule keeps,
// and each masked column's mask in place of its values (the filter sees the values unmasked), as
// Trino plans them. The expressions are analyzed over the table's columns; current_user is the user
// of the query.

import { EngineError } from '../../errors/engine-error.js';
import type { QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type * as ast from '../../sql/parser/ast.js';
import type { PlannerContext } from '../../sql/planner/planner-context.js';
import { symbolRef, type RowExpression } from '../../sql/planner/row-expression.js';
import { coerce, translateExpression } from '../../sql/analyzer/expression-translator.js';
import type { RelationPlan } from '../../sql/analyzer/relation-plan.js';
import { Scope, type Field } from '../../sql/analyzer/scope.js';
import { canCoerce } from '../../types/coercion.js';
import { BOOLEAN, typeName, typesEqual, type SqlType } from '../../types/types.js';
import { tableText } from './access-denied.js';

export function restrictedTable(context: PlannerContext, name: QualifiedObjectName, plan: RelationPlan): RelationPlan {
  const access = context.metadata.catalogs.accessControl;
  if (access === undefined) return plan;
  const reader = context.metadata.reads.readerOf(context.expandingViews, context.session.user);
  const { filter, masks } = access.restrictions(reader.user, name);
  if (filter === undefined && masks.size === 0) return plan;
  const table = tableText(name);
  const columns = new Scope(plan.scope.fields);
  const translate = (e: ast.Expression, invalid: string) => {
    try {
      return translateExpression(e, { scope: columns, session: context.session, parameters: [] });
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      throw new EngineError(error.errorName, `${invalid}: ${error.rawMessage}`);
    }
  };
  let node = plan.node;
  if (filter !== undefined) {
    const predicate = typed(
      translate(filter, `Invalid row filter for '${table}'`),
      BOOLEAN,
      `Expected row filter for '${table}' to be of type BOOLEAN`,
    );
    node = context.factory.filter(node, predicate);
  }
  if (masks.size === 0) return { node, scope: plan.scope };
  const fields: Field[] = [];
  const assignments = plan.scope.fields.map((field) => {
    const mask = field.name === undefined ? undefined : masks.get(field.name);
    if (mask === undefined) {
      fields.push(field);
      return { symbol: field.symbol, expression: symbolRef(field.symbol) };
    }
    const type = field.symbol.type;
    const what = `column mask for '${table}.${field.name}'`;
    const expression = typed(translate(mask, `Invalid ${what}`), type, `Expected ${what} to be of type ${typeName(type)}`);
    const symbol = context.factory.newSymbol(field.name!, type);
    // Masked values are no longer the column's own: no origin.
    fields.push({ name: field.name, qualifier: field.qualifier, symbol, ...(field.hidden ? { hidden: true } : {}) });
    return { symbol, expression };
  });
  return { node: context.factory.project(node, assignments), scope: new Scope(fields, plan.scope.outer) };
}

/** `e` as `type` where it can be coerced, as Trino accepts filters and masks; else TYPE_MISMATCH. */
function typed(e: RowExpression, type: SqlType, expected: string): RowExpression {
  if (typesEqual(e.type, type)) return e;
  if (e.type.kind !== 'unknown' && !canCoerce(e.type, type))
    throw new EngineError('TYPE_MISMATCH', `${expected}, but was ${typeName(e.type)}`);
  return coerce(e, type);
}
