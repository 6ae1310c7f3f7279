// Trino's SetDigest: a HyperLogLog plus a MinHash of the smallest hashes with their counts.
// Serialized (little-endian): version 1, HyperLogLog length (i32), the HyperLogLog (hyperloglog.ts),
// max hashes (i32), entry count (i32), the hashes (i64 each, ascending), their counts (i16 each).

import { EngineError } from '../../errors/engine-error.js';

/** The HyperLogLog bytes inside a serialized SetDigest (CAST(setdigest AS HyperLogLog)). */
export function setDigestHyperLogLogBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 5 || bytes[0] !== 1) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Legacy version of SetDigest cannot cast to HyperLogLog');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(1, true);
  if (length < 0 || 5 + length > bytes.length) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Cannot deserialize SetDigest: HyperLogLog length out of range');
  return bytes.slice(5, 5 + length);
}
