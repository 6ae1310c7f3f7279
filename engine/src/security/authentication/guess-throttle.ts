// Slows password guessing. Each failed password check is answered only after a delay that doubles
// with the recent failures of the user name and of the client address (after a few free ones), and
// once a user or an address failed recently, few of its checks may be in progress at once: more are
// refused with 429 at once. A correct password is never delayed, so other users, and the user with
// the right password, are not slowed by someone guessing.

import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError } from '../../errors/http-error.js';

interface Limits {
  freeFailures: number;
  maxInFlight: number;
}

const USER_LIMITS: Limits = { freeFailures: 2, maxInFlight: 4 };
const ADDRESS_LIMITS: Limits = { freeFailures: 20, maxInFlight: 32 };
/** Checks in progress at once for a user or address without recent failures (a client's parallel first requests). */
const MAX_IN_FLIGHT_WITHOUT_FAILURES = 64;
const BASE_DELAY_MILLIS = 100;
const MAX_DELAY_MILLIS = 5000;
/** Failures older than this are forgotten. */
const FORGET_AFTER_MILLIS = 10 * 60_000;
/** Bounds the memory an attacker cycling through names or addresses can take. */
const MAX_TRACKED = 100_000;

interface Record {
  failures: number;
  lastFailureAt: number;
  inFlight: number;
}

export interface ThrottleClock {
  now(): number;
  sleep(millis: number): Promise<void>;
}

const REAL_CLOCK: ThrottleClock = { now: Date.now, sleep: (millis) => sleep(millis).then(() => undefined) };

export class GuessThrottle {
  private readonly records = new Map<string, Record>();

  constructor(private readonly clock: ThrottleClock = REAL_CLOCK) {}

  /** Runs one password check of `user` from `address`; a failed check (check() false) is answered late. */
  async check(user: string, address: string, check: () => Promise<boolean>): Promise<boolean> {
    const keys: Array<[string, Limits]> = [
      [`user:${user}`, USER_LIMITS],
      [`address:${address}`, ADDRESS_LIMITS],
    ];
    const busy = keys.find(([key, limits]) => {
      const record = this.records.get(key);
      return record !== undefined && record.inFlight >= (record.failures > 0 ? limits.maxInFlight : MAX_IN_FLIGHT_WITHOUT_FAILURES);
    });
    if (busy !== undefined) {
      throw new HttpError(
        429,
        `Too many password checks in progress for this ${busy[0].startsWith('user:') ? 'user' : 'client address'}: try again later`,
        'TOO_MANY_AUTHENTICATION_ATTEMPTS',
      );
    }
    const records = keys.map(([key]) => this.record(key));
    for (const r of records) r.inFlight++;
    try {
      const ok = await check();
      if (ok) {
        this.records.delete(keys[0]![0]);
        return true;
      }
      const now = this.clock.now();
      for (const r of records) {
        if (now - r.lastFailureAt > FORGET_AFTER_MILLIS) r.failures = 0;
        r.failures++;
        r.lastFailureAt = now;
      }
      const delay = Math.max(...keys.map(([, limits], i) => delayAfter(records[i]!.failures, limits)));
      if (delay > 0) await this.clock.sleep(delay);
      return false;
    } finally {
      for (const r of records) r.inFlight--;
    }
  }

  /** The recent failed checks of a user. */
  failures(user: string): number {
    return this.records.get(`user:${user}`)?.failures ?? 0;
  }

  private record(key: string): Record {
    let record = this.records.get(key);
    if (record === undefined) {
      if (this.records.size >= MAX_TRACKED) this.forgetOld();
      record = { failures: 0, lastFailureAt: 0, inFlight: 0 };
      this.records.set(key, record);
    }
    return record;
  }

  private forgetOld(): void {
    const now = this.clock.now();
    for (const [key, r] of this.records) if (r.inFlight === 0 && now - r.lastFailureAt > FORGET_AFTER_MILLIS) this.records.delete(key);
    // Still full: the oldest entries go (a Map iterates in insertion order).
    for (const [key, r] of this.records) {
      if (this.records.size < MAX_TRACKED) break;
      if (r.inFlight === 0) this.records.delete(key);
    }
  }
}

export function delayAfter(failures: number, limits: Limits): number {
  if (failures <= limits.freeFailures) return 0;
  return Math.min(BASE_DELAY_MILLIS * 2 ** (failures - limits.freeFailures - 1), MAX_DELAY_MILLIS);
}
