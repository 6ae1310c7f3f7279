// The physical plan as a task request carries it (internode/task-update-request.ts): the same tree
// with each logical node named by its id in the fragment the request also carries, so the plan is
// sent once and a worker maps it to operators as the coordinator made it, without planning again.
// Reading it back resolves every id against the fragment and checks the node is of the kind its
// place requires; a SINGLE step aggregation is the pair it stands for (mergePartialFinal), derived
// from the pair's ids as the planner derived it.
//
// The plan is a DAG (a parallel node and its fallback in the main thread share nodes: builds, a mark
// join's probe side), so each node is written once: a node met again is a Ref to the `shared` id the
// first writing of it then carries, and reading back makes one object per id. Written as a tree, a
// chain of nested parallel joins doubled the request with each join. Only a reader of the same build
// reads it (an older one refuses the Ref kind).

import { mergePartialFinal } from '../aggregation-steps.js';
import type { AggregateNode, FilterNode, JoinNode, PlanNode, ProjectNode, SortNode, TableScanNode, TopNNode, WindowNode } from '../plan.js';
import { sources } from '../plan.js';
import { assertNever } from '../assert-never.js';
import type { Symbol } from '../row-expression.js';
import type { AdaptiveDecision, FinalStepPlacement, LocalExchange, ParallelScan, PhysicalNode, ThreadStage } from './physical-plan.js';

export type PhysicalNodeJson = WrittenNodeJson | PhysicalNodeRefJson;

/** A node written before (the one whose `shared` id this is). */
export interface PhysicalNodeRefJson {
  kind: 'Ref';
  shared: number;
}

/** A node written in full; `shared` when the plan refers to it again. */
interface SharedJson {
  shared?: number;
}

export interface OperatorJson extends SharedJson {
  kind: 'Operator';
  node: number;
  sources: PhysicalNodeJson[];
}

export interface SingleStepAggregationJson extends SharedJson {
  kind: 'SingleStepAggregation';
  final: number;
  partial: number;
  source: PhysicalNodeJson;
}

export type WrittenNodeJson =
  | OperatorJson
  | SingleStepAggregationJson
  | ParallelScanJson
  | ParallelMarkJoinJson
  | ParallelSortJson
  | ParallelWindowJson
  | ParallelHashBuildJson
  | SpoolJson;

export interface SpoolJson extends SharedJson {
  kind: 'Spool';
  node: number;
  commonSubplan: number;
  source?: PhysicalNodeJson;
  consumers: number;
  acrossTasks?: boolean;
}

export interface ParallelHashBuildJson extends SharedJson {
  kind: 'ParallelHashBuild';
  node: number;
  join: number;
  source: PhysicalNodeJson;
  threads: number;
  minRows: number;
  decisions: AdaptiveDecision[];
}

