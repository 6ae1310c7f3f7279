// The heap and resident-memory guard runs on one timer per node (the root context's), only while
// something is reserved. A timer per query, task or operator context that outlived its reservations
// once piled up over thousands of queries, each reading the process's resident size ten times a
// second, until the event loop did little else.

import { expect } from 'chai';
import { MemoryContext } from '../../src/exec/memory.js';

describe('memory guard timer', () => {
  it('runs on the root alone while anything is reserved, and stops when everything is freed', () => {
    const node = MemoryContext.nodePool(1024 ** 3);
    const query = node.child('query');
    const task = query.child('task');
    const operators = [task.child('scan'), task.child('join')];
    for (const operator of operators) operator.reserve(1000);
    expect(node.guarding).to.equal(true);
    expect([query, task, ...operators].map((c) => c.guarding)).to.deep.equal([false, false, false, false]);
    operators[0].free(1000);
    expect(node.guarding).to.equal(true);
    operators[1].close();
    expect([node, query, task, ...operators].map((c) => c.guarding)).to.deep.equal([false, false, false, false, false]);
  });

  it('leaves no timer behind after many queries', () => {
    const node = MemoryContext.nodePool(1024 ** 3);
    const queries: MemoryContext[] = [];
    for (let i = 0; i < 1000; i++) {
      const query = node.child(`query ${i}`);
      const operator = query.child('task').child('aggregation');
      operator.reserve(64);
      operator.reserve(64);
      operator.free(128);
      queries.push(query);
    }
    expect(node.guarding).to.equal(false);
    expect(queries.filter((q) => q.guarding)).to.have.length(0);
  });
});
