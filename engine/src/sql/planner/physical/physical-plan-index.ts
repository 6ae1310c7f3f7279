// A fragment's physical plan (or a single node's whole plan) as the local execution planner reads it:
// the physical node of each logical node it is asked for — the fragment's root, a source, a join's
// build side, a subquery an Apply runs once per binding. It only looks up what the physical planner
// made (on the coordinator, shipped to the worker with the fragment); a node without a physical
// node is an internal error, never planned here.

import { EngineError } from '../../../errors/engine-error.js';
import type { PlanNode } from '../plan.js';
import { type PhysicalNode, physicalSources } from './physical-plan.js';

export class PhysicalPlanIndex {
  private readonly byNode = new Map<PlanNode, PhysicalNode>();

  /** The physical nodes added: a parallel node's fallback shares nodes with it, so the plan is a DAG, walked once per node. */
  private readonly added = new Set<PhysicalNode>();

  constructor(readonly root: PhysicalNode) {
    this.add(root);
  }

  /** The physical node that runs `node` (and what is under it). */
  of(node: PlanNode): PhysicalNode {
    const physical = this.byNode.get(node);
    if (physical === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Plan node ${node.id} (${node.kind}) has no physical node`);
    return physical;
  }

  /** The physical node that runs `node`, if it has one. */
  find(node: PlanNode): PhysicalNode | undefined {
    return this.byNode.get(node);
  }

  /** Every physical node of the plan (fallbacks too), each once. */
  nodes(): Iterable<PhysicalNode> {
    return this.added;
  }

  /** Top-down, so that a node is found as the topmost physical node that stands for it. */
  private add(physical: PhysicalNode): void {
    if (this.added.has(physical)) return;
    this.added.add(physical);
    this.keep(physical.node, physical);
    if (physical.kind === 'SingleStepAggregation') this.keep(physical.final, physical);
    physicalSources(physical).forEach((s) => this.add(s));
    if (physical.kind === 'ParallelScan') this.add(physical.inMainThread);
    // A parallel mark join's build side, found by its node, is the one its fallback in the main thread runs.
    if (physical.kind === 'ParallelMarkJoin') this.add(physical.inMainThread);
    // A parallel sort's (or window's) source, found by its node, is the one its fallback in the main thread runs.
    if (physical.kind === 'ParallelSort' || physical.kind === 'ParallelWindow') this.add(physical.inMainThread);
  }

  private keep(node: PlanNode, physical: PhysicalNode): void {
    if (!this.byNode.has(node)) this.byNode.set(node, physical);
  }
}
