// airlift's Murmur3Hash128.hash64 of one long (murmur3_x64_128, seed 0, of its 8 little-endian bytes,
// first half) in 32-bit words: the per-row path of approx_set and make_set_digest, which BigInt
// arithmetic would make ~20 times slower. 64-bit words are [high, low], unsigned.

type Word64 = [high: number, low: number];

/** a * b mod 2^64, by 16-bit limbs (every partial product and sum stays exact in a double). */
function multiply(ah: number, al: number, bh: number, bl: number): Word64 {
  const a48 = ah >>> 16, a32 = ah & 0xffff, a16 = al >>> 16, a00 = al & 0xffff;
  const b48 = bh >>> 16, b32 = bh & 0xffff, b16 = bl >>> 16, b00 = bl & 0xffff;
  let c00 = a00 * b00;
  let c16 = c00 >>> 16;
  c00 &= 0xffff;
  c16 += a16 * b00;
  let c32 = c16 >>> 16;
  c16 &= 0xffff;
  c16 += a00 * b16;
  c32 += c16 >>> 16;
  c16 &= 0xffff;
  c32 += a32 * b00;
  let c48 = c32 >>> 16;
  c32 &= 0xffff;
  c32 += a16 * b16;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c32 += a00 * b32;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c48 = (c48 + a48 * b00 + a32 * b16 + a16 * b32 + a00 * b48) & 0xffff;
  return [((c48 << 16) | c32) >>> 0, ((c16 << 16) | c00) >>> 0];
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
