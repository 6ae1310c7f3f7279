// A CPU profile's busy stretches: runs of samples with no idle one between, longest first, each
// with its frames of most self time and the engine frames it spent time under.

import { expect } from 'chai';
import { busyStretches, type CallTreeProfile } from '../../scripts/bench/profile-stretches.js';

const ENGINE = 'file:///x/engine/dist/src/exec/operators/hash-aggregation.js';
const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 9 });
// root -> (idle); root -> hashAggregation (engine) -> rehash (engine) ; root -> (garbage collector)
const PROFILE: CallTreeProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 5] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('hashAggregation', ENGINE), children: [4] },
    { id: 4, callFrame: frame('rehash', ENGINE) },
    { id: 5, callFrame: frame('(garbage collector)') },
  ],
  // idle, a 3-sample stretch (30 ms), idle, a 1-sample stretch (5 ms)
  samples: [2, 3, 4, 5, 2, 3, 2],
  timeDeltas: [1000, 10_000, 15_000, 5000, 2000, 5000, 1000],
};

describe('profile busy stretches', () => {
  it('finds the runs without an idle sample, longest first, with self and engine frames', () => {
    const stretches = busyStretches(PROFILE, 1);
    expect(stretches.map((s) => [s.startMillis, s.millis])).to.deep.equal([
      [1, 30],
      [33, 5],
    ]);
    expect(stretches[0].self).to.deep.equal([
      { frame: 'rehash (src/exec/operators/hash-aggregation.js:10)', millis: 15 },
      { frame: 'hashAggregation (src/exec/operators/hash-aggregation.js:10)', millis: 10 },
      { frame: '(garbage collector)', millis: 5 },
    ]);
    expect(stretches[0].engine).to.deep.equal([
      { frame: 'hashAggregation (src/exec/operators/hash-aggregation.js:10)', millis: 25 },
      { frame: 'rehash (src/exec/operators/hash-aggregation.js:10)', millis: 15 },
    ]);
  });

  it('leaves out stretches shorter than asked', () => {
    expect(busyStretches(PROFILE, 10).map((s) => s.millis)).to.deep.equal([30]);
  });
});
