// The expression compiler's public API.

export { compileExpression, compileFilter, compileProjection, evaluateConstant, type FilterResult } from './compiler.js';
export { TRYABLE_ERRORS } from './special-forms.js';

import type { ExpressionEvaluator } from '../../sql/planner/expression-evaluator.js';
import { compileExpression, evaluateConstant } from './compiler.js';

/** The compiler as the planner evaluates expressions with it. */
export const expressionEvaluator: ExpressionEvaluator = { evaluateConstant, compileExpression };
