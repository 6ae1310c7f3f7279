// The memory guard's reading of the process's resident size (process/resident-memory.ts): the same
// figure as Node's own (process.memoryUsage.rss()), following the process as it grows; and how long a
// reservation's check may go without reading it, by how far below its bound the process was.

import { expect } from 'chai';
import { MAX_RESIDENT_READ_INTERVAL_MILLIS, residentBytes, residentReadIntervalMillis } from '../../src/process/resident-memory.js';

const MB = 1024 * 1024;

describe('resident memory reading', () => {
  it("agrees with Node's resident size and follows the process as it touches fresh memory", () => {
    const before = residentBytes();
    expect(Math.abs(before - process.memoryUsage.rss())).to.be.below(8 * MB);
    const held = Buffer.allocUnsafeSlow(128 * MB).fill(7);
    const after = residentBytes();
    expect(Math.abs(after - process.memoryUsage.rss())).to.be.below(8 * MB);
    expect(after - before).to.be.above(96 * MB);
    expect(held[held.length - 1]).to.equal(7);
  });

  it('is read at every check at or over the bound, and at most a timer period apart far below it', () => {
    expect(residentReadIntervalMillis(-MB)).to.equal(0);
    expect(residentReadIntervalMillis(0)).to.equal(0);
    expect(residentReadIntervalMillis(MB)).to.equal(0);
    const near = residentReadIntervalMillis(64 * MB);
    expect(near).to.be.above(0).and.below(MAX_RESIDENT_READ_INTERVAL_MILLIS);
    expect(residentReadIntervalMillis(128 * MB)).to.be.above(near);
    expect(residentReadIntervalMillis(64 * 1024 * MB)).to.equal(MAX_RESIDENT_READ_INTERVAL_MILLIS);
  });
});
