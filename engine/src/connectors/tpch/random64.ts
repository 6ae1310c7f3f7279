// The 64-bit stream dbgen uses for customer and part keys from scale factor 30000 on, where the
// key ranges outgrow 31 bits: seed' = seed * 6364136223846793005 + 1 (mod 2^64, signed), a value in
// [low, high] is low + |seed| mod (high - low + 1). dbgen still skips values of these streams with
// the 31-bit jump (seed * 16807^k mod 2^31-1 applied to the 64-bit seed; its 64-bit jump is
// disabled), both at the end of a row and where a parallel chunk starts, so its output at these
// scale factors depends on where its chunks start. Here a chunk starts at every page (pages have
// fixed boundaries, so the data is deterministic). Slow (BigInt), but only reached at scale factors
// where generation takes hours anyway.

const MULTIPLIER = 6364136223846793005n;
const MODULUS_32 = 2147483647n;

export class RandomStream64 {
  private seed: bigint;
  private used = 0;

  constructor(
    initialSeed: number,
    private readonly usagePerRow: number,
    startRow = 0,
  ) {
    this.seed = BigInt(initialSeed);
    this.skip(usagePerRow * startRow);
  }

  nextLong(low: number, high: number): number {
    this.seed = BigInt.asIntN(64, this.seed * MULTIPLIER + 1n);
    this.used++;
    const magnitude = this.seed < 0n ? BigInt.asIntN(64, -this.seed) : this.seed;
    return low + Number(magnitude % BigInt(high - low + 1));
  }

  finishRow(): void {
    this.skip(this.usagePerRow - this.used);
    this.used = 0;
  }

  /** dbgen's 31-bit jump applied to the 64-bit seed (Java-style wrapping products and remainders). */
  private skip(count: number): void {
    let remaining = BigInt(count);
    let power = 16807n;
    while (remaining > 0n) {
      if (remaining % 2n === 1n) this.seed = BigInt.asIntN(64, power * this.seed) % MODULUS_32;
      remaining /= 2n;
      power = (power * power) % MODULUS_32;
    }
  }
}
