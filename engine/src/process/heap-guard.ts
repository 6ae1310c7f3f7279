// Watches V8's real heap use, which memory accounting only estimates. V8 offers JS no callback near
// its heap limit and dies with "JavaScript heap out of memory" when it reaches it, so the node looks
// itself — on reservations and on a timer — and once the heap stays above a share of its limit even
// after a full collection, a query is failed with EXCEEDED_LOCAL_MEMORY_LIMIT before V8 gives up.
// Each thread (the main one, every worker) has its own heap and watches it in its own root contexts.
// A server's main thread also watches the process's resident memory, which holds what no heap limit
// bounds (ArrayBuffers, every thread's runtime, the allocator's leftovers): over the node's bound
// (see config/memory-budget), every thread empties its caches and collects its garbage, and if the
// process is still over a moment later, a query is failed the same way.

import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resourceLimits } from 'node:worker_threads';
import { residentBytes, residentReadIntervalMillis } from './resident-memory.js';

/** Above this share of the old generation's limit the heap is nearly full. */
export const HEAP_FULL_FRACTION = 0.85;
/** Checks on reservations are at most this often. */
const CHECK_INTERVAL_MILLIS = 5;
const MB = 1024 * 1024;
/** V8's default --max-semi-space-size on 64-bit, in MB: 16 up to V8 12 (Node 20, 22), 64 from V8 13 (Node 24). */
const DEFAULT_SEMI_SPACE_MB = Number(process.versions.v8.split('.')[0]) >= 13 ? 64 : 16;

/**
 * The limit at which V8 gives up: its old generation's (--max-old-space-size, or a worker's
 * maxOldGenerationSizeMb). heap_size_limit adds the young generation (three semi-spaces), which V8
 * empties into the old one rather than letting it fail.
 */
export function oldGenerationLimitBytes(): number {
  if (resourceLimits.maxOldGenerationSizeMb !== undefined) return resourceLimits.maxOldGenerationSizeMb * MB;
  const oldSpaceMb = nodeFlagMb('max-old-space-size');
  if (oldSpaceMb !== undefined) return oldSpaceMb * MB;
  return getHeapStatistics().heap_size_limit - 3 * semiSpaceBytes();
}

/** This thread's semi-space: a worker's is a third of its young generation (resourceLimits), the main thread's its flag or V8's default. */
function semiSpaceBytes(): number {
  if (resourceLimits.maxYoungGenerationSizeMb !== undefined) return (resourceLimits.maxYoungGenerationSizeMb / 3) * MB;
  return (nodeFlagMb('max-semi-space-size') ?? DEFAULT_SEMI_SPACE_MB) * MB;
}

/** A size flag given to node (command line or NODE_OPTIONS; the last one wins, as for V8), in MB. */
function nodeFlagMb(name: string): number | undefined {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const pattern = new RegExp(`^--${name.replace(/-/g, '[-_]')}(?:=(\\d+))?$`);
  for (let i = flags.length - 1; i >= 0; i--) {
    const match = pattern.exec(flags[i]);
    if (match) return Number(match[1] ?? flags[i + 1]) || undefined;
  }
  return undefined;
}

/** A full collection (stopping the thread) at most this often. */
const GC_INTERVAL_MILLIS = 1000;
/** How long worker threads get to collect their garbage before the process's size counts against a query. */
const RELIEF_WAIT_MILLIS = 100;

export interface MemoryUse {
  /** heap: this thread's V8 heap is nearly full; resident: the process holds more than the node's bound. */
  kind: 'heap' | 'resident';
  usedBytes: number;
  limitBytes: number;
}

let lastCheck = 0;
let lastGc = 0;
/** Caches that give their memory back when the heap is nearly full, before any query is failed. */
const evictables: Array<() => void> = [];

/** Registers a cache to empty under heap pressure (it is only a cache: the data is still elsewhere). */
export function evictUnderHeapPressure(evict: () => void): void {
  evictables.push(evict);
}