/** A parallel sort's or window's: the node over its pipeline on the threads. */
export interface ParallelSortJson extends SharedJson {
  kind: 'ParallelSort';
  node: number;
  /** A ParallelScan (or a Ref to one). */
  pipeline: PhysicalNodeJson;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export interface ParallelWindowJson extends Omit<ParallelSortJson, 'kind'> {
  kind: 'ParallelWindow';
}

export interface ParallelMarkJoinJson extends SharedJson {
  kind: 'ParallelMarkJoin';
  node: number;
  probe: PhysicalNodeJson;
  /** A ParallelScan (or a Ref to one). */
  build: PhysicalNodeJson;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export interface ParallelScanJson extends SharedJson {
  kind: 'ParallelScan';
  node: number;
  scan: number;
  threadTop: number;
  threads: number;
  minSplits: number;
  splits: ParallelScan['splits'];
  stages: ThreadStageJson[];
  aggregation?: { partial: number; final?: number; finalStep?: FinalStepPlacement; having?: number };
  exchanges: { type: LocalExchange['type']; keys: Symbol[]; below: number }[];
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export type ThreadStageJson = { kind: 'filterProject'; node: number } | { kind: 'probe'; join: number; build: PhysicalNodeJson };

/** A physical plan that does not fit the fragment it came with. */
export class PhysicalPlanMismatch extends Error {}

export function physicalToJson(root: PhysicalNode): PhysicalNodeJson {
  const written = new Map<PhysicalNode, WrittenNodeJson>();
  let nextShared = 0;
  const write = (physical: PhysicalNode): PhysicalNodeJson => {
    const first = written.get(physical);
    if (first !== undefined) {
      first.shared ??= nextShared++;
      return { kind: 'Ref', shared: first.shared };
    }
    const json = writeNode(physical, write);
    written.set(physical, json);
    return json;
  };
  return write(root);
}

/** `physical` itself, its children written by `write`. */
function writeNode(physical: PhysicalNode, write: (child: PhysicalNode) => PhysicalNodeJson): WrittenNodeJson {
  switch (physical.kind) {
    case 'Operator':
      return { kind: 'Operator', node: physical.node.id, sources: physical.sources.map((s) => write(s)) };
    case 'SingleStepAggregation':
      return {
        kind: 'SingleStepAggregation',
        final: physical.final.id,
        partial: physical.partial.id,
        source: write(physical.source),
      };
    case 'ParallelMarkJoin':
      return {
        kind: 'ParallelMarkJoin',
        node: physical.node.id,
        probe: write(physical.probe),
        build: write(physical.build),
        decisions: physical.decisions,
        inMainThread: write(physical.inMainThread),
      };
    case 'ParallelSort':
    case 'ParallelWindow':
      return {
        kind: physical.kind,
        node: physical.node.id,
        pipeline: write(physical.pipeline),
        decisions: physical.decisions,
        inMainThread: write(physical.inMainThread),
      };
    case 'Spool':
      return {
        kind: 'Spool',
        node: physical.node.id,
        commonSubplan: physical.commonSubplan,
        ...(physical.source === undefined ? {} : { source: write(physical.source) }),
        consumers: physical.consumers,
        ...(physical.acrossTasks === true ? { acrossTasks: true } : {}),
      };
    case 'ParallelHashBuild':
      return {
        kind: 'ParallelHashBuild',
        node: physical.node.id,
        join: physical.join.id,
        source: write(physical.source),
        threads: physical.threads,
        minRows: physical.minRows,
        decisions: physical.decisions,
      };
    case 'ParallelScan': {
      const { aggregation } = physical;
      return {
        kind: 'ParallelScan',
        node: physical.node.id,
        scan: physical.scan.id,
        threadTop: physical.threadTop.id,
        threads: physical.threads,
        minSplits: physical.minSplits,
        splits: physical.splits,
        stages: physical.stages.map((s) =>
          s.kind === 'probe' ? { kind: 'probe', join: s.join.id, build: write(s.build) } : { kind: 'filterProject', node: s.node.id },
        ),
        ...(aggregation && {
          aggregation: {
            partial: aggregation.partial.id,
            ...(aggregation.final && { final: aggregation.final.id, finalStep: aggregation.finalStep }),
            ...(aggregation.having && { having: aggregation.having.id }),
          },
        }),
        exchanges: physical.exchanges.map((e) => ({ type: e.type, keys: e.keys, below: e.below.id })),
        decisions: physical.decisions,
        inMainThread: write(physical.inMainThread),
      };
    }
    default:
      return assertNever(physical, 'physical node');
  }
}

/** The physical plan `json` over the nodes of `fragment`; throws PhysicalPlanMismatch naming what does not fit. */
export function physicalFromJson(json: PhysicalNodeJson, fragment: PlanNode): PhysicalNode {
  const byId = new Map<number, PlanNode>();
  const index = (node: PlanNode): void => {
    byId.set(node.id, node);
    sources(node).forEach(index);
  };
  index(fragment);
  const node = (id: number): PlanNode => {
    const found = byId.get(id);
    if (found === undefined) throw new PhysicalPlanMismatch(`plan node ${id} is not in the fragment`);
    return found;
  };
  const ofKind = <K extends PlanNode['kind']>(id: number, ...kinds: K[]): Extract<PlanNode, { kind: K }> => {
    const found = node(id);
    if (!(kinds as string[]).includes(found.kind))
      throw new PhysicalPlanMismatch(`plan node ${id} is a ${found.kind}, where a ${kinds.join(' or ')} belongs`);
    return found as Extract<PlanNode, { kind: K }>;
  };
  const aggregate = (id: number): AggregateNode => ofKind(id, 'Aggregate');
  const definitions = sharedDefinitions(json);
  const made = new Map<number, PhysicalNode>();
  const reading = new Set<number>();
  /** One object per shared id, however many times the plan refers to it. */
  const read = (j: PhysicalNodeJson): PhysicalNode => {
    const written = j.kind === 'Ref' ? definitions.get(j.shared) : j;
    if (written === undefined) throw new PhysicalPlanMismatch(`shared physical node ${j.shared} is not written in the plan`);
    const { shared } = written;
    if (shared === undefined) return readNode(written);
    const done = made.get(shared);
    if (done !== undefined) return done;
    if (reading.has(shared)) throw new PhysicalPlanMismatch(`shared physical node ${shared} is under itself`);
    reading.add(shared);
    const physical = readNode(written);
    made.set(shared, physical);
    return physical;
  };
  const readNode = (j: WrittenNodeJson): PhysicalNode => {
    switch (j.kind) {
      case 'Operator':
        return { kind: 'Operator', node: node(j.node), sources: j.sources.map(read) };
      case 'SingleStepAggregation': {
        const final = aggregate(j.final);
        const partial = aggregate(j.partial);
        if (final.source !== partial)
          throw new PhysicalPlanMismatch(`aggregation ${j.partial} is not the source of aggregation ${j.final}`);
        return { kind: 'SingleStepAggregation', node: mergePartialFinal(final, partial), final, partial, source: read(j.source) };
      }
      case 'ParallelScan': {
        const stages = j.stages.map(
          (s): ThreadStage =>
            s.kind === 'probe'
              ? { kind: 'probe', join: ofKind(s.join, 'Join') as JoinNode, build: read(s.build) }
              : { kind: 'filterProject', node: ofKind(s.node, 'Filter', 'Project') as FilterNode | ProjectNode },
        );
        const a = j.aggregation;
        return {
          kind: 'ParallelScan',
          node: node(j.node),
          scan: ofKind(j.scan, 'TableScan') as TableScanNode,
          threadTop: node(j.threadTop),
          threads: j.threads,
          minSplits: j.minSplits,
          splits: j.splits,
          stages,
          aggregation: a && {
            partial: aggregate(a.partial),
            final: a.final === undefined ? undefined : aggregate(a.final),
            finalStep: a.finalStep,
            ...(a.having !== undefined && { having: ofKind(a.having, 'Filter') as FilterNode }),
          },
          exchanges: j.exchanges.map((e) => ({ kind: 'LocalExchange', type: e.type, keys: e.keys, below: node(e.below) })),
          decisions: j.decisions,
          inMainThread: read(j.inMainThread),
        };
      }
      case 'ParallelMarkJoin': {
        const build = read(j.build);
        if (build.kind !== 'ParallelScan') throw new PhysicalPlanMismatch(`the build side of join ${j.node} is not a parallel scan`);
        return {
          kind: 'ParallelMarkJoin',
          node: ofKind(j.node, 'Join') as JoinNode,
          probe: read(j.probe),
          build,
          decisions: j.decisions,
          inMainThread: read(j.inMainThread),
        };
      }
      case 'Spool':
        return {
          kind: 'Spool',
          node: node(j.node),
          commonSubplan: j.commonSubplan,
          ...(j.source === undefined ? {} : { source: read(j.source) }),
          consumers: j.consumers,
          ...(j.acrossTasks === true ? { acrossTasks: true } : {}),
        };
      case 'ParallelHashBuild': {
        const join = ofKind(j.join, 'Join') as JoinNode;
        if (join.right.id !== j.node) throw new PhysicalPlanMismatch(`plan node ${j.node} is not the build side of join ${j.join}`);
        return {
          kind: 'ParallelHashBuild',
          node: join.right,
          join,
          source: read(j.source),
          threads: j.threads,
          minRows: j.minRows,
          decisions: j.decisions,
        };
      }
      case 'ParallelSort': {
        const pipeline = read(j.pipeline);
        if (pipeline.kind !== 'ParallelScan') throw new PhysicalPlanMismatch(`the source of sort ${j.node} is not a parallel scan`);
        return {
          kind: 'ParallelSort',
          node: ofKind(j.node, 'Sort', 'TopN') as SortNode | TopNNode,
          pipeline,
          decisions: j.decisions,
          inMainThread: read(j.inMainThread),
        };
      }
      case 'ParallelWindow': {
        const pipeline = read(j.pipeline);
        if (pipeline.kind !== 'ParallelScan') throw new PhysicalPlanMismatch(`the source of window ${j.node} is not a parallel scan`);
        return {
          kind: 'ParallelWindow',
          node: ofKind(j.node, 'Window') as WindowNode,
          pipeline,
          decisions: j.decisions,
          inMainThread: read(j.inMainThread),
        };
      }
      default:
        return assertNever(j, 'physical node');
    }
  };
  return read(json);
}

/** The nodes written with a `shared` id, by id (a plan writes each once). */
function sharedDefinitions(root: PhysicalNodeJson): Map<number, WrittenNodeJson> {
  const definitions = new Map<number, WrittenNodeJson>();
  const visit = (j: PhysicalNodeJson): void => {
    if (j.kind === 'Ref') return;
    if (j.shared !== undefined) {
      if (definitions.has(j.shared)) throw new PhysicalPlanMismatch(`shared physical node ${j.shared} is written twice`);
      definitions.set(j.shared, j);
    }
    writtenChildren(j).forEach(visit);
  };
  visit(root);
  return definitions;
}

function writtenChildren(j: WrittenNodeJson): PhysicalNodeJson[] {
  switch (j.kind) {
    case 'Operator':
      return j.sources;
    case 'SingleStepAggregation':
    case 'ParallelHashBuild':
      return [j.source];
    case 'Spool':
      return j.source === undefined ? [] : [j.source];
    case 'ParallelScan':
      return [...j.stages.flatMap((s) => (s.kind === 'probe' ? [s.build] : [])), j.inMainThread];
    case 'ParallelMarkJoin':
      return [j.probe, j.build, j.inMainThread];
    case 'ParallelSort':
    case 'ParallelWindow':
      return [j.pipeline, j.inMainThread];
    default:
      return assertNever(j, 'physical node');
  }
}
