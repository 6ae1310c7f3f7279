// A cancel that arrives while a write commits waits for the commit: dropped if it landed (the
// client is then told the truth, that the write happened), carried out if it failed.

import { expect } from 'chai';
import { CancelHold } from '../../src/coordinator/cancel-hold.js';

describe('cancels held while a write commits', () => {
  it('cancels at once when nothing is held', () => {
    const hold = new CancelHold();
    let cancelled = false;
    hold.request(() => (cancelled = true));
    expect(cancelled).to.equal(true);
  });

  it('drops a cancel that came during a commit that succeeded', async () => {
    const hold = new CancelHold();
    let cancelled = false;
    const committed = await hold.hold(async () => {
      hold.request(() => (cancelled = true));
      await new Promise((r) => setTimeout(r, 10));
      expect(cancelled, 'not while the commit runs').to.equal(false);
      return 'committed';
    });
    expect([committed, cancelled]).to.deep.equal(['committed', false]);
    hold.request(() => (cancelled = true));
    expect(cancelled, 'a later cancel is not held').to.equal(true);
  });

  it('carries out a cancel that came during a commit that failed, once it failed', async () => {
    const hold = new CancelHold();
    let cancelled = false;
    const outcome = await hold
      .hold(async () => {
        hold.request(() => (cancelled = true));
        throw new Error('commit failed');
      })
      .catch((e: Error) => e.message);
    expect([outcome, cancelled]).to.deep.equal(['commit failed', true]);
  });
});
