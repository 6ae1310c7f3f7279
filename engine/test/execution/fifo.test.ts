// The first-in first-out queue of split queues and parallel scans: items come out in the order they
// went in, from the front (shift) or the back (pop), across the compactions that drop taken items.

import { expect } from 'chai';
import { Fifo } from '../../src/exec/fifo.js';

describe('Fifo', () => {
  it('gives its items back in order, interleaved with pushes, across compactions', () => {
    const fifo = new Fifo<number>();
    const out: number[] = [];
    let next = 0;
    // Push 3, take 2, many times over: the queue grows slowly while far more items pass through it.
    for (let round = 0; round < 5000; round++) {
      for (let i = 0; i < 3; i++) fifo.push(next++);
      for (let i = 0; i < 2; i++) out.push(fifo.shift()!);
    }
    expect(fifo.length).to.equal(5000);
    for (let item = fifo.shift(); item !== undefined; item = fifo.shift()) out.push(item);
    expect(out).to.deep.equal(Array.from({ length: next }, (_, i) => i));
    expect(fifo.length).to.equal(0);
    expect(fifo.shift()).to.equal(undefined);
  });

  it('pops from the back what shift has not taken', () => {
    const fifo = new Fifo<string>();
    for (const item of ['a', 'b', 'c', 'd']) fifo.push(item);
    expect(fifo.shift()).to.equal('a');
    expect(fifo.pop()).to.equal('d');
    expect(fifo.pop()).to.equal('c');
    expect(fifo.shift()).to.equal('b');
    expect(fifo.pop()).to.equal(undefined);
    fifo.push('e');
    expect([fifo.length, fifo.pop(), fifo.length]).to.deep.equal([1, 'e', 0]);
  });
});
