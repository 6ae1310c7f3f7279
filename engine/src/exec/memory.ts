// Memory accounting: a query's operators reserve what they retain; past the limit the query fails
// with EXCEEDED_LOCAL_MEMORY_LIMIT while the server stays up. Contexts nest (node pool -> query ->
// task -> operator). A root context also watches the real memory (heap-guard): when the heap is
// nearly full, or the process holds more than the node's bound, the query holding the most is failed
// — the reserving one by an exception, another through its revoke handler.

import { EngineError } from '../errors/engine-error.js';
import { isMainThread } from 'node:worker_threads';
import { memoryPressure, type MemoryUse } from '../process/heap-guard.js';
import { yieldPooledMemory } from './buffer-pool.js';

/** How often a root context with reservations looks at the heap between reservations. */
const GUARD_INTERVAL_MILLIS = 100;
/** The consumers a failure names, as Trino's "Top Consumers". */
const TOP_CONSUMERS = 3;

export class MemoryContext {
  /** What the context's reservations are counted as among a query's top consumers (an operator's type). */
  tag: string;
  private reserved = 0;
  private peak = 0;
  /** Children holding reservations now (only they can be asked to give memory back). */
  private readonly holders = new Set<MemoryContext>();
  private revokeHandler: ((error: EngineError) => void) | undefined;
  private revoked = false;
  private guardTimer: NodeJS.Timeout | undefined;
  /** Set by watchGrowth: the reservation that calls `onGrowth` next. */
  private growth: { nextBytes: number; onGrowth: () => void } | undefined;

  constructor(
    readonly name: string,
    readonly limitBytes: number,
    private readonly parent?: MemoryContext,
    /** The node's pool, shared by every query: filling it is not one query's doing. */
    private readonly isNodePool = false,
  ) {
    this.tag = name;
  }

  /** The root of a node's accounting: all queries together, up to the node memory. */
  static nodePool(limitBytes: number): MemoryContext {
    return new MemoryContext('node', limitBytes, undefined, true);
  }

  get reservedBytes(): number {
    return this.reserved;
  }

  get peakBytes(): number {
    return this.peak;
  }

  /** Called when the node takes this context's memory back (its heap is nearly full): the owner fails. */
  onRevoke(handler: (error: EngineError) => void): void {
    this.revokeHandler = handler;
  }

  /**
   * Calls `onGrowth` whenever this context's reservation first reaches `fromBytes`, then twice that,
   * and so on: a task's coordinator, which sums its tasks' memory against query_max_memory, then
   * hears of a jump at once rather than at its next poll.
   */
  watchGrowth(fromBytes: number, onGrowth: () => void): void {
    this.growth = { nextBytes: fromBytes, onGrowth };
  }

  /** Reserves `bytes`; throws EXCEEDED_LOCAL_MEMORY_LIMIT (and reserves nothing) when over a limit or the heap is nearly full. */
  reserve(bytes: number): void {
    this.reserveFor(bytes, this);
  }

  free(bytes: number): void {
    const amount = Math.min(bytes, this.reserved);
    if (amount <= 0) return;
    this.reserved -= amount;
    // Leave the parent's holders first, so that the parent sees it holds nothing more and stops its guard.
    if (this.reserved === 0) this.parent?.holders.delete(this);
    this.parent?.free(amount);
    if (this.holders.size === 0) this.stopGuard();
  }

  /** Releases everything this context holds (at the end of a query). */
  close(): void {
    this.free(this.reserved);
  }

  child(name: string, limitBytes = this.limitBytes): MemoryContext {
    return new MemoryContext(name, limitBytes, this);
  }

  /** `origin` is the child through which the reservation came (this context when it is its own). */
  private reserveFor(bytes: number, origin: MemoryContext): void {
    if (bytes <= 0) return;
    // The buffers pooled for reuse count in the node's memory, and go before any query is refused.
    if (this.isNodePool) yieldPooledMemory(this.limitBytes - this.reserved - bytes);
    if (this.reserved + bytes > this.limitBytes) throw this.exceeded(bytes, origin);
    if (this.parent === undefined) this.guardMemory(origin);
    else this.parent.reserveFor(bytes, this);
    this.reserved += bytes;
    if (this.reserved > this.peak) this.peak = this.reserved;
    if (this.parent !== undefined) this.parent.addHolder(this);
    if (this.growth !== undefined && this.reserved >= this.growth.nextBytes) this.grew(this.growth);
  }

  private grew(growth: { nextBytes: number; onGrowth: () => void }): void {
    while (growth.nextBytes <= this.reserved) growth.nextBytes *= 2;
    growth.onGrowth();
  }

