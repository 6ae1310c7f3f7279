// EXPLAIN's tree of a physical plan: the logical nodes as Trino prints them, with what the physical
// planner made of them — an aggregation pair run as one SINGLE step, and a ParallelScan naming its
// threads and adaptive decisions (EXPLAIN ANALYZE adds what each chose), over the nodes its threads
// run, each marked with where it runs (and, when the main thread ran them instead, with their figures);
// a sort on the threads as the main thread's MergeSorted over the threads' ParallelSort; a window on
// the threads as the GATHER of their rows over the threads' ParallelWindow.

import { childIndent, describe, nodeLines, type NodeRuntimeStats } from '../plan-printer.js';
import type { PlanNode } from '../plan.js';
import { name } from '../plan-printer.js';
import type {
  LocalExchange,
  ParallelHashBuild,
  ParallelMarkJoin,
  ParallelScan,
  ParallelSort,
  ParallelWindow,
  PhysicalNode,
  Spool,
} from './physical-plan.js';
import { assertNever } from '../assert-never.js';

type Stats = ReadonlyMap<number, NodeRuntimeStats> | undefined;

/** The lines of the physical tree under a fragment's output. */
export function printPhysicalTree(root: PhysicalNode, stats?: Stats): string[] {
  const lines: string[] = [];
  visit(root, '', lines, stats);
  return lines;
}

function visit(physical: PhysicalNode, indent: string, lines: string[], stats: Stats): void {
  switch (physical.kind) {
    case 'Operator':
    case 'SingleStepAggregation':
      lines.push(...nodeLines(describe(physical.node), physical.node, indent, stats));
      for (const source of physical.kind === 'Operator' ? physical.sources : [physical.source])
        visit(source, childIndent(indent), lines, stats);
      return;
    case 'ParallelScan':
      parallelScan(physical, indent, lines, stats);
      return;
    case 'ParallelMarkJoin':
      parallelMarkJoin(physical, indent, lines, stats);
      return;
    case 'ParallelSort':
      parallelSort(physical, indent, lines, stats);
      return;
    case 'ParallelWindow':
      parallelWindow(physical, indent, lines, stats);
      return;
    case 'ParallelHashBuild':
      parallelHashBuild(physical, indent, lines, stats);
      return;
    case 'Spool':
      spool(physical, indent, lines, stats);
      return;
    default:
      assertNever(physical);
  }
}

/** The producers printed so far in each tree being printed (keyed by its lines). */
const printedProducers = new WeakMap<string[], Set<PhysicalNode>>();

/**
 * Spool (this copy's figures) over the common subplan it replays: printed under its first copy, named
 * at the others (and at a copy in another fragment than its producer, a single node's).
 */
function spool(p: Spool, indent: string, lines: string[], stats: Stats): void {
  const printed = printedProducers.get(lines) ?? new Set<PhysicalNode>();
  printedProducers.set(lines, printed);
  const first = p.source !== undefined && !printed.has(p.source);
  if (p.source !== undefined) printed.add(p.source);
  const across = p.acrossTasks === true ? ', acrossFragments' : '';
  lines.push(...nodeLines(`Spool[commonSubplan = ${p.commonSubplan}, consumers = ${p.consumers}${across}]`, p.node, indent, stats));
  const detail = `${childIndent(indent)}    `;
  if (p.source === undefined) {
    lines.push(`${detail}Runs: main thread, replaying the rows of common subplan ${p.commonSubplan}, computed once in another fragment`);
    return;
  }
  if (!first) {
    lines.push(`${detail}Runs: main thread, replaying the rows of common subplan ${p.commonSubplan} (printed above), computed once`);
    return;
  }
  lines.push(
    `${detail}Runs: main thread, buffering the rows of common subplan ${p.commonSubplan}, computed once for its ${p.consumers} consumers`,
  );
  visit(p.source, childIndent(indent), lines, stats);
}

/** ParallelHashBuild (no figures of its own: they are its source's) over the build side it hashes. */
function parallelHashBuild(p: ParallelHashBuild, indent: string, lines: string[], stats: Stats): void {
  const detail = `${childIndent(indent)}    `;
  lines.push(`${indent}└─ ParallelHashBuild[threads = ${p.threads}]`);
  lines.push(`${detail}Runs: rows gathered in the main thread; lookup table filled on the threads, each its regions of the key hashes`);
  decisionLines(p.decisions, stats?.get(p.join.id)?.decisions ?? {}, detail, lines);
  visit(p.source, childIndent(indent), lines, stats);
}

/**
 * The GATHER of the threads' rows (the window's own figures) over ParallelWindow over the pipeline
 * the threads run, whose rows reach the thread of their partition keys' hash.
 */
