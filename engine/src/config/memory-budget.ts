// How a node's memory settings add up to the memory its process may hold. Pure arithmetic on byte
// counts, with no import, so that the Kubernetes operator sizes containers with the very same
// functions (package export `engine/memory-budget`).
//
// Query memory lives on V8 heaps and beside them: the main thread's heap (--max-old-space-size), a
// heap per worker thread (resourceLimits, derived here from the node memory), and ArrayBuffers
// outside every heap (typed arrays of pages, Arrow IPC buffers, output and exchange buffers). The
// accounting counts all of it in the node memory; what it cannot see (garbage not yet collected,
// each thread's own runtime, the allocator's leftovers) is the overhead below. The node holds its
// process to the resident limit: above it, it empties caches, collects garbage in every thread,
// and then fails the query holding the most memory.

const MB = 1024 * 1024;

/** The least main-thread heap kept for the server itself (HTTP, planning, query history, result JSON). */
export const MIN_HEAP_HEADROOM_BYTES = 64 * MB;
/**
 * Beyond the minimum, a quarter of the main heap is kept out of the node memory: decoded-column
 * caches (a sixteenth), uncounted temporaries, and room below the heap guard's threshold (85%).
 */
export const HEAP_HEADROOM_FRACTION = 0.25;
/** The least heap a worker thread gets, whatever the node memory. */
export const MIN_WORKER_THREAD_HEAP_BYTES = 64 * MB;
/**
 * What a thread costs beside its old generation: its young generation (V8's default semi-spaces)
 * and the isolate itself (builtins, compiled code, stacks).
 */
export const PER_THREAD_OVERHEAD_BYTES = 64 * MB;
/**
 * What the process holds before any query and whatever the settings: Node's runtime and the engine's
 * code, I/O buffers, and memory the allocator keeps after freeing it. Measured at 100-110 MB idle.
 */
export const PROCESS_BASE_BYTES = 160 * MB;
/**
 * The young generation's semi-space every thread runs with, in MB. V8 13 (Node 24) raised its default
 * from 16 to 64 MB, which would let each thread hold some 150 MB more than PER_THREAD_OVERHEAD_BYTES
 * counts and promote more at once than the heap guard's margin allows; the measured budgets assume 16.
 */
export const SEMI_SPACE_MB = 16;
/** The node flag that pins the main thread's semi-space (set by the image and by the operator). */
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;
/** How long a worker thread stays without a task before it is stopped (task.workerThreadIdleTimeout). */
export const DEFAULT_WORKER_THREAD_IDLE_MILLIS = 30_000;
/** memory.bufferPoolSize's default (exec/buffer-pool.ts), at most an eighth of the node memory. */
export const DEFAULT_BUFFER_POOL_BYTES = 256 * MB;
export const DEFAULT_BUFFER_POOL_IDLE_MILLIS = 30_000;

export function defaultBufferPoolBytes(nodeMemoryBytes: number): number {
  return Math.min(DEFAULT_BUFFER_POOL_BYTES, Math.floor(nodeMemoryBytes / 8));
}

/** Each thread's pool (the main one's and every worker thread's): an equal share of the node's. */
export function bufferPoolShare(poolBytes: number, workerThreads: number): number {
  return Math.floor(poolBytes / (Math.max(0, workerThreads) + 1));
}
/** The TPC-H connector's text pool (300 MiB and a little), held once per process after the first comment column is read. */
export const TPCH_TEXT_POOL_BYTES = 301 * MB;

/**
 * The environment that lets glibc's allocator give freed memory back (read when the process starts,
 * so it is set by whoever starts the node: the image, the operator, `engine cluster`). By default
 * glibc raises its mmap threshold up to 32 MB as buffers are freed and then keeps what small buffers
 * leave behind in its arenas; measured, a worker held some 150-250 MB more after a load without these.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '16384',
  MALLOC_TRIM_THRESHOLD_: '65536',
};

/** The most node memory a main-thread heap of `heapBytes` holds with its headroom. */
export function maxNodeMemoryForHeap(heapBytes: number): number {
  return Math.max(0, Math.floor(Math.min(heapBytes - MIN_HEAP_HEADROOM_BYTES, heapBytes * (1 - HEAP_HEADROOM_FRACTION))));
}

