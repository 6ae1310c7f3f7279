// The physical plan as a task request carries it (internode/task-update-request.ts): the same tree
// with each logical node named by its id in the fragment the request also carries, so the plan is
// sent once and a worker maps it to operators as the coordinator made it, without planning again.
// Reading it back resolves every id against the fragment and checks the node is of the kind its
// place requires; a SINGLE step aggregation is the pair it stands for (mergePartialFinal), derived
// from the pair's ids as the planner derived it.

import { mergePartialFinal } from '../aggregation-steps.js';
import type { AggregateNode, FilterNode, JoinNode, PlanNode, ProjectNode, SortNode, TableScanNode, TopNNode, WindowNode } from '../plan.js';
import { sources } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import type { AdaptiveDecision, FinalStepPlacement, LocalExchange, ParallelScan, PhysicalNode, ThreadStage } from './physical-plan.js';

export type PhysicalNodeJson =
  | { kind: 'Operator'; node: number; sources: PhysicalNodeJson[] }
  | { kind: 'SingleStepAggregation'; final: number; partial: number; source: PhysicalNodeJson }
  | ParallelScanJson
  | ParallelMarkJoinJson
  | ParallelSortJson
  | ParallelWindowJson
  | ParallelHashBuildJson;

export interface ParallelHashBuildJson {
  kind: 'ParallelHashBuild';
  node: number;
  join: number;
  source: PhysicalNodeJson;
  threads: number;
  minRows: number;
  decisions: AdaptiveDecision[];
}

/** A parallel sort's or window's: the node over its pipeline on the threads. */
export interface ParallelSortJson {
  kind: 'ParallelSort';
  node: number;
  pipeline: ParallelScanJson;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export interface ParallelWindowJson extends Omit<ParallelSortJson, 'kind'> {
  kind: 'ParallelWindow';
}

export interface ParallelMarkJoinJson {
  kind: 'ParallelMarkJoin';
  node: number;
  probe: PhysicalNodeJson;
  build: ParallelScanJson;
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export interface ParallelScanJson {
  kind: 'ParallelScan';
  node: number;
  scan: number;
  threadTop: number;
  threads: number;
  minSplits: number;
  splits: ParallelScan['splits'];
  stages: ThreadStageJson[];
  aggregation?: { partial: number; final?: number; finalStep?: FinalStepPlacement };
  exchanges: { type: LocalExchange['type']; keys: Symbol[]; below: number }[];
  decisions: AdaptiveDecision[];
  inMainThread: PhysicalNodeJson;
}

export type ThreadStageJson = { kind: 'filterProject'; node: number } | { kind: 'probe'; join: number; build: PhysicalNodeJson };

/** A physical plan that does not fit the fragment it came with. */
export class PhysicalPlanMismatch extends Error {}

export function physicalToJson(physical: PhysicalNode): PhysicalNodeJson {
  switch (physical.kind) {
    case 'Operator':
      return { kind: 'Operator', node: physical.node.id, sources: physical.sources.map(physicalToJson) };
    case 'SingleStepAggregation':
      return {
        kind: 'SingleStepAggregation',
        final: physical.final.id,
        partial: physical.partial.id,
        source: physicalToJson(physical.source),
      };
    case 'ParallelMarkJoin':
      return {
        kind: 'ParallelMarkJoin',
        node: physical.node.id,
        probe: physicalToJson(physical.probe),
        build: physicalToJson(physical.build) as ParallelScanJson,
        decisions: physical.decisions,
        inMainThread: physicalToJson(physical.inMainThread),
      };
    case 'ParallelSort':
    case 'ParallelWindow':
      return {
        kind: physical.kind,
        node: physical.node.id,
        pipeline: physicalToJson(physical.pipeline) as ParallelScanJson,
        decisions: physical.decisions,
        inMainThread: physicalToJson(physical.inMainThread),
      };
    case 'ParallelHashBuild':
      return {
        kind: 'ParallelHashBuild',
        node: physical.node.id,
        join: physical.join.id,
        source: physicalToJson(physical.source),
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
          s.kind === 'probe'
            ? { kind: 'probe', join: s.join.id, build: physicalToJson(s.build) }
            : { kind: 'filterProject', node: s.node.id },
        ),
        ...(aggregation && {
          aggregation: {
            partial: aggregation.partial.id,
            ...(aggregation.final && { final: aggregation.final.id, finalStep: aggregation.finalStep }),
          },
        }),
        exchanges: physical.exchanges.map((e) => ({ type: e.type, keys: e.keys, below: e.below.id })),
        decisions: physical.decisions,
        inMainThread: physicalToJson(physical.inMainThread),
      };
    }
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
  const read = (j: PhysicalNodeJson): PhysicalNode => {
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
    }
  };
  return read(json);
}
