// Which symbols a plan tree produces and which it references: free symbols are correlation.

import type { PlanNode } from './plan.js';
import { sources } from './plan.js';
import { referencedSymbols, type RowExpression, type Symbol } from './row-expression.js';
import { frameReferences } from './window-frame.js';
import { assertNever } from './assert-never.js';

/** Symbols referenced by the node itself (its expressions and symbol lists), not by its sources. */
export function nodeReferences(node: PlanNode): Map<number, Symbol> {
  const refs = new Map<number, Symbol>();
  const add = (s: Symbol | undefined) => s && refs.set(s.id, s);
  const addExpr = (e: RowExpression | undefined) => e && referencedSymbols(e, refs);
  switch (node.kind) {
    case 'Filter':
      addExpr(node.predicate);
      break;
    case 'Project':
      node.assignments.forEach((a) => addExpr(a.expression));
      break;
    case 'Aggregate':
      node.groupingKeys.forEach(add);
      node.aggregations.forEach((a) => {
        a.arguments.forEach(add);
        add(a.mask);
      });
      break;
    case 'Join':
      node.criteria.forEach((c) => {
        add(c.left);
        add(c.right);
      });
      addExpr(node.filter);
      add(node.nearest?.key);
      add(node.nearest?.value);
      break;
    case 'Sort':
    case 'TopN':
      node.orderBy.forEach((o) => add(o.symbol));
      break;
    case 'Window':
      node.partitionBy.forEach(add);
      node.orderBy.forEach((o) => add(o.symbol));
      node.functions.forEach((f) => [...f.arguments, ...frameReferences(f.frame)].forEach(add));
      break;
    case 'SetOperation':
      node.sourceSymbols.forEach((list) => list.forEach(add));
      break;
    case 'GroupId':
      node.groupingSets.forEach((set) => set.forEach(add));
      break;
    case 'MarkDistinct':
      node.distinctSymbols.forEach(add);
      break;
    case 'Unnest':
      node.replicate.forEach(add);
      node.mappings.forEach((m) => add(m.input));
      break;
    case 'Apply':
      node.correlation.forEach(add);
      if (node.applyType !== 'lateral') add(node.value);
      break;
    case 'TableWriter':
      node.columns.forEach(add);
      break;
    case 'TableFinish':
      node.source.outputs.forEach(add);
      break;
    case 'Exchange':
      node.partitionKeys.forEach(add);
      node.orderBy?.forEach((o) => add(o.symbol));
      break;
    case 'TableScan':
    case 'Values':
    case 'RecursiveUnion':
    case 'Limit':
    case 'EnforceSingleRow':
    case 'AssignUniqueId':
    case 'RemoteSource':
      break;
    default:
      assertNever(node);
  }
  return refs;
}

/** Symbols the subtree references but does not produce: references to an enclosing query. */
export function freeSymbols(root: PlanNode): Map<number, Symbol> {
  const produced = new Set<number>();
  const referenced = new Map<number, Symbol>();
  const visit = (node: PlanNode) => {
    node.outputs.forEach((s) => produced.add(s.id));
    for (const [id, s] of nodeReferences(node)) referenced.set(id, s);
    sources(node).forEach(visit);
  };
  visit(root);
  for (const id of produced) referenced.delete(id);
  return referenced;
}
