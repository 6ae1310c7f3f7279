// The scalar functions of the sketch types: cardinality(HyperLogLog), empty_approx_set(), and the
// SetDigest functions cardinality, intersection_cardinality, jaccard_index and hash_counts, and the
// tdigest functions value_at_quantile and values_at_quantiles.

import { MapValue } from '../../types/map-value.js';
import { BIGINT, DOUBLE, HYPER_LOG_LOG, SET_DIGEST, SMALLINT, TDIGEST, arrayOf, mapOf } from '../../types/types.js';
import { SetDigest, intersectionCardinality, jaccardIndex } from '../../types/sketch/setdigest.js';
import { TDigestSketch } from '../../types/sketch/tdigest-sketch.js';
import { type ScalarFunctionDefinition, body } from '../scalar/signature.js';
import { HyperLogLog } from '../../types/sketch/hyperloglog.js';
import { APPROX_SET_BUCKETS } from './hyperloglog-aggregates.js';

export const SKETCH_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['cardinality'],
    description: 'Compute the cardinality of a HyperLogLog instance',
    signatures: [
      {
        params: [HYPER_LOG_LOG],
        returnType: BIGINT,
        implement: () => body((bytes: Uint8Array) => BigInt(HyperLogLog.deserialize(bytes).cardinality())),
      },
      {
        params: [SET_DIGEST],
        returnType: BIGINT,
        implement: () => body((bytes: Uint8Array) => BigInt(SetDigest.deserialize(bytes).cardinality())),
      },
    ],
  },
  {
    names: ['intersection_cardinality'],
    description: 'Estimates the cardinality of the intersection of two set digests',
    signatures: [
      {
        params: [SET_DIGEST, SET_DIGEST],
        returnType: BIGINT,
        implement: () =>
          body((a: Uint8Array, b: Uint8Array) => BigInt(intersectionCardinality(SetDigest.deserialize(a), SetDigest.deserialize(b)))),
      },
    ],
  },
  {
    names: ['jaccard_index'],
    description: 'Estimates the Jaccard index of two set digests',
    signatures: [
      {
        params: [SET_DIGEST, SET_DIGEST],
        returnType: DOUBLE,
        implement: () => body((a: Uint8Array, b: Uint8Array) => jaccardIndex(SetDigest.deserialize(a), SetDigest.deserialize(b))),
      },
    ],
  },
  {
    names: ['hash_counts'],
    description: "Returns the hashes of the set digest's MinHash and how often each was added",
    signatures: [
      {
        params: [SET_DIGEST],
        returnType: mapOf(BIGINT, SMALLINT),
        implement: () =>
          body((bytes: Uint8Array) => {
            const entries = SetDigest.deserialize(bytes).hashCounts();
            return new MapValue(
              entries.map(([hash]) => hash),
              entries.map(([, count]) => count),
            );
          }),
      },
    ],
  },
  {
    names: ['empty_approx_set'],
    description: 'An empty HyperLogLog instance',
    signatures: [{ params: [], returnType: HYPER_LOG_LOG, implement: () => body(() => HyperLogLog.empty(APPROX_SET_BUCKETS).serialize()) }],
  },
  {
    names: ['value_at_quantile'],
    description:
      'Given an input q between [0, 1], find the value whose rank in the sorted sequence of the n values represented by the tdigest is qn',
    signatures: [
      {
        params: [TDIGEST, DOUBLE],
        returnType: DOUBLE,
        implement: () => body((bytes: Uint8Array, q: number) => TDigestSketch.deserialize(bytes).valuesAt([q])[0]),
      },
    ],
  },
  {
    names: ['values_at_quantiles'],
    description:
      'For each input q between [0, 1], find the value whose rank in the sorted sequence of the n values represented by the tdigest is qn',
    signatures: [
      {
        params: [TDIGEST, arrayOf(DOUBLE)],
        returnType: arrayOf(DOUBLE),
        implement: () => body((bytes: Uint8Array, quantiles: readonly number[]) => TDigestSketch.deserialize(bytes).valuesAt(quantiles)),
      },
    ],
  },
];
