// What a plan node may output: its sources' outputs it passes on and the symbols it makes.

import type { PlanNode } from '../plan.js';
import { assertNever } from '../assert-never.js';
import type { Symbol } from '../row-expression.js';

/** The ids of the symbols `node` may output; undefined where the node's outputs are its own to define. */
export function producedSymbols(node: PlanNode): ReadonlySet<number> | undefined {
  const ids = (...lists: readonly (readonly (Symbol | undefined)[])[]) =>
    new Set(lists.flat().flatMap((s) => (s === undefined ? [] : [s.id])));
  switch (node.kind) {
    case 'TableScan':
    case 'Values':
    case 'RemoteSource':
    case 'SetOperation':
    case 'RecursiveUnion':
    case 'TableWriter':
    case 'TableFinish':
      return undefined;
    case 'Filter':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'EnforceSingleRow':
    case 'Exchange':
      return ids(node.source.outputs);
    case 'Project':
      return ids(node.assignments.map((a) => a.symbol));
    // A partial step outputs intermediate states besides its calls' symbols (split-aggregation.ts).
    case 'Aggregate':
      return node.step === 'partial'
        ? undefined
        : ids(
            node.groupingKeys,
            node.aggregations.map((a) => a.symbol),
          );
    case 'Join':
      return ids(node.left.outputs, node.right.outputs, [node.mark?.symbol]);
    case 'Window':
      return ids(
        node.source.outputs,
        node.functions.map((f) => f.symbol),
      );
    case 'GroupId':
      return ids(node.source.outputs, [node.groupIdSymbol]);
    case 'AssignUniqueId':
      return ids(node.source.outputs, [node.idSymbol]);
    case 'MarkDistinct':
      return ids(node.source.outputs, [node.marker]);
    case 'Unnest':
      return ids(
        node.replicate,
        node.mappings.map((m) => m.output),
        [node.ordinality],
      );
    case 'Apply':
      return node.applyType === 'lateral' ? ids(node.input.outputs, node.subquery.outputs) : ids(node.input.outputs, [node.result]);
    default:
      return assertNever(node);
  }
}
