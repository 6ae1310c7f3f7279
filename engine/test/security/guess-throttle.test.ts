// The slow-down of password guessing, on a clock the test drives: failures of one user make that
// user's next failures wait longer, a correct password never waits, another user is not affected,
// and too many checks of one user in progress at once are refused with 429.

import { expect } from 'chai';
import { GuessThrottle, type ThrottleClock } from '../../src/security/authentication/guess-throttle.js';
import { HttpError } from '../../src/errors/http-error.js';

class TestClock implements ThrottleClock {
  readonly sleeps: number[] = [];
  private readonly pending: Array<() => void> = [];
  at = 1_000_000;
  now = () => this.at;
  sleep = (millis: number) => {
    this.sleeps.push(millis);
    return new Promise<void>((resolve) => this.pending.push(resolve));
  };
  wakeAll(): void {
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

describe('password guessing slow-down', () => {
  const wrong = async () => false;
  const right = async () => true;

  it('delays failures of a user more and more after two free ones, and never a correct password', async () => {
    const clock = new TestClock();
    const throttle = new GuessThrottle(clock);
    for (let i = 0; i < 5; i++) {
      const attempt = throttle.check('alice', '10.0.0.1', wrong);
      await Promise.resolve();
      clock.wakeAll();
      expect(await attempt).to.equal(false);
      await new Promise((resolve) => setImmediate(resolve));
      clock.wakeAll();
    }
    expect(clock.sleeps).to.deep.equal([100, 200, 400]);
    expect(await throttle.check('alice', '10.0.0.2', right)).to.equal(true);
    expect(await throttle.check('bob', '10.0.0.1', wrong)).to.equal(false);
    // bob's first failure is free; alice's success forgot her failures.
    expect(clock.sleeps).to.deep.equal([100, 200, 400]);
    expect(throttle.failures('alice')).to.equal(0);
    expect(throttle.failures('bob')).to.equal(1);
  });

  it('refuses a fifth check in progress of a user who failed recently with 429, while another user is checked', async () => {
    const clock = new TestClock();
    const throttle = new GuessThrottle(clock);
    expect(await throttle.check('carol', '10.0.0.9', wrong)).to.equal(false);
    // Parallel first requests of a user without failures are not capped at four.
    let releaseFirst!: () => void;
    const first = new Promise<boolean>((resolve) => (releaseFirst = () => resolve(true)));
    const parallel = Array.from({ length: 8 }, () => throttle.check('erin', '10.0.0.5', () => first));
    releaseFirst();
    expect(await Promise.all(parallel)).to.deep.equal(Array(8).fill(true));
    let release!: () => void;
    const held = new Promise<boolean>((resolve) => (release = () => resolve(false)));
    const inProgress = Array.from({ length: 4 }, () => throttle.check('carol', '10.0.0.3', () => held));
    const refused = await throttle.check('carol', '10.0.0.4', right).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(HttpError);
    expect((refused as HttpError).status).to.equal(429);
    expect(await throttle.check('dave', '10.0.0.3', right)).to.equal(true);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    clock.wakeAll();
    expect(await Promise.all(inProgress)).to.deep.equal([false, false, false, false]);
  });
});
