// The long-task log (ENGINE_LONG_TASK_MILLIS, read when the process starts): an operator's stretch of
// synchronous work longer than the threshold is logged with the operator and its phase; a stretch as
// long that is mostly an announced wait (a turn of the loop, a page from elsewhere) is not.

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RECORDER = new URL('../../src/exec/stats/operator-recorder.js', import.meta.url).href;
const MEMORY = new URL('../../src/exec/memory.js', import.meta.url).href;
const MONITOR = new URL('../../src/server/event-loop-delay.js', import.meta.url).href;
const HEAP_GUARD = new URL('../../src/process/heap-guard.js', import.meta.url).href;

/** Runs `body` (with `recorder`, named `op`, and `busy(ms)` in scope) in a process with the log on; returns the log's lines. */
function logOf(body: string, thresholdMillis: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'long-task-log-'));
  const file = join(dir, 'log');
  try {
    const script = `
      import { OperatorRecorder } from '${RECORDER}';
      import { MemoryContext } from '${MEMORY}';
      import { EventLoopDelayMonitor } from '${MONITOR}';
      import { collectGarbageNow } from '${HEAP_GUARD}';
      const recorder = new OperatorRecorder(7, new MemoryContext('test', 1 << 30), { cpuTimeMillis: 0 });
      recorder.named('op');
      const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
      ${body}`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ENGINE_LONG_TASK_MILLIS: String(thresholdMillis), ENGINE_LONG_TASK_LOG: file },
    });
    return readFileSync(file, { encoding: 'utf8', flag: 'a+' })
      .split('\n')
      .filter((l) => l !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('long-task log', () => {
  it('logs a stretch of synchronous work over the threshold, with its operator and phase', () => {
    const lines = logOf(`recorder.input(5000, 1); recorder.start('addInput'); busy(300); recorder.stop();`, 200);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/ms op addInput \(plan node 7, last input page 5000 rows\)$/);
  });

  it('stamps each line with the time and names the kind of a garbage collection that paused the loop', () => {
    // A full collection of a heap with something in it takes more than the threshold's microsecond.
    const lines = logOf(
      `const monitor = new EventLoopDelayMonitor();
       let garbage = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 100 }, (_, j) => i * j));
       garbage = [];
       collectGarbageNow();
       await new Promise((r) => setImmediate(r));
       await new Promise((r) => setImmediate(r));
       monitor.close();`,
      0.001,
    );
    expect(lines.some((l) => /^\d{4}-\d\d-\d\dT[\d:.]+Z long task: pid \d+ [\d.]+ ms garbage collector \(major\)$/.test(l))).to.equal(
      true,
      lines.join('\n'),
    );
  });

  it('does not log a stretch whose length is an announced wait', () => {
    const lines = logOf(
      `recorder.start('getOutput'); await recorder.blockedOn(new Promise((r) => setTimeout(r, 600))); recorder.stop();`,
      200,
    );
    expect(lines).to.deep.equal([]);
  });
});