  /**
   * The error for `delta` more bytes than this context's limit allows, as Trino words it: the limit,
   * the query's own reservation, the delta and the query's top consumers; when this is the node pool,
   * the pool's size and what all queries hold too.
   */
  private exceeded(delta: number, origin: MemoryContext): EngineError {
    const query = this.isNodePool ? origin : this.queryLevel();
    const details = `Allocated: ${formatBytes(query.reserved)}, Delta: ${formatBytes(delta)}${query.topConsumers()}`;
    if (!this.isNodePool)
      return new EngineError(
        'EXCEEDED_LOCAL_MEMORY_LIMIT',
        `Query exceeded per-node memory limit of ${formatBytes(this.limitBytes)} [${details}]`,
      );
    return new EngineError(
      'EXCEEDED_LOCAL_MEMORY_LIMIT',
      `Query exceeded per-node memory limit: the node's memory of ${formatBytes(this.limitBytes)} is full, all queries together holding ${formatBytes(this.reserved)} [${details}]`,
    );
  }

  /** The context of the query this one belongs to: the one just below the node pool (or the root, where there is no pool). */
  private queryLevel(): MemoryContext {
    let context: MemoryContext = this;
    while (context.parent !== undefined && !context.parent.isNodePool) context = context.parent;
    return context;
  }

  /** `, Top Consumers: {tag=size, ...}`: what holds most under this context, by tag; empty when nothing does. */
  private topConsumers(): string {
    const byTag = new Map<string, number>();
    const visit = (context: MemoryContext): void => {
      if (context.holders.size === 0) {
        if (context !== this) byTag.set(context.tag, (byTag.get(context.tag) ?? 0) + context.reserved);
        return;
      }
      for (const child of context.holders) visit(child);
    };
    visit(this);
    const top = [...byTag].sort((a, b) => b[1] - a[1]).slice(0, TOP_CONSUMERS);
    return top.length === 0 ? '' : `, Top Consumers: {${top.map(([tag, bytes]) => `${tag}=${formatBytes(bytes)}`).join(', ')}}`;
  }

  private addHolder(child: MemoryContext): void {
    this.holders.add(child);
    // Only a root watches the process: one timer per node, not one per query, task and operator.
    if (this.parent === undefined) this.startGuard();
  }

  /** Whether this context's timer watches the heap and the process (a root's, while anything is reserved). */
  get guarding(): boolean {
    return this.guardTimer !== undefined;
  }

  /** When memory is short: throws for `origin` if it holds the most, else revokes the one that does. */
  private guardMemory(origin: MemoryContext | undefined, force = false): void {
    const full = memoryPressure(force);
    if (full === undefined) return;
    // A revoked query still winding down frees its memory soon: give it that time.
    for (const c of this.holders) if (c.revoked) return;
    const victim = this.largestHolder() ?? origin;
    if (victim === undefined) return;
    const error = heapFullError(full, victim);
    if (victim === origin) throw error;
    victim.revoke(error);
  }

  private largestHolder(): MemoryContext | undefined {
    let largest: MemoryContext | undefined;
    for (const c of this.holders) if (largest === undefined || c.reserved > largest.reserved) largest = c;
    return largest;
  }

  private revoke(error: EngineError): void {
    if (this.revoked || this.revokeHandler === undefined) return;
    this.revoked = true;
    this.revokeHandler(error);
  }

  /** Between reservations too (a query may grow the heap without reserving), while anything is reserved. */
  private startGuard(): void {
    if (this.guardTimer !== undefined) return;
    this.guardTimer = setInterval(() => this.guardMemory(undefined, true), GUARD_INTERVAL_MILLIS);
    this.guardTimer.unref();
  }

  private stopGuard(): void {
    clearInterval(this.guardTimer);
    this.guardTimer = undefined;
  }
}

function heapFullError(use: MemoryUse, victim: MemoryContext): EngineError {
  const short =
    use.kind === 'resident'
      ? `the node's process holds ${formatBytes(use.usedBytes)}, over its bound of ${formatBytes(use.limitBytes)}`
      : `${isMainThread ? "the node's heap" : "a worker thread's heap"} is nearly full (${formatBytes(use.usedBytes)} used of ${formatBytes(use.limitBytes)})`;
  return new EngineError(
    'EXCEEDED_LOCAL_MEMORY_LIMIT',
    `Query exceeded per-node memory limit: ${short} and this query holds the most memory [Allocated: ${formatBytes(victim.reservedBytes)}]`,
  );
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v}B` : `${v.toFixed(2)}${units[u]}`;
}
