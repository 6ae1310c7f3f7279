// The 64-bit hashes Trino's approx_set feeds its HyperLogLog (airlift's HyperLogLog.add): the low 64
// bits of murmur3_x64_128 (seed 0) over a bigint's 8 little-endian bytes, a double's IEEE bits (NaN
// canonical, as Double.doubleToLongBits) or a string's UTF-8 bytes.

import type { Column } from '../../spi/page.js';
import { murmur3x64128 } from '../scalar/binary/non-cryptographic-hashes.js';

const encoder = new TextEncoder();
const CANONICAL_NAN = 0x7ff8000000000000n;
const word = new DataView(new ArrayBuffer(8));
const wordBytes = new Uint8Array(word.buffer);

export function murmur3Hash64(bytes: Uint8Array): bigint {
  const digest = murmur3x64128(bytes);
  return new DataView(digest.buffer, digest.byteOffset, 8).getBigInt64(0, true);
}

/** The hash of row `row` of an integral (as a long), date (days), double, varchar or varbinary column. */
export function hashValueAt(column: Column, row: number): bigint {
  const values = column.values;
  if (values instanceof BigInt64Array) {
    word.setBigInt64(0, values[row], true);
    return murmur3Hash64(wordBytes);
  }
  if (values instanceof Float64Array) {
    if (Number.isNaN(values[row])) word.setBigUint64(0, CANONICAL_NAN, true);
    else word.setFloat64(0, values[row], true);
    return murmur3Hash64(wordBytes);
  }
  if (values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array) {
    word.setBigInt64(0, BigInt(values[row]), true);
    return murmur3Hash64(wordBytes);
  }
  const value = (values as (string | Uint8Array)[])[row];
  return murmur3Hash64(typeof value === 'string' ? encoder.encode(value) : value);
}
