// Run as a child process with a small V8 heap by heap-guard.test: two queries' memory contexts under
// a node context; the "small" one keeps allocating real heap (strings) while reserving almost
// nothing, so only the heap guard can stop it. Prints one JSON line per event the guard caused.

import { MemoryContext } from '../../src/exec/memory.js';
import type { EngineError } from '../../src/errors/engine-error.js';

const node = MemoryContext.nodePool(Number.MAX_SAFE_INTEGER);
const big = node.child('big');
const small = node.child('small');
let revoked: EngineError | undefined;
big.onRevoke((e) => (revoked = e));
big.reserve(40 * 1024 * 1024);

const held: string[][] = [];
try {
  for (let i = 0; i < 100_000; i++) {
    held.push(Array.from({ length: 10_000 }, (_, j) => `row ${i} ${j} ${'x'.repeat(20)}`));
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
