// The physical plan of each fragment of a distributed query, made once here on the coordinator and
// sent with the fragment to every task of it (a worker maps it and never plans). The decisions that
// depend on the node are made for the nodes the fragment's tasks go to: a parallel scan runs on as
// many threads as the smallest of them announced (each node's pool takes at most its own). EXPLAIN
// (TYPE DISTRIBUTED) prints the same plans, so it shows what runs.

import type { ExecutionEnvironment } from '../../exec/local-execution-planner.js';
import { fragmentPhysicalPlan, localPhysicalPlan } from '../../exec/threads/physical-context.js';
import { sharedThreadPool } from '../../exec/threads/thread-pool.js';
import type { FragmentsWithCommonSubplans } from '../../sql/planner/distributed/fragment-common-subplans.js';
import type { PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import type { PhysicalPlanIndex } from '../../sql/planner/physical/physical-plan-index.js';
import type { PlanNode } from '../../sql/planner/plan.js';
import type { ClusterView } from './distributed-query.js';

export class FragmentPhysicalPlans {
  private readonly plans = new Map<number, PhysicalPlanIndex>();

  /** `root`: the fragment the query runs itself, on this node. */
  /** `acrossFragments`: on a single node, the common subplans its fragments share. */
  constructor(
    private readonly env: Pick<ExecutionEnvironment, 'catalogs' | 'session'>,
    private readonly cluster: Pick<ClusterView, 'workerNodes' | 'self'>,
    private readonly root: PlanFragment,
    private readonly acrossFragments?: FragmentsWithCommonSubplans,
  ) {}

  of(fragment: PlanFragment): PhysicalPlanIndex {
    let plan = this.plans.get(fragment.id);
    if (plan === undefined) {
      plan = fragmentPhysicalPlan(this.env, fragment, this.nodeThreads(fragment), this.acrossFragments);
      this.plans.set(fragment.id, plan);
    }
    return plan;
  }

  /** The worker threads of the nodes that run the fragment's tasks: the fewest any of them has. */
  private nodeThreads(fragment: PlanFragment): number {
    const own = sharedThreadPool().maxThreads;
    if (fragment.id === this.root.id) return own;
    const nodes = fragment.partitioning === 'COORDINATOR_ONLY' ? [this.cluster.self()] : this.cluster.workerNodes();
    return nodes.length === 0 ? own : Math.min(...nodes.map((n) => n.workerThreads ?? own));
  }
}

/**
 * A query's physical plans: each fragment's over the cluster when it is fragmented, else the whole
 * plan as this node runs it (the one fragment a single node's EXPLAIN shows).
 */
export function queryPhysicalPlans(
  env: Pick<ExecutionEnvironment, 'catalogs' | 'session'>,
  planned: { root: PlanNode; fragments?: PlanFragment; acrossFragments?: FragmentsWithCommonSubplans },
  cluster: Pick<ClusterView, 'workerNodes' | 'self'> | undefined,
): (fragment: PlanFragment) => PhysicalPlanIndex {
  if (planned.fragments !== undefined && cluster !== undefined) {
    const plans = new FragmentPhysicalPlans(env, cluster, planned.fragments, planned.acrossFragments);
    return (f) => plans.of(f);
  }
  const local = localPhysicalPlan(env, planned.root);
  return () => local;
}
