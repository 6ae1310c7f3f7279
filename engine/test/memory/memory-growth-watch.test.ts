// A context's growth watch: called when the reservation first reaches the threshold and at each
// doubling after it (through a child's reservations too), not for every reservation.

import { expect } from 'chai';
import { MemoryContext } from '../../src/exec/memory.js';

describe('memory growth watch', () => {
  it('calls back at the threshold and at each doubling, once per crossing', () => {
    const task = MemoryContext.nodePool(1 << 30)
      .child('query')
      .child('task');
    const calls: number[] = [];
    task.watchGrowth(1000, () => calls.push(task.reservedBytes));
    const operator = task.child('operator');
    operator.reserve(999);
    expect(calls).to.deep.equal([]);
    operator.reserve(1);
    expect(calls).to.deep.equal([1000]);
    operator.reserve(999);
    expect(calls).to.deep.equal([1000]);
    // One reservation past several doublings calls once, and the next threshold is past it.
    operator.reserve(7000);
    expect(calls).to.deep.equal([1000, 8999]);
    operator.free(8000);
    operator.reserve(7000);
    expect(calls).to.deep.equal([1000, 8999]);
    operator.reserve(8000);
    expect(calls).to.deep.equal([1000, 8999]);
    operator.reserve(1);
    expect(calls).to.deep.equal([1000, 8999, 16000]);
    operator.close();
  });
});
