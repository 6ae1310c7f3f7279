// airlift's Murmur3Hash128.hash64 of one long (murmur3_x64_128, seed 0, of its 8 little-endian bytes,
// first half) in 32-bit words: the per-row path of approx_set and make_set_digest, which BigInt
// arithmetic would make ~20 times slower. 64-bit words are [high, low], unsigned.

type Word64 = [high: number, low: number];

/** The full 64-bit product of two unsigned 32-bit words, by 16-bit halves (each step exact in a double). */
function multiply32(a: number, b: number): Word64 {
  const [aHigh, aLow, bHigh, bLow] = [a >>> 16, a & 0xffff, b >>> 16, b & 0xffff];
  const lowLow = aLow * bLow;
  const lowHigh = aLow * bHigh;
  const highLow = aHigh * bLow;
  const middle = (lowLow >>> 16) + (lowHigh & 0xffff) + (highLow & 0xffff);
  return [(aHigh * bHigh + (lowHigh >>> 16) + (highLow >>> 16) + (middle >>> 16)) >>> 0, ((middle << 16) | (lowLow & 0xffff)) >>> 0];
}

/** a * b mod 2^64: the low words' full product plus the cross products' low 32 bits in the high word. */
function multiply(ah: number, al: number, bh: number, bl: number): Word64 {
  const [high, low] = multiply32(al, bl);
  return [(high + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0, low];
}

function add(ah: number, al: number, bh: number, bl: number): Word64 {
  const low = al + bl;
  return [(ah + bh + (low > 0xffffffff ? 1 : 0)) >>> 0, low >>> 0];
}

/** Murmur3's fmix64: k ^= k >>> 33; k *= C; k ^= k >>> 33; k *= C'; k ^= k >>> 33. */
function finalMix(high: number, low: number): Word64 {
  let h = high;
  let l = (low ^ (high >>> 1)) >>> 0;
  [h, l] = multiply(h, l, 0xff51afd7, 0xed558ccd);
  l = (l ^ (h >>> 1)) >>> 0;
  [h, l] = multiply(h, l, 0xc4ceb9fe, 0x1a85ec53);
  return [h, (l ^ (h >>> 1)) >>> 0];
}

/** hash64 of the long whose words are (high, low), written into `out` as [high, low]. */
export function murmur3Hash64OfLong(high: number, low: number, out: Uint32Array): void {
  let [kh, kl] = multiply(high >>> 0, low >>> 0, 0x87c37b91, 0x114253d5);
  [kh, kl] = [((kh << 31) | (kl >>> 1)) >>> 0, ((kl << 31) | (kh >>> 1)) >>> 0];
  [kh, kl] = multiply(kh, kl, 0x4cf5ad43, 0x2745937f);
  // h1 = k1 ^ length, h2 = length; h1 += h2; h2 += h1; both mixed; h1 += h2.
  let [h1h, h1l] = add(kh, (kl ^ 8) >>> 0, 0, 8);
  let [h2h, h2l] = add(0, 8, h1h, h1l);
  [h1h, h1l] = finalMix(h1h, h1l);
  [h2h, h2l] = finalMix(h2h, h2l);
  [out[0], out[1]] = add(h1h, h1l, h2h, h2l);
}
