// Evaluating expressions while planning (VALUES rows, LIMIT counts, constant folding) needs the
// expression compiler, which belongs to the executor: the caller of the planner hands it in, so the
// planner never imports the executor.

import type { Column, Page } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import type { SqlType } from '../../types/types.js';
import type { RowExpression } from './row-expression.js';

export interface ExpressionEvaluator {
  /** The value of an expression without column references. */
  evaluateConstant(expression: RowExpression): Scalar;
  /** A compiled expression over pages of `inputTypes`. */
  compileExpression(expression: RowExpression, inputTypes: readonly SqlType[]): (page: Page) => Column;
}
