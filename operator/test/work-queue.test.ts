import { expect } from 'chai';
import { WorkQueue, type Reconcile } from '../src/controller/work-queue.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not reached in time');
    await sleep(5);
  }
}

function queue(reconcile: Reconcile, errors: unknown[] = []) {
  return new WorkQueue(reconcile, {
    concurrency: 4,
    baseDelayMs: 20,
    maxDelayMs: 80,
    onError: (_k, err, retryInMs) => errors.push([String(err), retryInMs]),
  });
}

describe('the work queue', () => {
  it('reconciles a key once for many events, never twice at once, and again after an event during its reconcile', async () => {
    const runs: string[] = [];
    let running = 0;
    let overlap = false;
    let release!: () => void;
    const q = queue(async (key) => {
      running++;
      if (running > 1) overlap = true;
      runs.push(key);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      running--;
      return {};
    });
    q.add('ns/a');
    await until(() => runs.length === 1);
    for (let i = 0; i < 5; i++) q.add('ns/a');
    release();
    await until(() => runs.length === 2);
    await sleep(30);
    expect(runs).to.deep.equal(['ns/a', 'ns/a']);
    expect(overlap).to.equal(false);
    await q.stop();
  });

  it('retries a failing key with a delay that doubles up to the maximum, and forgets the failures after a success', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const q = queue(async () => {
      calls++;
      if (calls <= 4) throw new Error(`failure ${calls}`);
      return {};
    }, errors);
    q.add('k');
    await until(() => calls === 5);
    expect(errors).to.deep.equal([
      ['Error: failure 1', 20],
      ['Error: failure 2', 40],
      ['Error: failure 3', 80],
      ['Error: failure 4', 80],
    ]);
    expect(q.failureCount('k')).to.equal(0);
    await q.stop();
  });

  it('runs a key again when its reconcile asks to, and stop() waits for the reconcile under way', async () => {
    let calls = 0;
    let finished = 0;
    const q = queue(async () => {
      calls++;
      await sleep(20);
      finished++;
      return { requeueAfterMs: 10 };
    });
    q.add('k');
    await until(() => calls >= 3);
    await q.stop();
    expect(finished).to.equal(calls);
    const after = calls;
    await sleep(50);
    expect(calls).to.equal(after);
  });
});
