// The coordinator's part in dynamic filters across stages (Trino's DynamicFilterService): a remote
// filter's join runs in one stage and its scan in another (optimizer/dynamic-filters.ts). Each task
// of the join's stage publishes the filter's domain once its build is complete (the coordinator
// fetches it when the task's info shows its dynamic filters version moved, remote-task.ts); when
// every task has (a partitioned join: each holds the keys of its partitions) or any one has (a
// replicated join: each holds the whole build), their union goes to every task of the scan's stage
// in a task update: a bitmap of the keys OR-ed over the tasks when small enough (a partitioned
// join's lists of keys, each within a filter's limit, may together make one). Until then the scan reads unfiltered; a task that never completes its build
// (a failure, a LIMIT above that stops early) leaves the filter incomplete, never wrong.

import type { DynamicFilterDomain } from '../../internode/dynamic-filter-domains.js';
import { forOtherNodes, MAX_DYNAMIC_FILTER_VALUES, unionDomains, type KeyDomain } from '../../exec/dynamic-filters/key-domain.js';
import { allFragments, type PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import { remoteDynamicFilters } from '../../sql/planner/distributed/remote-dynamic-filters.js';
import { sources, type PlanNode } from '../../sql/planner/plan.js';

/** Where the domains of a stage's filters go: its tasks (a task update), or the root fragment's execution here. */
export type DomainsSink = (fragmentId: number, domains: DynamicFilterDomain[]) => void;

interface RemoteFilter {
  joinFragment: number;
  scanFragment: number;
  /** A replicated join: any one task's domain is the whole build's. */
  replicated: boolean;
  /** The domain each task of the join's stage reported, by task id. */
  reported: Map<string, KeyDomain>;
  /** Set once sent to the scan's stage. */
  domain?: KeyDomain;
}

export class RemoteDynamicFilters {
  private readonly filters = new Map<string, RemoteFilter>();

  /**
   * `joinTasks`: how many tasks the join's stage runs (known once its tasks are placed).
   * `maxKeyBitmapBytes`: the largest key bitmap a union is sent with (dynamic-filters.ts,
   * remoteKeyBitmapMaxBytes), 0 when key bitmaps are off.
   */
  constructor(
    root: PlanFragment,
    private readonly joinTasks: (fragmentId: number) => number,
    private readonly sink: DomainsSink,
    private readonly maxKeyBitmapBytes = 0,
  ) {
    const joinFragments = new Map<string, number>();
    const scanFragments = new Map<string, number>();
    for (const fragment of allFragments(root)) {
      const { joins, scans } = remoteDynamicFilters(fragment.root);
      for (const id of joins) joinFragments.set(id, fragment.id);
      for (const id of scans) scanFragments.set(id, fragment.id);
    }
    const replicated = replicatedJoinFilters(root);
    for (const [id, joinFragment] of joinFragments) {
      const scanFragment = scanFragments.get(id);
      if (scanFragment === undefined) continue;
      this.filters.set(id, { joinFragment, scanFragment, replicated: replicated.has(id), reported: new Map() });
    }
  }

  /** The domains a task of `fragmentId` published (one reported again is taken once). */
  reported(fragmentId: number, taskId: string, domains: readonly DynamicFilterDomain[]): void {
    const complete = new Map<number, DynamicFilterDomain[]>();
    for (const { id, domain } of domains) {
      const filter = this.filters.get(id);
      if (filter === undefined || filter.joinFragment !== fragmentId || filter.domain !== undefined || filter.reported.has(taskId))
        continue;
      filter.reported.set(taskId, domain);
      if (!filter.replicated && filter.reported.size < this.joinTasks(fragmentId)) continue;
      // The tasks of a partitioned join each hold a share of the keys: their lists may together make a bitmap.
      const lists = this.maxKeyBitmapBytes > 0;
      const union = [...filter.reported.values()].reduce((a, b) => unionDomains(a, b, MAX_DYNAMIC_FILTER_VALUES, lists));
      filter.domain = forOtherNodes(union, this.maxKeyBitmapBytes);
      const list = complete.get(filter.scanFragment) ?? [];
      list.push({ id, domain: filter.domain });
      complete.set(filter.scanFragment, list);
    }
    for (const [scanFragment, list] of complete) this.sink(scanFragment, list);
  }
}

/** The ids of the filters of replicated joins (a broadcast build). */
function replicatedJoinFilters(root: PlanFragment): Set<string> {
  const out = new Set<string>();
  const visit = (node: PlanNode) => {
    if (node.kind === 'Join' && node.distribution === 'REPLICATED') for (const f of node.dynamicFilters ?? []) out.add(f.id);
    sources(node).forEach(visit);
  };
  for (const fragment of allFragments(root)) visit(fragment.root);
  return out;
}
