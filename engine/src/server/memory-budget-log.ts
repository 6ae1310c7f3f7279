// The line a node logs at start about its memory: what its settings give (see config/memory-budget),
// and, where glibc's allocator runs with its defaults, that the process will keep memory it freed.

import { formatDataSize } from '../config/data-size.js';
import { heapLimitBytes } from '../config/heap-limit.js';
import {
  ALLOCATOR_ENV,
  idleResidentBytes,
  residentMemoryLimit,
  workerThreadHeapBytes,
  type NodeMemorySettings,
} from '../config/memory-budget.js';

export function memoryBudgetLog(settings: NodeMemorySettings, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const log: Record<string, unknown> = {
    nodeMemory: formatDataSize(settings.nodeMemoryBytes),
    heap: formatDataSize(heapLimitBytes()),
    workerThreads: settings.workerThreads,
    workerThreadHeap: formatDataSize(workerThreadHeapBytes(settings.nodeMemoryBytes, settings.workerThreads)),
    residentLimit: formatDataSize(residentMemoryLimit(settings)),
    idleResident: formatDataSize(idleResidentBytes(settings)),
  };
  if (allocatorKeepsFreedMemory(env)) {
    log.allocator = `glibc's defaults keep freed memory in the process; start it with ${Object.entries(ALLOCATOR_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`;
  }
  return log;
}

/** On Linux, unless the allocator settings are there or another allocator is preloaded. */
function allocatorKeepsFreedMemory(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== 'linux') return false;
  if (/malloc/.test(env.LD_PRELOAD ?? '')) return false;
  return Object.keys(ALLOCATOR_ENV).some((name) => env[name] === undefined);
}
