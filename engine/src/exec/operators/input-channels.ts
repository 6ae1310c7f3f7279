// Rewrites expressions to read only the input channels they use, renumbered densely, so operators
// gather just those columns (a filter over a join pair, a projection after a selective filter).

import { mapChildren, type RowExpression } from '../../sql/planner/row-expression.js';

export interface CompactedExpressions {
  /** The expressions with channel k meaning original channel `channels[k]`. */
  expressions: RowExpression[];
  channels: number[];
}

export function compactInputs(expressions: readonly RowExpression[]): CompactedExpressions {
  const channels: number[] = [];
  const remap = (e: RowExpression): RowExpression => {
    if (e.kind === 'input') {
      let index = channels.indexOf(e.channel);
      if (index < 0) index = channels.push(e.channel) - 1;
      return { ...e, channel: index };
    }
    return mapChildren(e, remap);
  };
  return { expressions: expressions.map(remap), channels };
}
