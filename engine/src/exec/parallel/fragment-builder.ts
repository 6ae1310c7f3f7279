// Builds the source fragment of a plan subtree of fragment shape (see fragmentScan): its
// Filter/Project stages and partial aggregation as channel-based plain data, with the grouped final
// aggregation above it when there is one. The planner lends its channel layouts, so that a stage or
// an aggregation reads the same here as when it runs in the main thread.

import type { AggregateNode, FilterNode, PlanNode, ProjectNode } from '../../sql/planner/plan.js';
import type { HashAggregationSpec } from '../operators/hash-aggregation.js';
import { aggregateRef, type AggregateRef } from '../../functions/aggregate/aggregate-ref.js';
import { isCostly } from './expression-cost.js';
import type { FilterProjectStage, SourceFragment } from './source-fragment.js';

export interface ChannelLayouts {
  /** A Filter, a Project, or a Project over a Filter, as one stage over `source`. */
  filterProjectStage(node: FilterNode | ProjectNode): { source: PlanNode; stage: FilterProjectStage };
  aggregationSpec(node: AggregateNode): HashAggregationSpec;
}

/** The fragment, or undefined when the subtree is not of fragment shape or an aggregate cannot leave this thread. */
export function buildSourceFragment(top: PlanNode, final: AggregateNode | undefined, layouts: ChannelLayouts): SourceFragment | undefined {
  let node = top;
  let aggregation: SourceFragment['aggregation'];
  let finalAggregation: SourceFragment['finalAggregation'];
  if (node.kind === 'Aggregate') {
    const spec = layouts.aggregationSpec(node);
    const refs = aggregateRefs(spec);
    if (refs === undefined) return undefined;
    const aggregates = spec.aggregates.map((a, i) => ({ function: refs[i], argumentChannels: a.argumentChannels, maskChannel: a.maskChannel }));
    aggregation = { inputTypes: [...spec.inputTypes], groupChannels: spec.groupChannels, aggregates, abandonable: final !== undefined };
    if (final !== undefined && final.groupingKeys.length > 0) {
      const finalSpec = layouts.aggregationSpec(final);
      const finalAggregates = finalSpec.aggregates.map((a, i) => ({ function: refs[i], argumentChannels: a.argumentChannels }));
      finalAggregation = { inputTypes: [...finalSpec.inputTypes], groupChannels: finalSpec.groupChannels, aggregates: finalAggregates };
    }
    node = node.source;
  }
  const stages: FilterProjectStage[] = [];
  while (node.kind === 'Filter' || node.kind === 'Project') {
    const { source, stage } = layouts.filterProjectStage(node);
    stages.unshift(stage);
    node = source;
  }
  if (node.kind !== 'TableScan') return undefined;
  return { columns: node.columns.map((c) => c.name), stages, aggregation, finalAggregation };
}

/**
 * Whether running a fragment on workers saves this thread more than moving its output costs: an
 * aggregation sends back few rows; otherwise every selected row travels, which only pays when
 * computing it is costly.
 */
export function worthWorkers(fragment: SourceFragment): boolean {
  if (fragment.aggregation !== undefined) return true;
  return fragment.stages.some((s) => (s.filter !== undefined && isCostly(s.filter)) || s.projections.some(isCostly));
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
