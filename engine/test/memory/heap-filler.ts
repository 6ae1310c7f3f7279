// Run as a child process by heap-guard.test: two queries' memory contexts under a node context; the
// "small" one keeps allocating real memory while reserving almost nothing, so only the guard can
// stop it. `heap` (the default, with a small V8 heap) allocates strings on the heap; `resident`
// allocates buffers outside it, against a resident bound 128 MB above what the process holds at the
// start. Prints one JSON line per event the guard caused.

import { guardResidentMemory } from '../../src/process/heap-guard.js';
import { MemoryContext } from '../../src/exec/memory.js';
import type { EngineError } from '../../src/errors/engine-error.js';

const residentMode = process.argv[2] === 'resident';
if (residentMode) guardResidentMemory(process.memoryUsage.rss() + 128 * 1024 * 1024, () => undefined);
const MB = 1024 * 1024;

const node = MemoryContext.nodePool(Number.MAX_SAFE_INTEGER);
const big = node.child('big');
const small = node.child('small');
let revoked: EngineError | undefined;
big.onRevoke((e) => (revoked = e));
big.reserve(40 * 1024 * 1024);

const held: unknown[] = [];
try {
  for (let i = 0; i < 100_000; i++) {
    held.push(residentMode ? Buffer.alloc(MB, i) : Array.from({ length: 10_000 }, (_, j) => `row ${i} ${j} ${'x'.repeat(20)}`));
    if (revoked !== undefined) {
      // The revoked query gives its memory back, as a failed query does.
      console.log(JSON.stringify({ revoked: revoked.errorName, message: revoked.message }));
      revoked = undefined;
      held.length = 0;
      big.close();
    }
    small.reserve(1024);
  }
  console.log(JSON.stringify({ finished: true }));
} catch (e) {
  held.length = 0;
  const error = e as EngineError;
  console.log(JSON.stringify({ thrown: error.errorName, message: error.message }));
}
