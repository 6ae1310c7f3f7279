// The per-thread pool of freed hash-table buffers: what comes back is reused, filled as asked, held
// within its cap, freed when idle or when memory runs short, and counted in the node's memory.

import { expect } from 'chai';
import {
  BufferPool,
  bufferPool,
  MIN_POOLED_BYTES,
  pooledInt32Array,
  pooledUint8Array,
  releasePooled,
  watchWorkerThreadPools,
} from '../../src/exec/buffer-pool.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { relieveMemoryPressure } from '../../src/process/heap-guard.js';
import { IntegerGroupByHash } from '../../src/exec/hash/integer-group-by-hash.js';
import { BIGINT } from '../../src/types/types.js';

const MB = 1024 * 1024;

describe('BufferPool', () => {
  afterEach(() => bufferPool().clear());

  it('hands a given buffer back for a request of its size class, once', () => {
    const pool = new BufferPool(64 * MB, 60_000);
    const { buffer } = pool.take(3 * MB);
    expect(buffer.byteLength).to.equal(4 * MB);
    pool.give(buffer);
    pool.give(buffer);
    expect(pool.heldBytes).to.equal(4 * MB);
    const again = pool.take(4 * MB - 1);
    expect(again.buffer).to.equal(buffer);
    expect(again.fresh).to.equal(false);
    expect(pool.heldBytes).to.equal(0);
    expect(pool.take(3 * MB).buffer).to.not.equal(buffer);
    expect(pool.counts).to.deep.equal({ takes: 3, reuses: 1 });
  });

  it('neither pools small buffers nor holds ones of no size class', () => {
    const pool = new BufferPool(64 * MB, 60_000);
    const small = pool.take(MIN_POOLED_BYTES - 1).buffer;
    expect(small.byteLength).to.equal(MIN_POOLED_BYTES - 1);
    pool.give(small);
    pool.give(new ArrayBuffer(3 * MB));
    expect(pool.heldBytes).to.equal(0);
  });

  it('fills a reused buffer as asked: the fill value, zeros, or (unspecified) as it was', () => {
    const dirty = pooledInt32Array(MB, 7);
    expect(dirty.every((v) => v === 7)).to.equal(true);
    releasePooled(dirty);
    const filled = pooledInt32Array(MB, -1);
    expect(filled.buffer).to.equal(dirty.buffer);
    expect(filled.every((v) => v === -1)).to.equal(true);
    releasePooled(filled);
    const zeroed = pooledInt32Array(MB - 5, 0);
    expect(zeroed.buffer).to.equal(dirty.buffer);
    expect(zeroed.length).to.equal(MB - 5);
    expect(zeroed.every((v) => v === 0)).to.equal(true);
    zeroed.fill(3);
    releasePooled(zeroed);
    const bytes = pooledUint8Array(4 * MB);
    expect(bytes.buffer).to.equal(dirty.buffer);
    expect(bytes.every((v) => v === 0)).to.equal(true);
  });

  it('holds at most its cap, freeing the smallest buffers first; 0 switches it off', () => {
    const pool = new BufferPool(10 * MB, 60_000);
    for (const bytes of [2 * MB, 4 * MB, 8 * MB]) pool.give(new ArrayBuffer(bytes));
    expect(pool.heldBytes).to.equal(8 * MB);
    expect(pool.take(8 * MB).fresh).to.equal(false);
    pool.give(new ArrayBuffer(16 * MB));
    expect(pool.heldBytes).to.equal(0);
    pool.configure(0, 60_000);
    pool.give(new ArrayBuffer(2 * MB));
    expect(pool.heldBytes).to.equal(0);
    expect(pool.take(2 * MB).fresh).to.equal(true);
  });

  it('frees what it holds after the idle time', async () => {
    const pool = new BufferPool(64 * MB, 20);
    pool.give(new ArrayBuffer(2 * MB));
    expect(pool.heldBytes).to.equal(2 * MB);
    while (pool.heldBytes > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.heldBytes).to.equal(0);
  });

  it("empties this thread's pool when memory is short (the heap guard's relief)", () => {
    releasePooled(pooledInt32Array(MB, 0));
    expect(bufferPool().heldBytes).to.equal(4 * MB);
    relieveMemoryPressure();
    expect(bufferPool().heldBytes).to.equal(0);
  });

  it("counts in the node's memory: a reservation that needs the pooled bytes frees them, and is refused only past the node's limit", () => {
    const node = MemoryContext.nodePool(32 * MB);
    const query = node.child('query');
    releasePooled(pooledInt32Array(2 * MB, 0));
    expect(bufferPool().heldBytes).to.equal(8 * MB);
    query.reserve(20 * MB);
    expect(bufferPool().heldBytes).to.equal(8 * MB);
    query.reserve(8 * MB);
    expect(bufferPool().heldBytes).to.equal(0);
    expect(() => query.reserve(8 * MB)).to.throw(/EXCEEDED|per-node memory limit/);
    query.close();
  });

  it("asks the worker threads to free their pools when the node's memory may need their room", () => {
    let asked = 0;
    watchWorkerThreadPools(8 * MB, () => asked++);
    try {
      const query = MemoryContext.nodePool(32 * MB).child('query');
      query.reserve(20 * MB);
      expect(asked).to.equal(0);
      query.reserve(8 * MB);
      expect(asked).to.equal(1);
      query.close();
    } finally {
      watchWorkerThreadPools(0, () => {});
    }
  });

  it("counts a pooled array's whole buffer in the table's size, and gives it back on release", () => {
    // 300,000 groups: 2^20 slots of two words (8MB), key words in the 4MB class, NULL bits below the pooled size.
    const table = new IntegerGroupByHash([BIGINT], 300_000);
    expect(table.sizeInBytes()).to.equal(8 * MB + 4 * MB + 300_000);
    table.release();
    expect(bufferPool().heldBytes).to.equal(12 * MB);
  });
});
