// The 64-bit hashes Trino's approx_set and make_set_digest add (airlift's HyperLogLog.add and
// SetDigest.add): the first 64 bits of murmur3_x64_128 (seed 0) over a long's 8 little-endian bytes
// (the integers and date as a long; a double's IEEE bits, NaN canonical as Double.doubleToLongBits),
// or over a string's UTF-8 bytes or a varbinary's bytes. Hashes are written as [high, low] words.

import type { Column } from '../../columnar/page.js';
import { murmur3x64128 } from '../scalar/binary/non-cryptographic-hashes.js';
import { murmur3Hash64OfLong } from './murmur3-long.js';

/** Writes the hash of row `row` into `out` as [high, low]. */
export type RowHasher = (row: number, out: Uint32Array) => void;

const encoder = new TextEncoder();
const CANONICAL_NAN_HIGH = 0x7ff80000;

function bytesHash(bytes: Uint8Array, out: Uint32Array): void {
  const digest = murmur3x64128(bytes);
  const view = new DataView(digest.buffer, digest.byteOffset, 8);
  out[0] = view.getUint32(4, true);
  out[1] = view.getUint32(0, true);
}

/** A hasher of the rows of an integral, date, double, varchar or varbinary column. */
export function rowHasher(column: Column): RowHasher {
  const values = column.values;
  if (values instanceof BigInt64Array || values instanceof Float64Array) {
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
    if (values instanceof Float64Array) {
      return (row, out) =>
        Number.isNaN(values[row])
          ? murmur3Hash64OfLong(CANONICAL_NAN_HIGH, 0, out)
          : murmur3Hash64OfLong(words[2 * row + 1], words[2 * row], out);
    }
    return (row, out) => murmur3Hash64OfLong(words[2 * row + 1], words[2 * row], out);
  }
  if (values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array) {
    return (row, out) => murmur3Hash64OfLong(values[row] < 0 ? 0xffffffff : 0, values[row] >>> 0, out);
  }
  const texts = values as (string | Uint8Array)[];
  return (row, out) => {
    const value = texts[row];
    bytesHash(typeof value === 'string' ? encoder.encode(value) : value, out);
  };
}
