// One resource group: a node of the group tree with its limits, the queries it runs and (in a
// group without subgroups) the queries waiting FIFO. Counts include the subgroups', so a query may
// start only when its group and every ancestor are under their limits.

import type { ManagedQuery } from '../managed-query.js';

export interface GroupLimits {
  hardConcurrencyLimit: number;
  maxQueued: number;
  softMemoryLimitBytes: number;
  schedulingWeight: number;
}

export class ResourceGroup {
  readonly children = new Map<string, ResourceGroup>();
  private readonly queued: ManagedQuery[] = [];
  private readonly running = new Set<ManagedQuery>();
  private runningInSubtree = 0;
  private queuedInSubtree = 0;
  /** When this group (or a subgroup) last started a query: the least recently served sibling goes first on ties. */
  private lastStart = 0;

  constructor(
    /** Path segments from the root, e.g. ['global', 'adhoc_bob']. */
    readonly id: readonly string[],
    readonly limits: GroupLimits,
    readonly parent: ResourceGroup | undefined,
  ) {}

  get name(): string {
    return this.id.join('.');
  }

  get runningCount(): number {
    return this.runningInSubtree;
  }

  get queuedCount(): number {
    return this.queuedInSubtree;
  }

  /** True when nothing runs or waits here or below, so the group may be dropped (it is made again on demand). */
  get idle(): boolean {
    return this.runningInSubtree === 0 && this.queuedInSubtree === 0 && this.children.size === 0;
  }

  canRunMore(): boolean {
    return this.runningInSubtree < this.limits.hardConcurrencyLimit && this.memoryBytes() <= this.limits.softMemoryLimitBytes;
  }

  canQueueMore(): boolean {
    return this.queuedInSubtree < this.limits.maxQueued;
  }

  /** Memory the running queries of this group and its subgroups hold now. */
  memoryBytes(): number {
    let bytes = 0;
    for (const query of this.running) bytes += query.memory.reservedBytes;
    for (const child of this.children.values()) bytes += child.memoryBytes();
    return bytes;
  }

  /** The groups from this one up to the root. */
  *pathToRoot(): Generator<ResourceGroup> {
    for (let group: ResourceGroup | undefined = this; group; group = group.parent) yield group;
  }

  /** Whether a new query here would start now: every group up to the root has room, and none queued here before it. */
  canStartNow(): boolean {
    return this.queued.length === 0 && [...this.pathToRoot()].every((g) => g.canRunMore());
  }

  canQueueNow(): boolean {
    return this.fullGroup() === undefined;
  }

  /** The group nearest this one, up to the root, whose queue is full; undefined when every one has room. */
  fullGroup(): ResourceGroup | undefined {
    for (const g of this.pathToRoot()) if (!g.canQueueMore()) return g;
    return undefined;
  }

  enqueue(query: ManagedQuery): void {
    this.queued.push(query);
    for (const g of this.pathToRoot()) g.queuedInSubtree++;
  }

  markRunning(query: ManagedQuery, sequence: number): void {
    this.running.add(query);
    for (const g of this.pathToRoot()) {
      g.runningInSubtree++;
      g.lastStart = sequence;
    }
  }

  /** Forgets a query that ended, running or still queued. */
  remove(query: ManagedQuery): void {
    if (this.running.delete(query)) {
      for (const g of this.pathToRoot()) g.runningInSubtree--;
      return;
    }
    const index = this.queued.indexOf(query);
    if (index < 0) return;
    this.queued.splice(index, 1);
    for (const g of this.pathToRoot()) g.queuedInSubtree--;
  }

  /**
   * Takes the next query to start from this group or below, if the limits allow one: this group's
   * own queue first (FIFO), else the eligible subgroup with the fewest running queries per unit of
   * scheduling weight, the least recently served one on ties (weighted fair sharing, which is round
   * robin when weights are equal). The caller starts it (markRunning).
   */
  takeNext(): { group: ResourceGroup; query: ManagedQuery } | undefined {
    if (!this.canRunMore()) return undefined;
    const head = this.queued.shift();
    if (head) {
      for (const g of this.pathToRoot()) g.queuedInSubtree--;
      return { group: this, query: head };
    }
    const candidates = [...this.children.values()].filter((c) => c.queuedInSubtree > 0).sort(ResourceGroup.fairOrder);
    for (const child of candidates) {
      const next = child.takeNext();
      if (next) return next;
    }
    return undefined;
  }

  private static fairOrder(a: ResourceGroup, b: ResourceGroup): number {
    const share = a.runningInSubtree / a.limits.schedulingWeight - b.runningInSubtree / b.limits.schedulingWeight;
    return share !== 0 ? share : a.lastStart - b.lastStart;
  }

  /** Queries of this group and its subgroups, running and queued. */
  *queries(): Generator<ManagedQuery> {
    yield* this.running;
    yield* this.queued;
    for (const child of this.children.values()) yield* child.queries();
  }
}
