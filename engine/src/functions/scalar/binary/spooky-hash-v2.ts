// Bob Jenkins' SpookyHash V2 (seed 0), as Trino's spooky_hash_v2_32 and spooky_hash_v2_64 return it:
// the first 64-bit half of the 128-bit hash (its low 32 bits for the 32-bit form) in big-endian
// bytes. Messages under 192 bytes take the short path (four-word state), longer ones the twelve-word
// block mix. The mixing rounds are written as tables of rotations over rotating state indices.
// 64-bit arithmetic in BigInt, wrapped with asUintN: these run once per value, never in a scan loop.

const MASK = (value: bigint): bigint => BigInt.asUintN(64, value);
const rotl = (value: bigint, bits: number): bigint => MASK((value << BigInt(bits)) | (value >> BigInt(64 - bits)));

const SPOOKY_CONST = 0xdeadbeefdeadbeefn;
const BLOCK_BYTES = 96;
const SHORT_LIMIT = 2 * BLOCK_BYTES;

const MIX_ROTATIONS = [11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46];
const END_ROTATIONS = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54];
const SHORT_MIX_ROTATIONS = [50, 52, 30, 41, 54, 48, 38, 37, 62, 34, 5, 36];
const SHORT_END_ROTATIONS = [15, 52, 26, 51, 28, 9, 47, 54, 32, 25, 63];

/** Bytes [from, to) as a little-endian number (at most 8 bytes). */
function littleEndian(bytes: Uint8Array, from: number, to: number): bigint {
  let value = 0n;
  for (let i = to - 1; i >= from; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

function shortMix(h: bigint[]): void {
  SHORT_MIX_ROTATIONS.forEach((bits, j) => {
    const x = (j + 2) % 4;
    h[x] = MASK(rotl(h[x], bits) + h[(j + 3) % 4]);
    h[j % 4] ^= h[x];
  });
}

function shortEnd(h: bigint[]): void {
  SHORT_END_ROTATIONS.forEach((bits, j) => {
    const a = (j + 3) % 4;
    const b = (j + 2) % 4;
    h[a] ^= h[b];
    h[b] = rotl(h[b], bits);
    h[a] = MASK(h[a] + h[b]);
  });
}

function shortHash(bytes: Uint8Array, seed: bigint): bigint {
  const length = bytes.length;
  const h = [seed, seed, SPOOKY_CONST, SPOOKY_CONST];
  let offset = 0;
  if (length > 15) {
    for (; offset + 32 <= length; offset += 32) {
      h[2] = MASK(h[2] + littleEndian(bytes, offset, offset + 8));
      h[3] = MASK(h[3] + littleEndian(bytes, offset + 8, offset + 16));
      shortMix(h);
      h[0] = MASK(h[0] + littleEndian(bytes, offset + 16, offset + 24));
      h[1] = MASK(h[1] + littleEndian(bytes, offset + 24, offset + 32));
    }
    if (length - offset >= 16) {
      h[2] = MASK(h[2] + littleEndian(bytes, offset, offset + 8));
      h[3] = MASK(h[3] + littleEndian(bytes, offset + 8, offset + 16));
      shortMix(h);
      offset += 16;
    }
  }
  const remainder = length - offset;
  h[3] = MASK(h[3] + (BigInt(length) << 56n));
  if (remainder === 0) {
    h[2] = MASK(h[2] + SPOOKY_CONST);
    h[3] = MASK(h[3] + SPOOKY_CONST);
  } else {
    // the first 8 tail bytes go into the third word, the rest into the fourth
    h[2] = MASK(h[2] + littleEndian(bytes, offset, offset + Math.min(remainder, 8)));
    if (remainder > 8) h[3] = MASK(h[3] + littleEndian(bytes, offset + 8, length));
  }
  shortEnd(h);
  return h[0];
}

/** Adds a block's words into the state, each word's round stirring its neighbours. */
function mix(data: bigint[], s: bigint[]): void {
  MIX_ROTATIONS.forEach((bits, i) => {
    const previous = (i + 11) % 12;
    s[i] = MASK(s[i] + data[i]);
    s[(i + 2) % 12] ^= s[(i + 10) % 12];
    s[previous] ^= s[i];
    s[i] = rotl(s[i], bits);
    s[previous] = MASK(s[previous] + s[(i + 1) % 12]);
  });
}

function endPartial(h: bigint[]): void {
  END_ROTATIONS.forEach((bits, i) => {
    const previous = (i + 11) % 12;
    const next = (i + 1) % 12;
    h[previous] = MASK(h[previous] + h[next]);
    h[(i + 2) % 12] ^= h[previous];
    h[next] = rotl(h[next], bits);
  });
}

const blockWords = (block: Uint8Array): bigint[] => Array.from({ length: 12 }, (_, i) => littleEndian(block, 8 * i, 8 * i + 8));

function longHash(bytes: Uint8Array, seed: bigint): bigint {
  const h = Array.from({ length: 12 }, (_, i) => [seed, seed, SPOOKY_CONST][i % 3]);
  let offset = 0;
  for (; offset + BLOCK_BYTES <= bytes.length; offset += BLOCK_BYTES) mix(blockWords(bytes.subarray(offset, offset + BLOCK_BYTES)), h);
  // the last partial block, zero-padded, its length in the final byte
  const last = new Uint8Array(BLOCK_BYTES);
  last.set(bytes.subarray(offset));
  last[BLOCK_BYTES - 1] = bytes.length - offset;
  blockWords(last).forEach((word, i) => (h[i] = MASK(h[i] + word)));
  for (let round = 0; round < 3; round++) endPartial(h);
  return h[0];
}

function spookyHash64(bytes: Uint8Array): bigint {
  return bytes.length < SHORT_LIMIT ? shortHash(bytes, 0n) : longHash(bytes, 0n);
}

export function spookyHashV2x32(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, Number(spookyHash64(bytes) & 0xffffffffn), false);
  return out;
}

export function spookyHashV2x64(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, spookyHash64(bytes), false);
  return out;
}