/** The main-thread heap a node memory of `nodeMemoryBytes` needs: the inverse of maxNodeMemoryForHeap. */
export function heapNeededFor(nodeMemoryBytes: number): number {
  return Math.ceil(Math.max(nodeMemoryBytes + MIN_HEAP_HEADROOM_BYTES, nodeMemoryBytes / (1 - HEAP_HEADROOM_FRACTION)));
}

/**
 * The old generation of each worker thread: the node memory shared by the threads (at least
 * MIN_WORKER_THREAD_HEAP_BYTES), so that the threads together cannot hold more than the node memory
 * however the work falls on them. Whole megabytes, as resourceLimits takes them.
 */
export function workerThreadHeapBytes(nodeMemoryBytes: number, workerThreads: number): number {
  const share = Math.floor(nodeMemoryBytes / Math.max(1, workerThreads) / MB) * MB;
  return Math.max(MIN_WORKER_THREAD_HEAP_BYTES, share);
}

/** The bound of each output buffer and exchange client: a sixty-fourth of the node memory, from 4 MB to 32 MB (Trino's 32 MB). */
export function exchangeBufferBytes(nodeMemoryBytes: number): number {
  return Math.min(32 * MB, Math.max(4 * MB, Math.floor(nodeMemoryBytes / 64 / MB) * MB));
}

export interface NodeMemorySettings {
  /** memory.nodeMemory. */
  nodeMemoryBytes: number;
  /** task.maxWorkerThreads. */
  workerThreads: number;
  /** Whether a tpch catalog may be read (its text pool). */
  tpch: boolean;
}

/**
 * The resident memory a node holds its process to: the node memory, the main heap's headroom beside
 * it (see heapNeededFor), each thread's own overhead (the worker threads' and the main one's), the
 * process's base, and the text pool when a tpch catalog is configured.
 */
export function residentMemoryLimit(settings: NodeMemorySettings): number {
  const threads = Math.max(1, settings.workerThreads);
  return (
    heapNeededFor(settings.nodeMemoryBytes) +
    (threads + 1) * PER_THREAD_OVERHEAD_BYTES +
    PROCESS_BASE_BYTES +
    (settings.tpch ? TPCH_TEXT_POOL_BYTES : 0)
  );
}

/**
 * What an idle node comes back to once its worker threads stopped (task.workerThreadIdleTimeout):
 * the process's base, the main heap's headroom (the server's own memory), and the text pool.
 */
export function idleResidentBytes(settings: NodeMemorySettings): number {
  return (
    heapNeededFor(settings.nodeMemoryBytes) - settings.nodeMemoryBytes + PROCESS_BASE_BYTES + (settings.tpch ? TPCH_TEXT_POOL_BYTES : 0)
  );
}

/**
 * Room above the resident limit for what a node allocates before its guard fails a query: between
 * two looks (100 ms apart) and while the threads collect their garbage (100 ms). Measured: a loop
 * allocating 1 MB buffers as fast as it can went some 200 MB past the limit.
 */
export const RESIDENT_MARGIN_FRACTION = 0.125;
export const MIN_RESIDENT_MARGIN_BYTES = 256 * MB;

/** The container memory (limit and request) that holds a node with these settings: its resident limit and the margin. */
export function containerMemoryBytes(settings: NodeMemorySettings): number {
  const limit = residentMemoryLimit(settings);
  return Math.ceil((limit + Math.max(MIN_RESIDENT_MARGIN_BYTES, limit * RESIDENT_MARGIN_FRACTION)) / MB) * MB;
}
