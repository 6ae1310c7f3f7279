// xxHash64 and MurmurHash3 (x64, 128 bits), seed 0, as Trino's xxhash64 and murmur3 return them:
// xxhash64's 64-bit result in big-endian bytes, murmur3's two 64-bit halves each little-endian.
// 64-bit arithmetic in BigInt, wrapped with asUintN: these run once per value, never in a scan loop.

const MASK = (value: bigint): bigint => BigInt.asUintN(64, value);
const rotl = (value: bigint, bits: bigint): bigint => MASK((value << bits) | (value >> (64n - bits)));

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

const xxRound = (acc: bigint, lane: bigint): bigint => MASK(rotl(MASK(acc + lane * P2), 31n) * P1);
const xxMerge = (acc: bigint, value: bigint): bigint => MASK((acc ^ xxRound(0n, value)) * P1 + P4);

export function xxhash64(bytes: Uint8Array): Uint8Array {
  const data = view(bytes);
  const length = bytes.length;
  let offset = 0;
  let hash: bigint;
  if (length >= 32) {
    let v1 = MASK(P1 + P2);
    let v2 = P2;
    let v3 = 0n;
    let v4 = MASK(-P1);
    for (; offset + 32 <= length; offset += 32) {
      v1 = xxRound(v1, data.getBigUint64(offset, true));
      v2 = xxRound(v2, data.getBigUint64(offset + 8, true));
      v3 = xxRound(v3, data.getBigUint64(offset + 16, true));
      v4 = xxRound(v4, data.getBigUint64(offset + 24, true));
    }
    hash = MASK(rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n));
    for (const v of [v1, v2, v3, v4]) hash = xxMerge(hash, v);
  } else {
    hash = P5;
  }
  hash = MASK(hash + BigInt(length));
  for (; offset + 8 <= length; offset += 8) {
    hash ^= xxRound(0n, data.getBigUint64(offset, true));
    hash = MASK(rotl(hash, 27n) * P1 + P4);
  }
  if (offset + 4 <= length) {
    hash ^= MASK(BigInt(data.getUint32(offset, true)) * P1);
    hash = MASK(rotl(hash, 23n) * P2 + P3);
    offset += 4;
  }
  for (; offset < length; offset++) {
    hash ^= MASK(BigInt(bytes[offset]) * P5);
    hash = MASK(rotl(hash, 11n) * P1);
  }
  hash = MASK((hash ^ (hash >> 33n)) * P2);
  hash = MASK((hash ^ (hash >> 29n)) * P3);
  hash ^= hash >> 32n;
  const out = new Uint8Array(8);
  view(out).setBigUint64(0, hash, false);
  return out;
}

const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

function fmix(value: bigint): bigint {
  let k = value;
  k = MASK((k ^ (k >> 33n)) * 0xff51afd7ed558ccdn);
  k = MASK((k ^ (k >> 33n)) * 0xc4ceb9fe1a85ec53n);
  return k ^ (k >> 33n);
}

const mixK1 = (k: bigint): bigint => MASK(rotl(MASK(k * C1), 31n) * C2);
const mixK2 = (k: bigint): bigint => MASK(rotl(MASK(k * C2), 33n) * C1);

/** The tail's bytes [from, to) as a little-endian 64-bit value. */
function littleEndianTail(bytes: Uint8Array, from: number, to: number): bigint {
  let value = 0n;
  for (let i = to - 1; i >= from; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

export function murmur3x64128(bytes: Uint8Array): Uint8Array {
  const data = view(bytes);
  const length = bytes.length;
  let h1 = 0n;
  let h2 = 0n;
  let offset = 0;
  for (; offset + 16 <= length; offset += 16) {
    h1 ^= mixK1(data.getBigUint64(offset, true));
    h1 = MASK(MASK(rotl(h1, 27n) + h2) * 5n + 0x52dce729n);
    h2 ^= mixK2(data.getBigUint64(offset + 8, true));
    h2 = MASK(MASK(rotl(h2, 31n) + h1) * 5n + 0x38495ab5n);
  }
  const tail = length - offset;
  if (tail > 8) h2 ^= mixK2(littleEndianTail(bytes, offset + 8, length));
  if (tail > 0) h1 ^= mixK1(littleEndianTail(bytes, offset, Math.min(length, offset + 8)));
  h1 ^= BigInt(length);
  h2 ^= BigInt(length);
  h1 = MASK(h1 + h2);
  h2 = MASK(h2 + h1);
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = MASK(h1 + h2);
  h2 = MASK(h2 + h1);
  const out = new Uint8Array(16);
  view(out).setBigUint64(0, h1, true);
  view(out).setBigUint64(8, h2, true);
  return out;
}
