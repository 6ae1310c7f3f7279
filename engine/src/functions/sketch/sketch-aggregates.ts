// The aggregate families of the sketch types, spliced into the aggregate registry. `merge` takes any
// sketch type and dispatches on it.

import type { SqlType } from '../../types/types.js';
import type { Family } from '../aggregate/registry.js';
import { approxSetFunction, mergeHyperLogLogFunction } from './hyperloglog-aggregates.js';
import { makeSetDigestFunction, mergeSetDigestFunction } from './setdigest-aggregates.js';
import { mergeTDigestFunction, tdigestAggFunction } from './tdigest-aggregates.js';
import { mergeQDigestFunction, qdigestAggFunction } from './qdigest-aggregates.js';
import { QDIGEST_NAMES } from '../../types/sketch/qdigest-type.js';

const oneArgument =
  <T>(resolve: (type: SqlType) => T | undefined) =>
  (types: readonly SqlType[]): T | undefined =>
    types.length === 1 ? resolve(types[0]) : undefined;

export const SKETCH_AGGREGATES: Record<string, Family> = {
  approx_set: {
    signatures: ['bigint', 'double', 'varchar(x)'].map((t) => ({ args: [t], returns: 'HyperLogLog' })),
    description: 'Returns the HyperLogLog sketch of the values (4096 buckets, standard error 1.625%)',
    resolve: oneArgument(approxSetFunction),
  },
  merge: {
    signatures: [
      { args: ['HyperLogLog'], returns: 'HyperLogLog' },
      { args: ['tdigest'], returns: 'tdigest' },
      ...QDIGEST_NAMES.map((name) => ({ args: [name], returns: name })),
    ],
    description: 'Returns the union of the sketches (HyperLogLog) or the merged digest (tdigest, qdigest)',
    resolve: oneArgument((type) => mergeTDigestFunction(type) ?? mergeQDigestFunction(type) ?? mergeHyperLogLogFunction(type)),
  },
  qdigest_agg: {
    signatures: ['bigint', 'double', 'real'].flatMap((t) =>
      [[t], [t, 'bigint'], [t, 'bigint', 'double']].map((args) => ({ args, returns: `qdigest(${t})` })),
    ),
    description: 'Returns the quantile digest of the values, optionally weighted (weights > 0), with the given accuracy (default 0.01)',
    resolve: qdigestAggFunction,
  },
  tdigest_agg: {
    signatures: [
      { args: ['double'], returns: 'tdigest' },
      { args: ['double', 'double'], returns: 'tdigest' },
    ],
    description: 'Returns the t-digest (compression 100) of the values, optionally weighted (weights >= 1)',
    resolve: tdigestAggFunction,
  },
  make_set_digest: {
    signatures: [{ args: ['T'], returns: 'SetDigest', constraints: 'T' }],
    description: 'Returns the SetDigest (HyperLogLog plus MinHash) of the values',
    resolve: oneArgument(makeSetDigestFunction),
  },
  merge_set_digest: {
    signatures: [{ args: ['SetDigest'], returns: 'SetDigest' }],
    description: 'Returns the SetDigest of the union of the digests',
    resolve: oneArgument(mergeSetDigestFunction),
  },
};
