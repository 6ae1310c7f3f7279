// A pool of large freed ArrayBuffers, so that a hash table's big arrays reuse memory already faulted
// in: on a VM the first touch of fresh memory costs about 4 ms per MB (a page fault per 4 KB), its
// refill under 0.1 ms per MB. Buffers come in power-of-two size classes; the pool holds at most a
// configured number of bytes (0: off), frees everything after an idle time, and empties itself first
// whenever memory is short (the heap guard's relief, or the node's memory pool filling up), so a held
// buffer never fails a query nor hides memory from the guard.
//
// One pool per thread: module state is per isolate, and buffers never cross threads. Each thread's
// pool holds an equal share of memory.bufferPoolSize (the main thread's and every worker thread's,
// set through its workerData); a worker thread's pool goes with the thread when it stops idle.

import { isMainThread } from 'node:worker_threads';
import { evictUnderHeapPressure } from '../process/heap-guard.js';
import { availableParallelism } from 'node:os';
import { DEFAULT_BUFFER_POOL_BYTES, DEFAULT_BUFFER_POOL_IDLE_MILLIS, bufferPoolShare } from '../config/memory-budget.js';

/** Buffers below this are cheap to fault in and not worth holding. */
export const MIN_POOLED_BYTES = 1 << 20;

export class BufferPool {
  /** Held buffers by size class (log2 of the byte length), most recently given last. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** Every held buffer: one given twice would be handed to two owners. */
  private readonly held = new Set<ArrayBuffer>();
  private heldTotal = 0;
  private lastUse = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private takes = 0;
  private reuses = 0;

  constructor(
    private maxBytes: number,
    private idleMillis: number,
  ) {}

  configure(maxBytes: number, idleMillis: number): void {
    this.maxBytes = maxBytes;
    this.idleMillis = idleMillis;
    this.trimTo(maxBytes);
  }

  get heldBytes(): number {
    return this.heldTotal;
  }

  get limitBytes(): number {
    return this.maxBytes;
  }

  /** Buffers taken, and of them those that came from the pool. */
  get counts(): { takes: number; reuses: number } {
    return { takes: this.takes, reuses: this.reuses };
  }

  /** A buffer of at least `bytes` (its size class when large enough to pool), with unspecified contents. */
  take(bytes: number): { buffer: ArrayBuffer; fresh: boolean } {
    this.lastUse = Date.now();
    if (bytes < MIN_POOLED_BYTES || this.maxBytes === 0) return { buffer: new ArrayBuffer(bytes), fresh: true };
    this.takes++;
    const sizeClass = sizeClassOf(bytes);
    const list = this.free.get(sizeClass);
    const buffer = list?.pop();
    if (buffer === undefined) return { buffer: new ArrayBuffer(2 ** sizeClass), fresh: true };
    this.reuses++;
    this.held.delete(buffer);
    this.heldTotal -= buffer.byteLength;
    return { buffer, fresh: false };
  }

  /** Takes `buffer` back; its giver must not use it again. Ignored when not of a size class, or when the pool is off. */
  give(buffer: ArrayBuffer): void {
    const bytes = buffer.byteLength;
    if (bytes < MIN_POOLED_BYTES || bytes > this.maxBytes || 2 ** sizeClassOf(bytes) !== bytes || this.held.has(buffer)) return;
    this.trimTo(this.maxBytes - bytes);
    const sizeClass = sizeClassOf(bytes);
    let list = this.free.get(sizeClass);
    if (list === undefined) this.free.set(sizeClass, (list = []));
    list.push(buffer);
    this.held.add(buffer);
    this.heldTotal += bytes;
    this.lastUse = Date.now();
    this.scheduleIdleRelease();
  }

