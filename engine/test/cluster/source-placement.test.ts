// Where the SOURCE stages' tasks go (coordinator/scheduler/source-placement.ts): the stages of most
// splits first, each on the rotation of the nodes that evens out the splits every node starts with.

import { expect } from 'chai';
import { balancedRotations } from '../../src/coordinator/scheduler/source-placement.js';

/** The splits each node starts with, once every stage's task i is on node (i + offset) mod nodes. */
function loads(shares: number[][], offsets: number[], nodes: number): number[] {
  const out = new Array<number>(nodes).fill(0);
  shares.forEach((s, k) => s.forEach((share, i) => (out[(i + offsets[k]) % nodes] += share)));
  return out;
}

describe('SOURCE stage placement by splits', () => {
  it("puts TPC-H q11's two partsupp stages' larger shares on different nodes, whatever stages lie between", () => {
    // Bottom-up: partsupp (3 splits over 2 tasks), supplier (1 task), partsupp, supplier.
    const shares = [[2, 1], [1], [2, 1], [1]];
    const offsets = balancedRotations(shares, 2, [0, 0, 0, 0]);
    expect(offsets[0]).to.not.equal(offsets[2]);
    expect(loads(shares, offsets, 2)).to.deep.equal([4, 4]);
  });

  it('places the larger stages first, and a stage of equal shares anywhere', () => {
    const shares = [[1], [8, 8], [3, 2], [1]];
    const offsets = balancedRotations(shares, 2, [0, 0, 0, 0]);
    expect(loads(shares, offsets, 2)).to.deep.equal([12, 11]);
    expect(offsets[1]).to.equal(0);
  });

  it("keeps each stage's turn round the nodes when no other rotation does better", () => {
    expect(balancedRotations([[2, 1]], 2, [1])).to.deep.equal([1]);
    expect(balancedRotations([[1], [1]], 3, [2, 1])).to.deep.equal([2, 1]);
  });

  it('spreads one-task stages over three nodes', () => {
    const shares = [[1], [1], [1], [2, 2, 1]];
    expect(Math.max(...loads(shares, balancedRotations(shares, 3, [0, 0, 0, 0]), 3))).to.equal(3);
  });
});
