// Constant folding: deterministic calls whose arguments are all constants become constants.
// An expression that would fail (1/0) is left alone so that it fails only if a row reaches it, and
// one whose result would be large (rpad('a', 100000000, 'a')) so that planning stays short (see
// fold-limits).

import { evaluateConstant } from '../../../exec/expression/index.js';
import type { Scalar } from '../../../exec/page.js';
import { isDeterministicFunction } from '../../../functions/scalar/registry.js';
import type { PlanNode } from '../plan.js';
import { constant, mapChildren, type RowExpression } from '../row-expression.js';
import { resultTooLongToFold, smallEnoughToFold } from './fold-limits.js';
import { mapExpressions, rewriteBottomUp } from './rewrite-plan.js';

export function foldConstants(root: PlanNode): PlanNode {
  return rewriteBottomUp(root, (node) => mapExpressions(node, fold));
}

export function fold(e: RowExpression): RowExpression {
  const folded = mapChildren(e, fold);
  if (folded.kind === 'constant' || folded.kind === 'symbol' || folded.kind === 'input') return folded;
  if (folded.kind === 'call' && !isDeterministicFunction(folded.name)) return folded;
  const args = folded.kind === 'cast' ? [folded.arg] : folded.args;
  if (!args.every((a) => a.kind === 'constant')) return folded;
  if (folded.kind === 'call' && resultTooLongToFold(folded, args.map((a) => (a.kind === 'constant' ? a.value : null)))) return folded;
  let value: Scalar;
  try {
    value = evaluateConstant(folded);
  } catch {
    return folded;
  }
  return smallEnoughToFold(value) ? constant(value, folded.type) : folded;
}