  /** Frees held buffers, the smallest classes first (the big ones save the most faults), until at most `bytes` are held. */
  trimTo(bytes: number): void {
    if (this.heldTotal <= bytes) return;
    for (const sizeClass of [...this.free.keys()].sort((a, b) => a - b)) {
      const list = this.free.get(sizeClass) as ArrayBuffer[];
      while (list.length > 0 && this.heldTotal > bytes) {
        const buffer = list.shift() as ArrayBuffer;
        this.held.delete(buffer);
        this.heldTotal -= buffer.byteLength;
      }
      if (list.length === 0) this.free.delete(sizeClass);
      if (this.heldTotal <= bytes) break;
    }
  }

  clear(): void {
    this.trimTo(0);
  }

  private scheduleIdleRelease(): void {
    if (this.idleTimer !== undefined) return;
    const check = (): void => {
      const idle = Date.now() - this.lastUse;
      if (this.heldTotal === 0) this.idleTimer = undefined;
      else if (idle >= this.idleMillis) {
        this.clear();
        this.idleTimer = undefined;
      } else this.idleTimer = setTimeout(check, this.idleMillis - idle).unref();
    };
    this.idleTimer = setTimeout(check, this.idleMillis).unref();
  }
}

function sizeClassOf(bytes: number): number {
  return Math.ceil(Math.log2(bytes));
}

/** Off in a worker thread until its workerData configures it; the main thread's share of the default otherwise. */
const pool = new BufferPool(
  isMainThread ? bufferPoolShare(DEFAULT_BUFFER_POOL_BYTES, availableParallelism()) : 0,
  DEFAULT_BUFFER_POOL_IDLE_MILLIS,
);
evictUnderHeapPressure(() => pool.clear());

/** This thread's pool. */
export function bufferPool(): BufferPool {
  return pool;
}

/** Sets this thread's pool: its share of memory.bufferPoolSize, and memory.bufferPoolIdleTimeout. */
export function configureBufferPool(maxBytes: number, idleMillis: number): void {
  pool.configure(maxBytes, idleMillis);
}

/** The worker threads' pools, which the main thread cannot see: at most their shares, and how to empty them. */
let workerThreadPools: { maxBytes: number; release: () => void } | undefined;
/** Asking the threads is a message each: at most this often. */
const THREAD_RELEASE_INTERVAL_MILLIS = 100;
let lastThreadRelease = 0;

export function watchWorkerThreadPools(maxBytes: number, release: () => void): void {
  workerThreadPools = { maxBytes, release };
}

/**
 * Makes room in the node's memory (called by its memory pool before a reservation): this thread's
 * pool keeps at most `freeBytes`, and when the worker threads' pools may hold more than is left,
 * they are asked to free theirs too.
 */
export function yieldPooledMemory(freeBytes: number): void {
  pool.trimTo(freeBytes);
  if (workerThreadPools === undefined || freeBytes - pool.heldBytes >= workerThreadPools.maxBytes) return;
  const now = Date.now();
  if (now - lastThreadRelease < THREAD_RELEASE_INTERVAL_MILLIS) return;
  lastThreadRelease = now;
  workerThreadPools.release();
}

/** An Int32Array of `length`, on a pooled buffer when large: every element `fill`, or (undefined) any value. */
export function pooledInt32Array(length: number, fill?: number): Int32Array {
  const { buffer, fresh } = pool.take(4 * length);
  const array = new Int32Array(buffer, 0, length);
  if (fill !== undefined && (!fresh || fill !== 0)) array.fill(fill);
  return array;
}

/** A Uint8Array of `length`, on a pooled buffer when large: zeroed when `zeroed`, else any value. */
export function pooledUint8Array(length: number, zeroed = true): Uint8Array {
  const { buffer, fresh } = pool.take(length);
  const array = new Uint8Array(buffer, 0, length);
  if (zeroed && !fresh) array.fill(0);
  return array;
}

/** The bytes `array` holds: its whole buffer, which a pooled array may not span. */
export function retainedBytes(array: ArrayBufferView): number {
  return array.buffer.byteLength;
}

/** Gives `array`'s buffer back to the pool: its owner must hold no other view of it. */
export function releasePooled(array: ArrayBufferView): void {
  if (array.buffer instanceof ArrayBuffer) pool.give(array.buffer);
}
