// Servers scavenge without V8's helper threads unless the node was started asking for them.

import { expect } from 'chai';
import { scavengeWithoutHelpers } from '../../src/process/young-generation-gc.js';

describe('young generation collection', () => {
  it('turns parallel scavenging off, unless node was started with --parallel-scavenge', () => {
    expect(scavengeWithoutHelpers(['--parallel-scavenge'])).to.equal(false);
    expect(scavengeWithoutHelpers(['--max-semi-space-size=16'])).to.equal(true);
  });
});
