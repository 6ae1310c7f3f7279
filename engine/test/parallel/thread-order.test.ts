// The pool hands a scan its threads in the pool's order whatever their load, so that a memory
// table's i-th split goes to the same thread from run to run and finds its decoded strings cached.

import { expect } from 'chai';
import { leastLoadedInOrder } from '../../src/exec/threads/thread-pool.js';

describe('threads for a scan', () => {
  const threads = [
    { name: 'a', load: 2 },
    { name: 'b', load: 0 },
    { name: 'c', load: 1 },
  ];
  const names = (picked: readonly { name: string }[]) => picked.map((t) => t.name);

  it('keeps the pool order when every thread is taken, however loaded', () => {
    expect(names(leastLoadedInOrder(threads, 3))).to.deep.equal(['a', 'b', 'c']);
    expect(names(leastLoadedInOrder(threads, 5))).to.deep.equal(['a', 'b', 'c']);
  });

  it('takes the least loaded, still in the pool order', () => {
    expect(names(leastLoadedInOrder(threads, 2))).to.deep.equal(['b', 'c']);
    expect(names(leastLoadedInOrder(threads, 1))).to.deep.equal(['b']);
  });

  it('takes the first of equally loaded threads', () => {
    const idle = [
      { name: 'x', load: 0 },
      { name: 'y', load: 0 },
    ];
    expect(names(leastLoadedInOrder(idle, 1))).to.deep.equal(['x']);
  });
});
