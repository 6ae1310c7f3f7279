// The heap guard, on a real V8 heap: a child process with a 64 MB old generation fills it with
// memory its accounting does not see. Without the guard V8 kills the process ("JavaScript heap out
// of memory"); with it, the query holding the most memory is revoked, then the one still
// allocating fails with EXCEEDED_LOCAL_MEMORY_LIMIT, and the process ends normally. The same for the
// process's resident memory, filled with buffers outside the heap (where no heap limit stops them).

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ALLOCATOR_ENV, SEMI_SPACE_FLAG } from '../../src/config/memory-budget.js';

const FILLER = fileURLToPath(new URL('./heap-filler.js', import.meta.url));

describe('heap guard', function () {
  this.timeout(60_000);

  it('fails queries with EXCEEDED_LOCAL_MEMORY_LIMIT before V8 runs out of heap, the largest first', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', SEMI_SPACE_FLAG, FILLER], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).to.not.contain('heap out of memory');
    expect(code).to.equal(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(events[0].revoked).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(events[0].message).to.match(
      /heap is nearly full \(.* used of 64\.00MB\) and this query holds the most memory \[Allocated: 40\.00MB\]/,
    );
    expect(events[1].thrown).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(events).to.have.length(2);
  });

  it('fails queries the same way when the process holds more than its resident bound', async () => {
    const child = spawn(process.execPath, [FILLER, 'resident'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...ALLOCATOR_ENV },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).to.equal(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(events[0].revoked).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(events[0].message).to.match(
      /the node's process holds .+, over its bound of .+ and this query holds the most memory \[Allocated: 40\.00MB\]/,
    );
    expect(events[1].thrown).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(events[1].message).to.match(/over its bound of/);
    expect(events).to.have.length(2);
  });
});