/** Collects garbage now: without this, heap use includes garbage V8 would free before giving up. */
const collectGarbage: (() => void) | undefined = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

/** Empties this thread's caches and collects its garbage. */
export function relieveMemoryPressure(): void {
  for (const evict of evictables) evict();
  collectGarbage?.();
}

/** Collects this thread's garbage now (keeping its caches). */
export function collectGarbageNow(): void {
  collectGarbage?.();
}

const limitBytes = oldGenerationLimitBytes();
/**
 * Above this the heap is nearly full: HEAP_FULL_FRACTION of the limit, and at least two semi-spaces
 * below it, since one scavenge may promote a whole semi-space at once and V8 fails an old generation
 * that overflows its limit before the guard looks again (measured on V8 13 with a 64 MB heap); but
 * never below half the limit, so that a small heap with large semi-spaces still runs queries.
 */
const fullBytes = Math.max(limitBytes / 2, Math.min(limitBytes * HEAP_FULL_FRACTION, limitBytes - 2 * semiSpaceBytes()));

/** What the old generation holds (every space but the young ones), against its limit. */
function heapUse(): MemoryUse {
  let usedBytes = 0;
  for (const space of getHeapSpaceStatistics()) if (!space.space_name.startsWith('new_')) usedBytes += space.space_used_size;
  return { kind: 'heap', usedBytes, limitBytes };
}

function isFull(use: MemoryUse): boolean {
  return use.usedBytes > fullBytes;
}

/**
 * The process's resident memory against the node's bound (see memory-budget), which only the main
 * thread of a server watches; the threads it asks to relieve memory are its worker threads.
 */
let resident: { limitBytes: number; relieveOtherThreads: () => void } | undefined;
/** When a reservation's check next reads the resident size (a forced check always does): see resident-memory.ts. */
let nextResidentRead = 0;

export function guardResidentMemory(limitBytes: number, relieveOtherThreads: () => void): void {
  resident = { limitBytes, relieveOtherThreads };
  nextResidentRead = 0;
}

/** When the process last relieved memory for being over its bound, and whether a query was reported since. */
let reliefAt = 0;
let reliefReported = true;

function residentUse(now: number, force: boolean): MemoryUse | undefined {
  if (resident === undefined || (!force && now < nextResidentRead)) return undefined;
  const usedBytes = residentBytes();
  nextResidentRead = now + residentReadIntervalMillis(resident.limitBytes - usedBytes);
  return usedBytes > resident.limitBytes ? { kind: 'resident', usedBytes, limitBytes: resident.limitBytes } : undefined;
}

/**
 * What is short when the heap is nearly full, or the process holds more than its bound, even after
 * caches were emptied and garbage collected; else undefined. Cheap when called often: it looks at
 * most every CHECK_INTERVAL_MILLIS unless `force`. Worker threads collect their garbage when asked,
 * after this returns: a process over its bound is reported only if it still is RELIEF_WAIT_MILLIS later.
 */
export function memoryPressure(force = false): MemoryUse | undefined {
  const now = Date.now();
  if (!force && now - lastCheck < CHECK_INTERVAL_MILLIS) return undefined;
  lastCheck = now;
  const heap = heapUse();
  if (isFull(heap)) {
    if (collectGarbage === undefined || now - lastGc < GC_INTERVAL_MILLIS) return heap;
    lastGc = now;
    relieveMemoryPressure();
    const after = heapUse();
    return isFull(after) ? after : undefined;
  }
  const over = residentUse(now, force);
  if (over === undefined || resident === undefined) return undefined;
  // Every report follows a relief of its own, with time for the worker threads to collect: what a
  // query failed before gave back is garbage until then.
  if (reliefReported || now - reliefAt >= GC_INTERVAL_MILLIS) {
    lastGc = reliefAt = now;
    reliefReported = false;
    relieveMemoryPressure();
    resident.relieveOtherThreads();
    return undefined;
  }
  if (now - reliefAt < RELIEF_WAIT_MILLIS) return undefined;
  reliefReported = true;
  return over;
}
