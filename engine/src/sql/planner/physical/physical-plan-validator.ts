// Checks a physical plan against what its nodes declare (physical-properties.ts), after the physical
// planner when plan validation is on (ENGINE_VALIDATE_PLANS=1, as in the tests), so that a planning
// rule that breaks a requirement fails where it is made rather than as a wrong answer:
// - every node of the main thread gets one stream from each source: a parallel scan gathers its
//   threads' rows (a GATHER exchange at its top);
// - a parallel scan's threads read its table's splits round-robin, and its final aggregation step
//   sees all rows of a group on one thread: gathered first, or exchanged by the hash of its keys;
// - a node's rows come in the order its logical plan promises (a sort's order is not lost under a
//   node that runs on threads, which interleave their rows);
// - a parallel sort's threads sort the rows of its source as they read them, not rows gathered first;
// - a parallel window's threads window whole partitions: rows exchanged by the hash of its partition keys;
// - a table the threads fill (ParallelHashBuild) is a join's build side over keys they can share;
// - a copy of a common subplan (Spool) replays rows of its own column types.

import { EngineError } from '../../../errors/engine-error.js';
import {
  type ParallelHashBuild,
  type ParallelScan,
  type ParallelSort,
  type ParallelWindow,
  type PhysicalNode,
  physicalSources,
} from './physical-plan.js';
import { shareableKeyType } from './parallel-hash-build.js';
import type { PlanNode } from '../plan.js';
import { typesEqual } from '../../../types/types.js';
import {
  type Distribution,
  logicalOrdering,
  ordered,
  outputDistribution,
  outputOrdering,
  SINGLE,
  satisfies,
  threadDistribution,
} from './physical-properties.js';

