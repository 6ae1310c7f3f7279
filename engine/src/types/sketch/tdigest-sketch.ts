// Trino's tdigest type: the engine's t-digest (tdigest.ts, the one approx_percentile uses,
// compression 100) in airlift's serialized format (little-endian): format 0, min, max, compression,
// total weight (doubles), centroid count (i32), the means, then the weights (doubles each).

import { EngineError } from '../../errors/engine-error.js';
import { TDigest } from './tdigest.js';

const FORMAT = 0;
const COMPRESSION = 100;
const HEADER_BYTES = 1 + 4 * 8 + 4;

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot deserialize tdigest: ${message}`);
}

export class TDigestSketch {
  readonly digest = new TDigest();

  /** Adds a value with a weight, refusing what Trino refuses. */
  add(value: number, weight: number): void {
    if (!Number.isFinite(value)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `value must be finite; was ${value}`);
    if (!Number.isFinite(weight)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `weight must be finite, was ${weight}`);
    if (weight < 1) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `weight must be >= 1, was ${weight}`);
    this.digest.add(value, weight);
  }

  mergeWith(other: TDigestSketch): void {
    other.digest.compress();
    this.digest.addDigest(other.digest.means, other.digest.weights, other.digest.min, other.digest.max);
  }

  /** The values at ascending quantiles in [0, 1] (NaN for an empty digest). */
  valuesAt(quantiles: readonly number[]): number[] {
    quantiles.forEach((q, i) => {
      if (!(q >= 0 && q <= 1)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'quantiles should be in [0, 1] range');
      if (i > 0 && q < quantiles[i - 1])
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'percentiles must be sorted in increasing order');
    });
    return quantiles.map((q) => this.digest.valueAt(q));
  }

  serialize(): Uint8Array {
    const digest = this.digest;
    digest.compress();
    const count = digest.means.length;
    const bytes = new Uint8Array(HEADER_BYTES + 16 * count);
    const view = new DataView(bytes.buffer);
    bytes[0] = FORMAT;
    [digest.min, digest.max, COMPRESSION, digest.totalWeight].forEach((v, i) => view.setFloat64(1 + 8 * i, v, true));
    view.setInt32(33, count, true);
    for (let i = 0; i < count; i++) {
      view.setFloat64(HEADER_BYTES + 8 * i, digest.means[i], true);
      view.setFloat64(HEADER_BYTES + 8 * (count + i), digest.weights[i], true);
    }
    return bytes;
  }

  static deserialize(bytes: Uint8Array): TDigestSketch {
    if (bytes.length < HEADER_BYTES) throw invalid('too short');
    if (bytes[0] !== FORMAT) throw invalid('Invalid format');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getInt32(33, true);
    if (count < 0 || bytes.length !== HEADER_BYTES + 16 * count) throw invalid('wrong length for its centroid count');
    const means: number[] = [];
    const weights: number[] = [];
    for (let i = 0; i < count; i++) {
      means.push(view.getFloat64(HEADER_BYTES + 8 * i, true));
      weights.push(view.getFloat64(HEADER_BYTES + 8 * (count + i), true));
    }
    if (means.some((m) => !Number.isFinite(m)) || weights.some((w) => !(w > 0 && Number.isFinite(w))))
      throw invalid('centroid out of range');
    const sketch = new TDigestSketch();
    if (count > 0) sketch.digest.addDigest(means, weights, view.getFloat64(1, true), view.getFloat64(9, true));
    return sketch;
  }

  sizeInBytes(): number {
    return this.digest.sizeInBytes();
  }
}
