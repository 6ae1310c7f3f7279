// UNION / INTERSECT / EXCEPT: both sides coerced column by column to common types.

import { EngineError } from '../../errors/engine-error.js';
import { commonSuperType } from '../../types/coercion.js';
import { typeName, typesEqual } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { PlanNode } from '../planner/plan.js';
import { symbolRef, type Symbol } from '../planner/row-expression.js';
import { coerce } from './expression-translator.js';
import { visibleFields, type RelationPlan } from './relation-plan.js';
import type { QueryPlanner } from './query-planner.js';
import { Scope } from './scope.js';

export function planSetOperation(planner: QueryPlanner, op: ast.SetOperation, outer?: Scope): RelationPlan {
  const factory = planner.context.factory;
  const sides = [planner.planQueryBody(op.left, outer), planner.planQueryBody(op.right, outer)];
  const fieldLists = sides.map(visibleFields);
  const width = fieldLists[0].length;
  if (fieldLists[1].length !== width) {
    throw new EngineError('TYPE_MISMATCH', `${op.operator} query has different number of fields: ${width}, ${fieldLists[1].length}`, op.location);
  }
  const types = fieldLists[0].map((f, i) => {
    const other = fieldLists[1][i].symbol.type;
    const t = commonSuperType(f.symbol.type, other);
    if (!t) {
      throw new EngineError('TYPE_MISMATCH', `column ${i + 1} in ${op.operator} query has incompatible types: ${typeName(f.symbol.type)}, ${typeName(other)}`, op.location);
    }
    return t;
  });
  const sources: PlanNode[] = [];
  const sourceSymbols: Symbol[][] = [];
  for (const fields of fieldLists) {
    const side = sides[fieldLists.indexOf(fields)];
    const assignments = fields.map((f, i) =>
      typesEqual(f.symbol.type, types[i])
        ? { symbol: f.symbol, expression: symbolRef(f.symbol) }
        : { symbol: factory.newSymbol(f.name ?? `_col${i}`, types[i]), expression: coerce(symbolRef(f.symbol), types[i]) },
    );
    sources.push(factory.project(side.node, assignments));
    sourceSymbols.push(assignments.map((a) => a.symbol));
  }
  const outputs = types.map((t, i) => factory.newSymbol(fieldLists[0][i].name ?? `_col${i}`, t));
  const node: PlanNode = {
    kind: 'SetOperation',
    id: factory.nodeId(),
    outputs,
    operation: op.operator.toLowerCase() as 'union' | 'intersect' | 'except',
    distinct: op.distinct,
    sources,
    sourceSymbols,
  };
  // As in Trino, the output columns are the left side's: its names, origins and aliases.
  const fields = outputs.map((symbol, i) => {
    const { name, origin, aliased } = fieldLists[0][i];
    return { name, qualifier: undefined, symbol, ...(origin ? { origin } : {}), ...(aliased ? { aliased } : {}) };
  });
  return { node, scope: new Scope(fields) };
}
