// EXCEEDED_LOCAL_MEMORY_LIMIT names the query's own reservation, as Trino's does ("Query exceeded
// per-node memory limit of X [Allocated: Y, Delta: Z, Top Consumers: {...}]"); when it is the node's
// memory that is full (other queries hold it), the message says so and gives both figures.

import { expect } from 'chai';
import type { EngineError } from '../../src/errors/engine-error.js';
import { MemoryContext } from '../../src/exec/memory.js';

const MB = 1024 * 1024;

/** A query's operator context under `node`: query -> task -> operator, the operator tagged as its type. */
function operator(query: MemoryContext, type: string): MemoryContext {
  const context = query.child('task 1').child(`operator ${type}`);
  context.tag = type;
  return context;
}

function errorOf(action: () => void): EngineError {
  try {
    action();
  } catch (e) {
    return e as EngineError;
  }
  throw new Error('no error');
}

describe('EXCEEDED_LOCAL_MEMORY_LIMIT message', () => {
  it("names the query's limit, its own reservation, the delta and its top consumers", () => {
    const node = MemoryContext.nodePool(1024 * MB);
    const query = node.child('query 1', 10 * MB);
    operator(query, 'hashAggregation').reserve(6 * MB);
    operator(query, 'OutputBuffer').reserve(3 * MB);
    const join = operator(query, 'hashJoin');
    const error = errorOf(() => join.reserve(2 * MB));
    expect(error.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(error.message).to.equal(
      'Query exceeded per-node memory limit of 10.00MB [Allocated: 9.00MB, Delta: 2.00MB, Top Consumers: {hashAggregation=6.00MB, OutputBuffer=3.00MB}]',
    );
    expect(query.reservedBytes).to.equal(9 * MB);
  });

  it('says when the node is full, naming both what all queries hold and what this query holds', () => {
    const node = MemoryContext.nodePool(16 * MB);
    const big = node.child('query 1', 1024 * MB);
    operator(big, 'hashAggregation').reserve(12 * MB);
    const small = node.child('query 2', 1024 * MB);
    const sort = operator(small, 'orderBy');
    sort.reserve(3 * MB);
    const error = errorOf(() => sort.reserve(2 * MB));
    expect(error.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(error.message).to.equal(
      "Query exceeded per-node memory limit: the node's memory of 16.00MB is full, all queries together holding 15.00MB [Allocated: 3.00MB, Delta: 2.00MB, Top Consumers: {orderBy=3.00MB}]",
    );
  });

  it('leaves the consumers out when the query holds nothing yet', () => {
    const node = MemoryContext.nodePool(1024 * MB);
    const query = node.child('query 1', MB);
    const error = errorOf(() => operator(query, 'hashJoin').reserve(2 * MB));
    expect(error.message).to.equal('Query exceeded per-node memory limit of 1.00MB [Allocated: 0B, Delta: 2.00MB]');
  });
});
