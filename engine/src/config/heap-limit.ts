// The node's memory settings and V8's heap limit must agree: query memory lives on the V8 heap, so
// a node memory larger than the heap would let V8 die of "heap out of memory" before any query hits
// its limit. Like Trino's startup check of query.max-memory-per-node against the JVM heap, a
// configuration whose node memory does not fit the heap (with headroom for the server itself) is
// refused; Node cannot raise its own heap limit once started, so the message says which
// --max-old-space-size to start it with. Left unset, the node memory is derived from the heap.

import { totalmem } from 'node:os';
import { oldGenerationLimitBytes } from '../process/heap-guard.js';
import { ConfigError } from './config-error.js';
import { MIN_HEAP_HEADROOM_BYTES, heapNeededFor, maxNodeMemoryForHeap } from './memory-budget.js';

const MB = 1024 * 1024;

/** V8's heap limit of this process (its old generation's, set with --max-old-space-size). */
export function heapLimitBytes(): number {
  return oldGenerationLimitBytes();
}

/** memory.nodeMemory when not configured: half the machine (or of the container's memory limit), at most what the heap holds. */
export function defaultNodeMemory(heapBytes = heapLimitBytes()): number {
  return Math.min(Math.floor(machineMemoryBytes() / 2), maxNodeMemoryForHeap(heapBytes));
}

/** The machine's memory, or the limit of the container (cgroup) the process runs in when that is less. */
function machineMemoryBytes(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < totalmem() ? constrained : totalmem();
}

/** Refuses a node memory that does not fit the heap, naming the flag that would make it fit. */
export function checkNodeMemoryFitsHeap(nodeMemoryBytes: number, heapBytes = heapLimitBytes()): void {
  if (nodeMemoryBytes <= maxNodeMemoryForHeap(heapBytes)) return;
  const neededMb = Math.ceil(heapNeededFor(nodeMemoryBytes) / MB);
  throw new ConfigError(
    `memory.nodeMemory (${Math.round(nodeMemoryBytes / MB)}MB) does not fit the V8 heap limit of ${Math.round(heapBytes / MB)}MB ` +
      `(the node keeps at least ${MIN_HEAP_HEADROOM_BYTES / MB}MB and a quarter of the heap for itself). ` +
      `Start the server with a larger heap, e.g. NODE_OPTIONS=--max-old-space-size=${neededMb}, or lower memory.nodeMemory to at most ${Math.floor(maxNodeMemoryForHeap(heapBytes) / MB)}MB.`,
  );
}
