// The TPC-H generator's random numbers: one Park–Miller stream (seed' = seed * 16807 mod 2^31-1)
// per column, each starting from a fixed seed and owning a fixed number of values per row (values
// a row does not use are skipped). So row N of any column is reached directly by jumping the stream
// ahead N * usage values (a multiplication by 16807^k mod m), which is what lets splits and single
// columns generate independently of everything else. A uniform integer in [low, high] is
// low + floor(value / m * (high - low + 1)), computed in exactly that order of double operations.
//
// All arithmetic stays exact in doubles: products are split so that no intermediate exceeds 2^53.

export const MODULUS = 2147483647;
const MULTIPLIER = 16807;
const TWO_31 = 2147483648;

/** x mod (2^31 - 1) for 0 <= x < 2^53, using 2^31 ≡ 1. */
function reduce(x: number): number {
  const high = Math.floor(x / TWO_31);
  const r = x - high * TWO_31 + high;
  return r >= MODULUS ? r - MODULUS : r;
}

/** The next value of a stream. */
export function nextSeed(seed: number): number {
  const product = seed * MULTIPLIER; // < 2^46
  const high = (product / TWO_31) | 0;
  const r = product - high * TWO_31 + high;
  return r >= MODULUS ? r - MODULUS : r;
}

/** a * b mod (2^31 - 1) for a, b < 2^31. */
export function mulMod(a: number, b: number): number {
  const bHigh = Math.floor(b / 65536);
  const bLow = b - bHigh * 65536;
  return reduce(reduce(a * bHigh) * 65536 + a * bLow);
}

/** 16807^count mod (2^31 - 1): the factor that jumps a stream `count` values ahead. */
export function jumpFactor(count: number): number {
  let result = 1;
  let power = MULTIPLIER;
  let remaining = count;
  while (remaining > 0) {
    if (remaining % 2 === 1) result = mulMod(result, power);
    remaining = Math.floor(remaining / 2);
    power = mulMod(power, power);
  }
  return result;
}
