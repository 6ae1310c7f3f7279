// Addresses and phone numbers of suppliers and customers.

import { Buffer } from 'node:buffer';
import { MODULUS, jumpFactor, mulMod, nextSeed } from './random.js';

/** dbgen's alphabet for random strings; a draw's bits pick characters six at a time. */
const ALPHANUMERIC = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,', 'latin1');
const ADDRESS_MIN_LENGTH = 10; // average 25, times 0.4
const ADDRESS_MAX_LENGTH = 40; // average 25, times 1.6
const ADDRESS_USAGE = 9; // the length, then one draw per five characters
const PHONE_USAGE = 3;
/** Country codes run 10..99. */
const PHONE_NATIONS = 90;

/** Random alphanumeric addresses, rows [start, start + count). */
export function drawAddresses(initialSeed: number, start: number, count: number): string[] {
  const out = new Array<string>(count);
  const text = Buffer.alloc(ADDRESS_MAX_LENGTH);
  const rowJump = jumpFactor(ADDRESS_USAGE);
  let rowSeed = mulMod(initialSeed, jumpFactor(ADDRESS_USAGE * start));
  for (let row = 0; row < count; row++) {
    let seed = nextSeed(rowSeed);
    const length = ADDRESS_MIN_LENGTH + Math.floor((seed / MODULUS) * (ADDRESS_MAX_LENGTH - ADDRESS_MIN_LENGTH + 1));
    let bits = 0;
    for (let i = 0; i < length; i++) {
      if (i % 5 === 0) {
        seed = nextSeed(seed);
        // dbgen draws in [0, 2^31 - 1]; its range 2^31 overflows to -2^31, so the value is
        // trunc(seed / m * -2^31): zero or negative, and the characters come from its two's complement.
        bits = -Math.floor((seed / MODULUS) * 2147483648) | 0;
      }
      text[i] = ALPHANUMERIC[bits & 63];
      bits >>= 6;
    }
    out[row] = text.toString('latin1', 0, length);
    rowSeed = mulMod(rowSeed, rowJump);
  }
  return out;
}

/** Phone numbers CC-AAA-BBB-CCCC, the country code from the row's nation. */
export function drawPhones(initialSeed: number, start: number, nationKeys: Int32Array): string[] {
  const out = new Array<string>(nationKeys.length);
  let seed = mulMod(initialSeed, jumpFactor(PHONE_USAGE * start));
  for (let row = 0; row < nationKeys.length; row++) {
    seed = nextSeed(seed);
    const exchange = 100 + Math.floor((seed / MODULUS) * 900);
    seed = nextSeed(seed);
    const line = 100 + Math.floor((seed / MODULUS) * 900);
    seed = nextSeed(seed);
    const extension = 1000 + Math.floor((seed / MODULUS) * 9000);
    out[row] = `${10 + (nationKeys[row] % PHONE_NATIONS)}-${exchange}-${line}-${extension}`;
  }
  return out;
}
