// Admission through resource groups: a new query joins the group its selector names and starts at
// once if that group and every ancestor have room, waits QUEUED if they can queue more, and fails
// with QUERY_QUEUE_FULL otherwise. Freed slots go to the queued queries fairly across groups.
// Groups are made on demand from their configured templates and dropped when idle.

import { EngineError } from '../../errors/engine-error.js';
import type { ManagedQuery } from '../managed-query.js';
import { ResourceGroup, type GroupLimits } from './resource-group.js';
import { softMemoryLimitBytes, type GroupSpec, type ResourceGroupsFile } from './resource-groups-file.js';
import { Selectors } from './selectors.js';

export class ResourceGroupManager {
  private readonly roots = new Map<string, ResourceGroup>();
  private readonly selectors: Selectors;
  private readonly groupOf = new Map<ManagedQuery, ResourceGroup>();
  private startSequence = 0;

  constructor(
    file: ResourceGroupsFile,
    private readonly nodeMemoryBytes: number,
    /** Runs a query the groups admitted. */
    private readonly start: (query: ManagedQuery) => void,
  ) {
    this.selectors = new Selectors(file);
  }

  /** Starts, queues or fails a new query; its resourceGroupId is set unless no selector matched. */
  submit(query: ManagedQuery): void {
    const selection = this.selectors.select(query.session.user, query.session.source);
    if (!selection) {
      query.fail(new EngineError('QUERY_REJECTED', 'Query did not match any selection rule'));
      return;
    }
    const group = this.group(selection.id, selection.specs);
    query.resourceGroupId = group.id;
    if (group.canStartNow()) {
      this.run(group, query);
    } else if (group.canQueueNow()) {
      group.enqueue(query);
      this.groupOf.set(query, group);
    } else {
      this.dropIfIdle(group);
      query.fail(queueFull(group));
    }
  }

  /** A query ended (running or queued): its slot goes to the next queued query. */
  finished(query: ManagedQuery): void {
    const group = this.groupOf.get(query);
    if (!group) return;
    this.groupOf.delete(query);
    group.remove(query);
    this.dropIfIdle(group);
    this.startQueued();
  }

  /** Starts queued queries while the limits allow (after a query ended, and periodically as memory use changes). */
  startQueued(): void {
    for (const root of this.roots.values()) {
      for (let next = root.takeNext(); next; next = root.takeNext()) this.run(next.group, next.query);
    }
  }

  runningCount(): number {
    return [...this.roots.values()].reduce((n, g) => n + g.runningCount, 0);
  }

  queuedCount(): number {
    return [...this.roots.values()].reduce((n, g) => n + g.queuedCount, 0);
  }

  /** Every query running or queued. */
  *activeQueries(): Generator<ManagedQuery> {
    for (const root of this.roots.values()) yield* root.queries();
  }

  private run(group: ResourceGroup, query: ManagedQuery): void {
    group.markRunning(query, ++this.startSequence);
    this.groupOf.set(query, group);
    this.start(query);
  }

  /** The group at `id`, made (with its ancestors) from the configured specs if it does not exist. */
  private group(id: readonly string[], specs: readonly GroupSpec[]): ResourceGroup {
    let group: ResourceGroup | undefined;
    for (let depth = 0; depth < id.length; depth++) {
      const siblings = group ? group.children : this.roots;
      const name = id[depth]!;
      let next = siblings.get(name);
      if (!next) {
        const spec = specs[depth]!;
        next = new ResourceGroup(id.slice(0, depth + 1), this.limits(spec), group);
        siblings.set(name, next);
      }
      group = next;
    }
    return group!;
  }

  private limits(spec: GroupSpec): GroupLimits {
    return {
      hardConcurrencyLimit: spec.hardConcurrencyLimit,
      maxQueued: spec.maxQueued,
      softMemoryLimitBytes: softMemoryLimitBytes(spec.softMemoryLimit, this.nodeMemoryBytes),
      schedulingWeight: spec.schedulingWeight ?? 1,
    };
  }

  /** Drops groups with nothing running, queued or below them, so per-user groups do not pile up. */
  private dropIfIdle(group: ResourceGroup): void {
    for (let g: ResourceGroup | undefined = group; g && g.idle; g = g.parent) {
      (g.parent ? g.parent.children : this.roots).delete(g.id[g.id.length - 1]!);
    }
  }
}

/** QUERY_QUEUE_FULL naming the group whose queue is full (Trino names the query's own group even when an ancestor is the full one). */
function queueFull(group: ResourceGroup): EngineError {
  const full = group.fullGroup() ?? group;
  const own = full === group ? '' : ` (the query's group is "${group.name}")`;
  return new EngineError('QUERY_QUEUE_FULL', `Too many queued queries for "${full.name}"${own}`);
}
