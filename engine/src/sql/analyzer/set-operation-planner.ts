// UNION / INTERSECT / EXCEPT of any number of inputs (the parser makes one SetOperation of a chain
// of the same operator): every input planned in a loop, coerced column by column to the types
// Trino's left-deep evaluation gives, into one n-ary SetOperation plan node.

import { EngineError } from '../../errors/engine-error.js';
import { commonSuperType } from '../../types/coercion.js';
import { typeName, typesEqual, type SqlType } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { PlanNode, SetOperationNode } from '../planner/plan.js';
import { symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { correspondingFields } from './corresponding.js';
import { coerce } from './expression-translator.js';
import { visibleFields, type RelationPlan } from './relation-plan.js';
import type { QueryPlanner } from './query-planner.js';
import { Scope, type Field } from './scope.js';

export function planSetOperation(planner: QueryPlanner, op: ast.SetOperation, outer?: Scope): RelationPlan {
  const factory = planner.context.factory;
  const inputFields: Field[][] = [];
  const nodes: PlanNode[] = [];
  for (const input of op.inputs) {
    const plan = planner.planQueryBody(input, outer);
    inputFields.push(visibleFields(plan));
    nodes.push(plan.node);
  }
  const fieldLists = correspondingFields(op, inputFields);
  const levels = columnTypeLevels(op, fieldLists);
  const operation = op.operator.toLowerCase() as SetOperationNode['operation'];
  const merged = { sources: [] as PlanNode[], sourceSymbols: [] as Symbol[][], distinct: op.distinct };
  fieldLists.forEach((fields, input) => {
    const assignments = fields.map((f, column) => {
      const expression = coerceThroughLevels(symbolRef(f.symbol), levels[column], input);
      return expression.kind === 'symbol'
        ? { symbol: f.symbol, expression }
        : { symbol: factory.newSymbol(f.name ?? `_col${column}`, expression.type), expression };
    });
    const node = nodes[input];
    // An input that is itself a set operation passing its columns through unchanged may merge into this one.
    const passedThrough =
      node.kind === 'SetOperation' &&
      node.outputs.length === fields.length &&
      assignments.every((a, c) => a.expression.kind === 'symbol' && a.symbol === node.outputs[c]);
    if (passedThrough && node.kind === 'SetOperation' && absorb(merged, operation, input, node)) return;
    merged.sources.push(factory.project(node, assignments));
    merged.sourceSymbols.push(assignments.map((a) => a.symbol));
  });
  const types = levels.map((level) => level[level.length - 1].type);
  const outputs = types.map((t, i) => factory.newSymbol(fieldLists[0][i].name ?? `_col${i}`, t));
  const node: SetOperationNode = { kind: 'SetOperation', id: factory.nodeId(), outputs, operation, ...merged };
  // As in Trino, the output columns are the first input's: its names, origins and aliases.
  const fields = outputs.map((symbol, i) => {
    const { name, origin, aliased } = fieldLists[0][i];
    return { name, qualifier: undefined, symbol, ...(origin ? { origin } : {}), ...(aliased ? { aliased } : {}) };
  });
  return { node, scope: new Scope(fields) };
}

/** A column's type from input `from` on (it changes only at these inputs; the first entry is from input 0). */
interface TypeLevel {
  from: number;
  type: SqlType;
}

/**
 * Per column, the types the left-deep evaluation ((a op b) op c) op ... passes through: after each
 * input, the common super type of the result so far and that input, with Trino's errors when the
 * inputs differ in width or a column has no common type.
 */
function columnTypeLevels(op: ast.SetOperation, fieldLists: readonly Field[][]): TypeLevel[][] {
  const width = fieldLists[0].length;
  const levels: TypeLevel[][] = fieldLists[0].map((f) => [{ from: 0, type: f.symbol.type }]);
  for (let input = 1; input < fieldLists.length; input++) {
    const fields = fieldLists[input];
    if (fields.length !== width) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `${op.operator} query has different number of fields: ${width}, ${fields.length}`,
        op.location,
      );
    }
    fields.forEach((f, column) => {
      const level = levels[column];
      const sofar = level[level.length - 1].type;
      const type = commonSuperType(sofar, f.symbol.type);
      if (!type) {
        throw new EngineError(
          'TYPE_MISMATCH',
          `column ${column + 1} in ${op.operator} query has incompatible types: ${typeName(sofar)}, ${typeName(f.symbol.type)}`,
          op.location,
        );
      }
      if (!typesEqual(type, sofar)) level.push({ from: input, type });
    });
  }
  return levels;
}

/**
 * `value` of input `input` coerced as the left-deep evaluation does: to the type of the operation it
 * joins (input 0 joins the first one, with input 1), then to each wider type the later inputs bring.
 */
function coerceThroughLevels(value: RowExpression, level: readonly TypeLevel[], input: number): RowExpression {
  const joins = Math.max(input, 1);
  let result = value;
  for (let i = 0; i < level.length; i++) {
    const next = level[i + 1];
    if (next !== undefined && next.from <= joins) continue;
    result = coerce(result, level[i].type);
  }
  return result;
}

/**
 * Takes the sources of `child`, the plan of input `input`, into the operation being built when
 * Trino's SetOperationMerge rules allow it (UNION and INTERSECT: any input; EXCEPT: the first; and
 * never an ALL child into a DISTINCT EXCEPT), adjusting the quantifier as they say. Returns whether
 * it did.
 */
function absorb(
  merged: { sources: PlanNode[]; sourceSymbols: Symbol[][]; distinct: boolean },
  operation: SetOperationNode['operation'],
  input: number,
  child: SetOperationNode,
): boolean {
  if (child.operation !== operation) return false;
  let distinct = merged.distinct;
  if (operation === 'union') {
    // The union of the child's rows, then DISTINCT or not: an ALL parent keeps a DISTINCT child's duplicates removed, so no.
    if (!merged.distinct && child.distinct) return false;
  } else if (operation === 'intersect') {
    distinct = merged.distinct || child.distinct;
  } else {
    if (input !== 0 || (merged.distinct && !child.distinct)) return false;
    distinct = child.distinct;
  }
  merged.distinct = distinct;
  merged.sources.push(...child.sources);
  merged.sourceSymbols.push(...child.sourceSymbols);
  return true;
}