/** Throws GENERIC_INTERNAL_ERROR naming `what` (the fragment) and the node when the plan breaks a requirement. */
export function validatePhysicalPlan(root: PhysicalNode, what: string): void {
  const problem = firstProblem(root);
  if (problem !== undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Invalid physical plan of ${what}: ${problem}`);
}

/** `checked`: nodes already checked, each once (a parallel node's alternatives may share nodes with its pipeline). */
function firstProblem(physical: PhysicalNode, checked = new Set<PhysicalNode>()): string | undefined {
  if (checked.has(physical)) return undefined;
  checked.add(physical);
  for (const source of [...physicalSources(physical), ...alternatives(physical)]) {
    const problem = firstProblem(source, checked);
    if (problem !== undefined) return problem;
  }
  const at = `${physical.kind} of ${physical.node.kind} node ${physical.node.id}`;
  for (const source of physicalSources(physical)) {
    if (!satisfies(outputDistribution(source), SINGLE))
      return `${at} needs one stream from ${source.node.kind} node ${source.node.id}, which outputs ${describe(outputDistribution(source))}`;
  }
  if (physical.kind === 'ParallelScan' || physical.kind === 'ParallelMarkJoin') {
    const problem = parallelScanProblem(physical.kind === 'ParallelScan' ? physical : physical.build, at);
    if (problem !== undefined) return problem;
  }
  if (physical.kind === 'ParallelSort') {
    const problem = parallelSortProblem(physical, at);
    if (problem !== undefined) return problem;
  }
  if (physical.kind === 'ParallelWindow') {
    const problem = parallelWindowProblem(physical, at);
    if (problem !== undefined) return problem;
  }
  if (physical.kind === 'ParallelHashBuild') {
    const problem = parallelHashBuildProblem(physical, at);
    if (problem !== undefined) return problem;
  }
  if (physical.kind === 'Spool' && physical.source !== undefined && !sameColumnTypes(physical.node, physical.source.node))
    return `${at} replays the rows of ${physical.source.node.kind} node ${physical.source.node.id}, whose columns differ`;
  if (!ordered(outputOrdering(physical), logicalOrdering(physical.node)))
    return `${at} does not keep the order its logical plan promises (${logicalOrdering(physical.node)
      .map((k) => k.symbol.name)
      .join(', ')})`;
  return undefined;
}

/** What a node runs besides its sources: the same subtree in the main thread, a parallel mark join's build pipeline. */
function alternatives(physical: PhysicalNode): PhysicalNode[] {
  if (physical.kind === 'ParallelScan') return [physical.inMainThread];
  if (physical.kind === 'ParallelMarkJoin') return [physical.build, physical.inMainThread];
  if (physical.kind === 'ParallelSort' || physical.kind === 'ParallelWindow')
    return [physical.pipeline.inMainThread, physical.inMainThread];
  return [];
}

function parallelScanProblem(p: ParallelScan, at: string): string | undefined {
  const roundRobin = p.exchanges.find((e) => e.type === 'ROUND_ROBIN');
  if (roundRobin?.below !== p.scan) return `${at}: its threads do not read the splits of TableScan node ${p.scan.id} round-robin`;
  if (!satisfies(threadDistribution(p, p.node), SINGLE))
    return `${at}: its top outputs ${describe(threadDistribution(p, p.node))}, not one stream gathered in the main thread`;
  const final = p.aggregation?.final;
  if (final !== undefined) {
    const input = threadDistribution(p, final.source);
    const required: Distribution = { kind: 'HASH', keys: final.groupingKeys };
    if (!satisfies(input, required))
      return `${at}: its final aggregation ${final.id} gets its input ${describe(input)}, not all rows of a group on one thread`;
  }
  return undefined;
}

/**
 * A parallel sort's threads read its table's splits round-robin and sort the rows they made: rows
 * gathered before (a GATHER in the pipeline) or partial aggregation states are not the sort's rows.
 */
function parallelSortProblem(p: ParallelSort, at: string): string | undefined {
  const { pipeline } = p;
  if (pipeline.node !== p.node.source) return `${at}: its threads do not sort the rows of its source ${p.node.source.id}`;
  if (pipeline.exchanges.find((e) => e.type === 'ROUND_ROBIN')?.below !== pipeline.scan)
    return `${at}: its threads do not read the splits of TableScan node ${pipeline.scan.id} round-robin`;
  if (pipeline.aggregation !== undefined) return `${at}: its threads would sort partial aggregation states`;
  const input = threadDistribution(pipeline, pipeline.node);
  if (input.kind === 'SINGLE') return `${at}: its rows are gathered in the main thread before the threads sort them`;
  return undefined;
}

/**
 * A parallel window's threads read its table's splits round-robin and window rows of its source
 * that reached them by the hash of its partition keys (all rows of a partition on one thread).
 */
function parallelWindowProblem(p: ParallelWindow, at: string): string | undefined {
  const { pipeline, node } = p;
  if (pipeline.node !== node.source) return `${at}: its threads do not window the rows of its source ${node.source.id}`;
  if (pipeline.exchanges.find((e) => e.type === 'ROUND_ROBIN')?.below !== pipeline.scan)
    return `${at}: its threads do not read the splits of TableScan node ${pipeline.scan.id} round-robin`;
  if (pipeline.aggregation !== undefined) return `${at}: its threads would window partial aggregation states`;
  const input = threadDistribution(pipeline, pipeline.node);
  if (input.kind === 'SINGLE') return `${at}: its rows are gathered in the main thread before the threads window them`;
  if (!satisfies(input, { kind: 'HASH', keys: node.partitionBy }))
    return `${at}: its input is ${describe(input)}, not all rows of a partition on one thread`;
  return undefined;
}

/** A table the threads fill is a join's build side, over keys they can share. */
function parallelHashBuildProblem(p: ParallelHashBuild, at: string): string | undefined {
  if (p.join.right !== p.node) return `${at}: it is not the build side of join ${p.join.id}`;
  if (p.join.nearest !== undefined) return `${at}: join ${p.join.id} is a NEAREST join, which builds no hash table`;
  const unshared = p.join.criteria.find((c) => !shareableKeyType(c.right.type));
  if (p.join.criteria.length === 0 || unshared !== undefined)
    return `${at}: join ${p.join.id} has ${unshared === undefined ? 'no key' : `key ${unshared.right.name} of type ${unshared.right.type.kind}`}, which the threads cannot share`;
  return undefined;
}

function describe(d: Distribution): string {
  switch (d.kind) {
    case 'SINGLE':
      return 'as one stream';
    case 'SPLITS':
      return 'spread over the threads by split';
    case 'HASH':
      return `hashed over the threads on [${d.keys.map((k) => k.name).join(', ')}]`;
  }
}

function sameColumnTypes(a: PlanNode, b: PlanNode): boolean {
  return a.outputs.length === b.outputs.length && a.outputs.every((s, i) => typesEqual(s.type, b.outputs[i].type));
}
