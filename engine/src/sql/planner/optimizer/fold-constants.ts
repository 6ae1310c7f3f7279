// Constant folding: deterministic calls whose arguments are all constants become constants.
// An expression that would fail (1/0) is left alone so that it fails only if a row reaches it, and
// one whose result would be large (rpad('a', 100000000, 'a')) so that planning stays short (see
// fold-limits). A plan's folding compiles a bounded number of functions.

import { expressionKey } from '../expression-key.js';
import { constantColumn, getScalar, type Page } from '../../../columnar/page.js';
import type { Scalar } from '../../../types/scalar.js';
import { isDeterministicFunction } from '../../../functions/scalar/registry.js';
import type { ExpressionEvaluator } from '../expression-evaluator.js';
import type { PlanNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';
import { constant, mapChildren, type Constant, type RowExpression } from '../row-expression.js';
import { MAX_FOLDED_COMPILATIONS, resultTooLongToFold, smallEnoughToFold } from './fold-limits.js';
import { mapExpressions, rewriteBottomUp } from './rewrite-plan.js';

export function foldConstants(root: PlanNode, context: PlannerContext): PlanNode {
  const evaluator = context.evaluator;
  /** Shapes compiled so far; a new one costs a compilation, which MAX_FOLDED_COMPILATIONS bounds. */
  const shapes = new Set<string>();
  // The recursion goes through this small function only: the folding itself runs after it, off the path.
  const fold = (e: RowExpression): RowExpression => foldNode(mapChildren(e, fold));
  const foldNode = (folded: RowExpression): RowExpression => {
    if (
      folded.kind === 'constant' ||
      folded.kind === 'symbol' ||
      folded.kind === 'input' ||
      folded.kind === 'lambda' ||
      folded.kind === 'variable'
    )
      return folded;
    if (folded.kind === 'call' && !isDeterministicFunction(folded.name)) return folded;
    // A routine may loop for as long as its time limit: it runs where the rows are, never while planning.
    if (folded.kind === 'routine') return folded;
    const args = folded.kind === 'cast' ? [folded.arg] : folded.args;
    if (!args.every((a): a is Constant => a.kind === 'constant')) return folded;
    if (
      folded.kind === 'call' &&
      resultTooLongToFold(
        folded,
        args.map((a) => a.value),
      )
    )
      return folded;
    const shape = shapeOf(folded);
    const key = expressionKey(shape);
    if (!shapes.has(key)) {
      if (shapes.size >= MAX_FOLDED_COMPILATIONS) return folded;
      shapes.add(key);
    }
    let value: Scalar;
    try {
      value = evaluateShape(evaluator, shape, args);
    } catch {
      // The shape may not compile where the constant does (an argument that must be a literal).
      if (shapes.size >= MAX_FOLDED_COMPILATIONS) return folded;
      shapes.add(expressionKey(folded));
      try {
        value = evaluator.evaluateConstant(folded);
      } catch {
        return folded;
      }
    }
    return smallEnoughToFold(value) ? constant(value, folded.type) : folded;
  };
  return rewriteBottomUp(root, (node) => mapExpressions(node, fold));
}

/** `e` with its (constant) arguments replaced by input channels 0, 1, ...: one shape for all constants of the same types. */
function shapeOf(e: RowExpression): RowExpression {
  let channel = 0;
  return mapChildren(e, (a) => ({ kind: 'input', channel: channel++, type: a.type }));
}

/**
 * The value of a shape over constant arguments, fed in as a one-row page: the compiled function is
 * the same for every call of one shape (CAST(1 AS bigint), CAST(2 AS bigint), ... of a long IN list
 * compile once).
 */
function evaluateShape(evaluator: ExpressionEvaluator, shape: RowExpression, args: readonly Constant[]): Scalar {
  const page: Page = { rowCount: 1, columns: args.map((a) => constantColumn(a.type, a.value, 1)) };
  return getScalar(
    evaluator.compileExpression(
      shape,
      args.map((a) => a.type),
    )(page),
    0,
  );
}
