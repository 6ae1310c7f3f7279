// Watches V8's real heap use, which memory accounting only estimates. V8 offers JS no callback near
// its heap limit and dies with "JavaScript heap out of memory" when it reaches it, so the node looks
// itself — on reservations and on a timer — and once the heap stays above a share of its limit even
// after a full collection, a query is failed with EXCEEDED_LOCAL_MEMORY_LIMIT before V8 gives up.
// Each thread (the main one, every worker) has its own heap and watches it in its own root contexts.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Above this share of the heap limit the heap is nearly full. */
export const HEAP_FULL_FRACTION = 0.85;
/** Checks on reservations are at most this often. */
const CHECK_INTERVAL_MILLIS = 20;
/** A full collection (stopping the thread) at most this often. */
const GC_INTERVAL_MILLIS = 1000;

export interface HeapUse {
  usedBytes: number;
  limitBytes: number;
}

let lastCheck = 0;
let lastGc = 0;

/** Collects garbage now: without this, heap use includes garbage V8 would free before giving up. */
const collectGarbage: (() => void) | undefined = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

function heapUse(): HeapUse {
  const stats = getHeapStatistics();
  return { usedBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit };
}

function isFull(use: HeapUse): boolean {
  return use.usedBytes > use.limitBytes * HEAP_FULL_FRACTION;
}

/**
 * The heap's use when it is nearly full even after collecting garbage, else undefined. Cheap when
 * called often: it looks at most every CHECK_INTERVAL_MILLIS unless `force`.
 */
export function nearlyFullHeap(force = false): HeapUse | undefined {
  const now = Date.now();
  if (!force && now - lastCheck < CHECK_INTERVAL_MILLIS) return undefined;
  lastCheck = now;
  let use = heapUse();
  if (!isFull(use)) return undefined;
  if (collectGarbage !== undefined && now - lastGc >= GC_INTERVAL_MILLIS) {
    lastGc = now;
    collectGarbage();
    use = heapUse();
  }
  return isFull(use) ? use : undefined;
}
