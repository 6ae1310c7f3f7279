// Projection pruning: every node keeps only the symbols something above it uses, so scans read
// only the columns a query needs and joins and aggregations carry no dead columns.

import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import { sameSymbols, type PlanFactory } from '../plan-factory.js';
import { nodeReferences } from '../plan-symbols.js';
import type { Symbol } from '../row-expression.js';
import { assertNever } from '../assert-never.js';

/**
 * With the planner context, an exchange whose source carries columns nothing above it uses gets a
 * projection below it, so that they do not cross the network (a filter's column, say).
 */
export function pruneColumns(root: PlanNode, context?: PlannerContext): PlanNode {
  return pruneNode(root, new Set(root.outputs.map((s) => s.id)), context?.factory);
}

function pruneNode(node: PlanNode, required: Set<number>, factory?: PlanFactory): PlanNode {
  const prune = (child: PlanNode, childRequired: Set<number>) => pruneNode(child, childRequired, factory);
  const needs = (extra: Iterable<number>) => new Set([...required, ...extra]);
  const own = () => [...nodeReferences(node).keys()];
  switch (node.kind) {
    case 'TableScan': {
      const keep = node.outputs.map((s, i) => i).filter((i) => required.has(node.outputs[i].id));
      if (keep.length === node.outputs.length) return node;
      const indexes = keep.length > 0 ? keep : [0];
      return { ...node, outputs: indexes.map((i) => node.outputs[i]), columns: indexes.map((i) => node.columns[i]) };
    }
    case 'Values': {
      if (node.workTable !== undefined) return node;
      const keep = node.outputs.map((_, i) => i).filter((i) => required.has(node.outputs[i].id));
      if (keep.length === node.outputs.length) return node;
      return { ...node, outputs: keep.map((i) => node.outputs[i]), rows: node.rows.map((r) => keep.map((i) => r[i])) };
    }
    case 'Filter': {
      const source = prune(node.source, needs(own()));
      return { ...node, source, outputs: source.outputs };
    }
    case 'Project': {
      const assignments = node.assignments.filter((a) => required.has(a.symbol.id));
      const used = new Set<number>();
      const probe = { ...node, assignments };
      for (const id of nodeReferences(probe).keys()) used.add(id);
      const source = prune(node.source, used);
      const outputs = assignments.map((a) => a.symbol);
      const identity = assignments.every((a) => a.expression.kind === 'symbol' && a.expression.symbol.id === a.symbol.id);
      if (identity && sameSymbols(outputs, source.outputs)) return source;
      return { ...node, source, assignments, outputs };
    }
    case 'Aggregate': {
      const aggregations = node.step === 'single' ? node.aggregations.filter((a) => required.has(a.symbol.id)) : node.aggregations;
      const trimmed = { ...node, aggregations };
      const source = prune(node.source, new Set(nodeReferences(trimmed).keys()));
      // A partial step's outputs are its intermediate columns, several per call: they stay as they are.
      const outputs = node.step === 'partial' ? node.outputs : [...node.groupingKeys, ...aggregations.map((a) => a.symbol)];
      return { ...trimmed, source, outputs };
    }
    case 'Join': {
      // A side carrying columns nothing above uses (its filter's, say) gets a projection: the probe
      // pages and the build table hold only what the join and the nodes above read.
      const all = needs(own());
      const left = restrictTo(prune(node.left, all), all, factory);
      const right = restrictTo(prune(node.right, all), all, factory);
      const outputs = node.type === 'mark' ? [...left.outputs, node.mark!.symbol] : [...left.outputs, ...right.outputs];
      return { ...node, left, right, outputs };
    }
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'EnforceSingleRow': {
      const source = prune(node.source, needs(own()));
      return { ...node, source, outputs: source.outputs } as PlanNode;
    }
    case 'Window': {
      const functions = node.functions.filter((f) => required.has(f.symbol.id));
      const trimmed = { ...node, functions };
      const source = prune(node.source, needs(nodeReferences(trimmed).keys()));
      return { ...trimmed, source, outputs: [...source.outputs, ...functions.map((f) => f.symbol)] };
    }
    case 'SetOperation': {
      const sources = node.sources.map((s, i) => prune(s, new Set(node.sourceSymbols[i].map((x) => x.id))));
      return { ...node, sources };
    }
    case 'GroupId': {
      const source = prune(node.source, needs(own()));
      return { ...node, source, outputs: [...source.outputs, node.groupIdSymbol] };
    }
    case 'Unnest': {
      // Every array stays: each one's length decides how many rows a source row gives.
      const replicate = node.replicate.filter((s) => required.has(s.id));
      const source = prune(node.source, new Set([...replicate, ...node.mappings.map((m) => m.input)].map((s) => s.id)));
      const outputs = [...replicate, ...node.mappings.map((m) => m.output), ...(node.ordinality === undefined ? [] : [node.ordinality])];
      return { ...node, source, replicate, outputs };
    }
    case 'TableWriter':
    case 'TableFinish':
      // A write's nodes come last, over a plan already pruned: they keep what they write.
      return { ...node, source: prune(node.source, needs(own())) };
    case 'MarkDistinct': {
      if (!required.has(node.marker.id)) return prune(node.source, required);
      const source = prune(node.source, needs(node.distinctSymbols.map((s) => s.id)));
      return { ...node, source, outputs: [...source.outputs, node.marker] };
    }
    case 'AssignUniqueId': {
      const source = prune(node.source, required);
      return { ...node, source, outputs: [...source.outputs, node.idSymbol] };
    }
    case 'RecursiveUnion': {
      // Every level has all the columns: the step reads the previous level whole.
      const all = (n: PlanNode) => new Set(n.outputs.map((s) => s.id));
      return { ...node, anchor: prune(node.anchor, all(node.anchor)), step: prune(node.step, all(node.step)) };
    }
    case 'Apply': {
      const input = prune(node.input, needs(own()));
      const subquery = prune(node.subquery, new Set(node.subquery.outputs.map((s: Symbol) => s.id)));
      return {
        ...node,
        input,
        subquery,
        outputs: [...input.outputs, ...(node.applyType === 'lateral' ? subquery.outputs : [node.result])],
      };
    }
    case 'Exchange': {
      const keep = needs([...node.partitionKeys, ...(node.orderBy ?? []).map((o) => o.symbol)].map((k) => k.id));
      const source = restrictTo(prune(node.source, keep), keep, factory);
      return { ...node, source, outputs: source.outputs };
    }
    case 'RemoteSource':
      return node;
    default:
      return assertNever(node);
  }
}

/** `node` with only the symbols of `keep` when it carries others, through a projection (with a factory to make one). */
function restrictTo(node: PlanNode, keep: Set<number>, factory?: PlanFactory): PlanNode {
  const used = node.outputs.filter((s) => keep.has(s.id));
  return factory !== undefined && used.length > 0 && used.length < node.outputs.length ? factory.restrict(node, used) : node;
}
