// Generic bottom-up rewriting of plan trees and of the expressions inside nodes.

import type { PlanNode } from '../plan.js';
import type { RowExpression } from '../row-expression.js';
import { assertNever } from '../assert-never.js';

/** Rebuilds `node` with its sources replaced by `f(source)`; unchanged sources keep identity. */
export function mapSources(node: PlanNode, f: (source: PlanNode) => PlanNode): PlanNode {
  switch (node.kind) {
    case 'TableScan':
    case 'Values':
    case 'RemoteSource':
      return node;
    case 'Join': {
      const left = f(node.left);
      const right = f(node.right);
      return left === node.left && right === node.right ? node : { ...node, left, right };
    }
    case 'SetOperation': {
      const sources = node.sources.map(f);
      return sources.every((s, i) => s === node.sources[i]) ? node : { ...node, sources };
    }
    case 'RecursiveUnion': {
      const anchor = f(node.anchor);
      const step = f(node.step);
      return anchor === node.anchor && step === node.step ? node : { ...node, anchor, step };
    }
    case 'Apply': {
      const input = f(node.input);
      const subquery = f(node.subquery);
      return input === node.input && subquery === node.subquery ? node : { ...node, input, subquery };
    }
    case 'Filter':
    case 'Project':
    case 'Aggregate':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Exchange':
    case 'TableWriter':
    case 'TableFinish': {
      const source = f(node.source);
      return source === node.source ? node : ({ ...node, source } as PlanNode);
    }
    default:
      return assertNever(node);
  }
}

/** Applies `rewrite` to every node, children first. */
export function rewriteBottomUp(node: PlanNode, rewrite: (node: PlanNode) => PlanNode): PlanNode {
  return rewrite(mapSources(node, (s) => rewriteBottomUp(s, rewrite)));
}

/** Rewrites the expressions a node holds (filters, projections, join filters). */
export function mapExpressions(node: PlanNode, f: (e: RowExpression) => RowExpression): PlanNode {
  switch (node.kind) {
    case 'Filter':
      return { ...node, predicate: f(node.predicate) };
    case 'Project':
      return { ...node, assignments: node.assignments.map((a) => ({ symbol: a.symbol, expression: f(a.expression) })) };
    case 'Join':
      return node.filter ? { ...node, filter: f(node.filter) } : node;
    case 'TableScan':
    case 'Values':
    case 'RecursiveUnion':
    case 'Aggregate':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'SetOperation':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Apply':
    case 'Exchange':
    case 'RemoteSource':
    case 'TableWriter':
    case 'TableFinish':
      return node;
    default:
      return assertNever(node);
  }
}
