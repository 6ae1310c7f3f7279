// A window's frame clause, checked and planned as Trino plans it: offsets become columns of the
// window's input (any expression, one value per row), and a RANGE offset bound becomes the column
// `sort key - offset` or `sort key + offset` (by bound and direction) computed with SQL arithmetic,
// plus the sort key in that column's type, which the operator compares rows' keys against.

import { EngineError } from '../../errors/engine-error.js';
import { canCoerce } from '../../types/coercion.js';
import { isIntegral, isInterval, isNumeric, typeName, typesEqual, type SqlType } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { OrderingItem } from '../planner/plan.js';
import type { RowExpression, Symbol } from '../planner/row-expression.js';
import type { FrameBoundSpec, FrameSpec } from '../planner/window-frame.js';
import { coerce, operatorCall } from './expression-translator.js';

export interface FrameInputs {
  /** Where the window function is called (errors about the whole window point there, as Trino's do). */
  readonly call: ast.FunctionCall;
  /** The resolved window's ORDER BY, as written and as planned. */
  readonly orderBy: readonly ast.SortItem[];
  readonly ordering: readonly OrderingItem[];
  readonly translate: (e: ast.Expression) => RowExpression;
  /** Projects an expression into the window's input, named after `name`. */
  readonly symbolFor: (e: RowExpression, name: string) => Symbol;
}

export function planFrame(frame: ast.WindowFrame, inputs: FrameInputs): FrameSpec {
  const endAst: ast.FrameBound = frame.end ?? { kind: 'FrameBound', type: 'CURRENT_ROW', location: frame.location };
  checkBoundTypes(frame.start.type, endAst.type, frame);
  return { unit: frame.unit, start: planBound(frame, frame.start, 'start', inputs), end: planBound(frame, endAst, 'end', inputs) };
}

function checkBoundTypes(start: ast.FrameBoundType, end: ast.FrameBoundType, frame: ast.WindowFrame): void {
  const fail = (message: string): never => {
    throw new EngineError('INVALID_WINDOW_FRAME', message, frame.location);
  };
  if (start === 'UNBOUNDED_FOLLOWING') fail('Window frame start cannot be UNBOUNDED FOLLOWING');
  if (end === 'UNBOUNDED_PRECEDING') fail('Window frame end cannot be UNBOUNDED PRECEDING');
  if (start === 'CURRENT_ROW' && end === 'PRECEDING') fail('Window frame starting from CURRENT ROW cannot end with PRECEDING');
  if (start === 'FOLLOWING' && end === 'PRECEDING') fail('Window frame starting from FOLLOWING cannot end with PRECEDING');
  if (start === 'FOLLOWING' && end === 'CURRENT_ROW') fail('Window frame starting from FOLLOWING cannot end with CURRENT ROW');
}

function planBound(frame: ast.WindowFrame, bound: ast.FrameBound, side: 'start' | 'end', inputs: FrameInputs): FrameBoundSpec {
  if (bound.value === undefined) return { type: bound.type };
  if (frame.unit !== 'ROWS' && inputs.orderBy.length === 0) {
    throw new EngineError(
      'MISSING_ORDER_BY',
      `Window frame of type ${frame.unit} PRECEDING or FOLLOWING requires ORDER BY`,
      inputs.call.location,
    );
  }
  const offset = inputs.translate(bound.value);
  if (frame.unit !== 'RANGE') {
    if (!isExactWithScaleZero(offset.type)) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `Window frame ${frame.unit} ${side} value type must be exact numeric type with scale 0 (actual ${typeName(offset.type)})`,
        bound.value.location,
      );
    }
    return { type: bound.type, offset: inputs.symbolFor(offset, 'frame_offset') };
  }
  return planRangeBound(bound, side, offset, inputs);
}

function isExactWithScaleZero(type: SqlType): boolean {
  return isIntegral(type) || (type.kind === 'decimal' && type.scale === 0) || type.kind === 'unknown';
}

function planRangeBound(bound: ast.FrameBound, side: 'start' | 'end', offset: RowExpression, inputs: FrameInputs): FrameBoundSpec {
  const value = bound.value as ast.Expression;
  if (inputs.orderBy.length !== 1) {
    throw new EngineError(
      'INVALID_ORDER_BY',
      `Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY (actual: ${inputs.orderBy.length})`,
      inputs.orderBy[0].location,
    );
  }
  const sortItem = inputs.orderBy[0];
  const sortKey = inputs.translate(sortItem.key);
  const keyType = sortKey.type;
  const dateTime = keyType.kind === 'date' || keyType.kind === 'time' || keyType.kind === 'timestamp' || isInterval(keyType);
  if (!isNumeric(keyType) && !dateTime) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Window frame of type RANGE PRECEDING or FOLLOWING requires that sort item type be numeric, datetime or interval (actual: ${typeName(keyType)})`,
      sortItem.key.location,
    );
  }
  const incompatible = (): EngineError =>
    new EngineError(
      'TYPE_MISMATCH',
      `Window frame RANGE value type (${typeName(offset.type)}) not compatible with sort item type (${typeName(keyType)})`,
      value.location,
    );
  const offsetFits = offset.type.kind === 'unknown' || (dateTime ? isInterval(offset.type) : isNumeric(offset.type));
  if (!offsetFits) throw incompatible();
  // The bound lies before the row in the window's order: below it when ascending, above when descending.
  const ascending = inputs.ordering[0].ascending;
  const subtract = (bound.type === 'PRECEDING') === ascending;
  let boundValue: RowExpression;
  try {
    boundValue = operatorCall(subtract ? 'subtract' : 'add', [sortKey, offset], value.location);
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'TYPE_MISMATCH') throw incompatible();
    throw e;
  }
  if (!typesEqual(boundValue.type, keyType) && !canCoerce(keyType, boundValue.type)) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Sort key must evaluate to a ${typeName(boundValue.type)} (actual: ${typeName(keyType)})`,
      sortItem.key.location,
    );
  }
  return {
    type: bound.type,
    offset: inputs.symbolFor(offset, 'frame_offset'),
    value: inputs.symbolFor(boundValue, `frame_${side}_value`),
    sortKey: inputs.symbolFor(coerce(sortKey, boundValue.type, sortItem.key.location), 'sortkey_coerced'),
  };
}