function parallelWindow(p: ParallelWindow, indent: string, lines: string[], stats: Stats): void {
  const { node, pipeline } = p;
  lines.push(...nodeLines('LocalExchange[GATHER] (the threads to the main thread)', node, indent, stats));
  const detail = `${childIndent(indent)}    `;
  decisionLines(p.decisions, stats?.get(node.id)?.decisions ?? {}, detail, lines);
  const below = childIndent(indent);
  const window = describe(node).slice(node.kind.length);
  lines.push(
    ...nodeLines(`ParallelWindow${window.replace(/^\[/, `[threads = ${pipeline.threads}, splits = ${pipeline.splits}, `)}`, node, below),
  );
  lines.push(`${childIndent(below)}    Runs: threads, each sorting and windowing the partitions of its key hash`);
  pipelineLines(pipeline, childIndent(below), lines, stats);
}

/**
 * MergeSorted (the sort's own figures) over ParallelSort (or ParallelTopN) over the pipeline the
 * threads run: the main thread merges the runs the threads sorted.
 */
function parallelSort(p: ParallelSort, indent: string, lines: string[], stats: Stats): void {
  const { node, pipeline } = p;
  const ordering = describe(node).slice(node.kind.length);
  lines.push(...nodeLines(`MergeSorted${ordering}`, node, indent, stats));
  const detail = `${childIndent(indent)}    `;
  lines.push(`${detail}Runs: main thread, a k-way merge of the threads' sorted runs`);
  decisionLines(p.decisions, stats?.get(node.id)?.decisions ?? {}, detail, lines);
  const below = childIndent(indent);
  const title =
    node.kind === 'TopN'
      ? `ParallelTopN[count = ${node.count}, threads = ${pipeline.threads}, splits = ${pipeline.splits}]`
      : `ParallelSort[threads = ${pipeline.threads}, splits = ${pipeline.splits}]`;
  lines.push(...nodeLines(title, node, below));
  const each = node.kind === 'TopN' ? `keeping the best ${node.count} of its rows` : 'sorting its rows into one run';
  lines.push(`${childIndent(below)}    Runs: threads, each ${each}`);
  pipelineLines(pipeline, childIndent(below), lines, stats);
}

function parallelMarkJoin(p: ParallelMarkJoin, indent: string, lines: string[], stats: Stats): void {
  const detail = `${childIndent(indent)}    `;
  lines.push(...nodeLines(describe(p.node), p.node, indent, stats));
  lines.push(`${detail}Runs: probe side hashed in the main thread; build side streamed past it on the threads, marking the probe rows`);
  decisionLines(p.decisions, stats?.get(p.node.id)?.decisions ?? {}, detail, lines);
  visit(p.probe, childIndent(indent), lines, stats);
  parallelScan(p.build, childIndent(indent), lines, stats);
}

function decisionLines(decisions: ParallelScan['decisions'], chosen: Record<string, string>, detail: string, lines: string[]): void {
  for (const d of decisions)
    lines.push(`${detail}Adaptive ${d.name}: ${d.rule}${chosen[d.name] === undefined ? '' : `; chosen: ${chosen[d.name]}`}`);
}

function parallelScan(p: ParallelScan, indent: string, lines: string[], stats: Stats): void {
  const detail = `${childIndent(indent)}    `;
  lines.push(...nodeLines(`ParallelScan[threads = ${p.threads}, splits = ${p.splits}]`, p.node, indent, stats));
  decisionLines(p.decisions, stats?.get(p.node.id)?.decisions ?? {}, detail, lines);
  pipelineLines(p, childIndent(indent), lines, stats);
}

/** The nodes a parallel scan's threads run, from its top at `indent` down to its scan, with their local exchanges. */
function pipelineLines(p: ParallelScan, indent: string, lines: string[], stats: Stats): void {
  const builds = new Map(p.stages.flatMap((s) => (s.kind === 'probe' ? [[s.join, s.build] as const] : [])));
  const inThreads = (node: PlanNode, above: string): void => {
    // A local exchange over the node's rows (then one of its splits) is a node of its own above it.
    const exchanges = p.exchanges
      .filter((e) => e.below === node)
      .sort((a, b) => Number(a.type === 'ROUND_ROBIN') - Number(b.type === 'ROUND_ROBIN'));
    let nodeIndent = above;
    for (const exchange of exchanges) {
      lines.push(`${nodeIndent}└─ ${localExchange(exchange)}`);
      nodeIndent = childIndent(nodeIndent);
    }
    const runs =
      node === p.aggregation?.final
        ? p.aggregation.finalStep === 'partitioned across threads'
          ? 'partitioned across the threads (by key hash)'
          : "main thread, merging the threads' partial states"
        : node === p.aggregation?.having
          ? 'threads, each on the groups it finished, before they are gathered'
          : node.kind === 'Join'
            ? builds.get(node)?.kind === 'ParallelHashBuild'
              ? 'probe in the threads; build rows gathered in the main thread, its table filled on the threads and shared with them'
              : 'probe in the threads; build in the main thread, shared with the threads'
            : 'threads';
    // The pipeline's figures are its own line's; a node below has figures of its own when the main thread ran it.
    const ranHere = node !== p.node && stats?.has(node.id) === true;
    const where = ranHere ? 'main thread, as the threads decision chose' : runs;
    lines.push(
      ...nodeLines(describe(node), node, nodeIndent, node === p.node ? undefined : stats),
      `${childIndent(nodeIndent)}    Runs: ${where}`,
    );
    const below = childIndent(nodeIndent);
    if (node.kind === 'Join') {
      inThreads(node.left, below);
      visit(builds.get(node)!, below, lines, stats);
    } else if (node.kind === 'Aggregate' || node.kind === 'Filter' || node.kind === 'Project') {
      inThreads(node.source, below);
    }
  };
  inThreads(p.node, indent);
}

function localExchange(e: LocalExchange): string {
  switch (e.type) {
    case 'ROUND_ROBIN':
      return 'LocalExchange[ROUND_ROBIN] (splits to the threads)';
    case 'HASH':
      return `LocalExchange[HASH, keys = [${e.keys.map(name).join(', ')}]] (between the threads)`;
    case 'GATHER':
      return 'LocalExchange[GATHER] (the threads to the main thread)';
  }
}
