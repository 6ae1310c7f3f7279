// Cooperative yielding: pipelines that yield share the event loop's turns. At most one of them
// resumes for a slice per turn of the loop, so timers and I/O run between any two slices, however
// many pipelines are busy; and they get their slices in turn.

import { expect } from 'chai';
import { yieldIfDue } from '../../src/columnar/cooperative.js';

/** Work that holds the thread for `millis`, so that a turn is due after it. */
function busyFor(millis: number): void {
  const until = performance.now() + millis;
  while (performance.now() < until) {
    // spinning
  }
}

describe('cooperative yielding', () => {
  it('resumes one yielding pipeline per turn of the event loop, each in turn', async () => {
    // Counts the loop's turns: an immediate scheduled from an immediate runs in the next turn.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const slices: Array<{ pipeline: number; turn: number }> = [];
    const pipeline = async (id: number) => {
      for (let round = 0; round < 4; round++) {
        await yieldIfDue();
        slices.push({ pipeline: id, turn });
        busyFor(12);
      }
    };
    // A slice is due already, so every pipeline waits for a turn from its first page on.
    busyFor(12);
    try {
      await Promise.all([0, 1, 2].map(pipeline));
    } finally {
      counting = false;
    }
    const turns = slices.map((s) => s.turn);
    expect(slices).to.have.length(12);
    expect(new Set(turns).size, `turns ${turns.join(',')}`).to.equal(12);
    expect(slices.map((s) => s.pipeline)).to.deep.equal([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
  });
});
