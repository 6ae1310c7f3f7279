// The event loop's figures in GET /v1/status carry the garbage collector's pauses of the same window,
// so that a stall can be laid at the collector's door or not.

import { expect } from 'chai';
import { EventLoopDelayMonitor } from '../../src/server/event-loop-delay.js';
import { collectGarbageNow } from '../../src/process/heap-guard.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('event-loop delay monitor', () => {
  it('counts the garbage collections of its window, their time and the longest', async () => {
    const monitor = new EventLoopDelayMonitor();
    try {
      const before = monitor.sample();
      // Something to collect, then two full collections; the observer hears of them a turn later.
      let garbage: number[][] = [];
      for (let i = 0; i < 2000; i++) garbage.push(Array.from({ length: 100 }, (_, j) => i * j));
      garbage = [];
      collectGarbageNow();
      collectGarbageNow();
      await nextTurn();
      await nextTurn();
      const after = monitor.sample();
      expect(after.gcPauses - before.gcPauses).to.be.at.least(2);
      expect(after.gcPauseMillis).to.be.greaterThan(before.gcPauseMillis);
      expect(after.gcPauseMaxMillis).to.be.greaterThan(0);
      expect(after.gcPauseMaxMillis).to.be.at.most(after.gcPauseMillis);
      expect(garbage).to.have.length(0);
    } finally {
      monitor.close();
    }
  });
});
