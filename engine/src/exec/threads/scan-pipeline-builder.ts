// Builds the scan pipeline of a parallel scan (sql/planner/physical): its Filter/Project stages,
// join probes and partial aggregation as channel-based plain data, with the grouped final
// aggregation above it when the threads run it, and the build sides its probes need. The planner
// lends its channel layouts, so that a stage or an aggregation reads the same here as when it runs
// in the main thread.

import type { AggregateNode, FilterNode, JoinNode, PlanNode, ProjectNode } from '../../sql/planner/plan.js';
import type { HashAggregationSpec } from '../operators/hash-aggregation.js';
import type { HashJoinSpec } from '../operators/hash-join.js';
import { aggregateRef, type AggregateRef } from '../../functions/aggregate/aggregate-ref.js';
import type { FilterProjectStage, PipelineStage, ScanPipeline } from './scan-pipeline.js';

export interface ChannelLayouts {
  /** A Filter, a Project, or a Project over a Filter, as one stage over `source`. */
  filterProjectStage(node: FilterNode | ProjectNode): { source: PlanNode; stage: FilterProjectStage };
  aggregationSpec(node: AggregateNode): HashAggregationSpec;
  joinSpec(node: JoinNode): HashJoinSpec;
}

/** A fragment's join probed in parallel: the plan of its build side, made before the fragment runs. */
export interface ScanPipelineBuild {
  /** The join; its build side is its right side. */
  join: JoinNode;
  spec: HashJoinSpec;
}

/**
 * The fragment and its build sides (by the index its probe stages name), or undefined when the
 * subtree is not of fragment shape or an aggregate cannot leave this thread. `final`: the final
 * step above the partial aggregation `top` in this task; `finalInThreads`: whether the threads run it;
 * `having`: a filter above the final step the threads apply to their groups (with `finalInThreads`).
 */
export function buildScanPipeline(
  top: PlanNode,
  final: AggregateNode | undefined,
  finalInThreads: boolean,
  layouts: ChannelLayouts,
  having?: FilterNode,
): { fragment: ScanPipeline; builds: ScanPipelineBuild[] } | undefined {
  let node = top;
  let aggregation: ScanPipeline['aggregation'];
  let finalAggregation: ScanPipeline['finalAggregation'];
  if (node.kind === 'Aggregate') {
    const spec = layouts.aggregationSpec(node);
    const refs = aggregateRefs(spec);
    if (refs === undefined) return undefined;
    const aggregates = spec.aggregates.map((a, i) => ({
      function: refs[i],
      argumentChannels: a.argumentChannels,
      maskChannel: a.maskChannel,
    }));
    aggregation = { inputTypes: [...spec.inputTypes], groupChannels: spec.groupChannels, aggregates, abandonable: final !== undefined };
    if (final !== undefined && finalInThreads) {
      const finalSpec = layouts.aggregationSpec(final);
      const finalAggregates = finalSpec.aggregates.map((a, i) => ({ function: refs[i], argumentChannels: a.argumentChannels }));
      finalAggregation = {
        step: 'final',
        inputTypes: [...finalSpec.inputTypes],
        groupChannels: finalSpec.groupChannels,
        aggregates: finalAggregates,
        ...(having !== undefined && { having: layouts.filterProjectStage(having).stage }),
      };
    }
    node = node.source;
  }
  const stages: PipelineStage[] = [];
  const builds: ScanPipelineBuild[] = [];
  for (;;) {
    if (node.kind === 'Filter' || node.kind === 'Project') {
      const { source, stage } = layouts.filterProjectStage(node);
      stages.unshift(stage);
      node = source;
    } else if (node.kind === 'Join' && node.parallelProbe === true) {
      const spec = layouts.joinSpec(node);
      builds.unshift({ join: node, spec });
      stages.unshift({ kind: 'probe', spec, build: -1 });
      node = node.left;
    } else break;
  }
  if (node.kind !== 'TableScan') return undefined;
  // Build sides are numbered in the order of their probes, from the scan up.
  let next = 0;
  for (const stage of stages) if (stage.kind === 'probe') stage.build = next++;
  return { fragment: { columns: node.columns.map((c) => c.name), stages, aggregation, finalAggregation }, builds };
}

/**
 * The fragment's stages with the whole aggregation `single` in one step on the threads, each on a
 * partition of the groups (rows exchanged between them by key hash), for when its partial step
 * does not reduce; undefined when it has no grouping keys or one of its aggregates cannot leave
 * this thread.
 */
export function singleStepInThreads(fragment: ScanPipeline, single: HashAggregationSpec): ScanPipeline | undefined {
  const refs = aggregateRefs(single);
  if (refs === undefined || single.groupChannels.length === 0 || single.aggregates.some((a) => a.distinct)) return undefined;
  const aggregates = single.aggregates.map((a, i) => ({
    function: refs[i],
    argumentChannels: a.argumentChannels,
    maskChannel: a.maskChannel,
  }));
  return {
    columns: fragment.columns,
    stages: fragment.stages,
    finalAggregation: {
      step: 'single',
      inputTypes: [...single.inputTypes],
      groupChannels: single.groupChannels,
      aggregates,
      having: fragment.finalAggregation?.having,
    },
  };
}

function aggregateRefs(spec: HashAggregationSpec): AggregateRef[] | undefined {
  const refs: AggregateRef[] = [];
  for (const a of spec.aggregates) {
    const ref = aggregateRef(a.function);
    if (ref === undefined) return undefined;
    refs.push(ref);
  }
  return refs;
}
