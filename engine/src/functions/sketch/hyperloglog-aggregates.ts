// approx_set(x) and merge(HyperLogLog), as Trino has them: a HyperLogLog of 4096 buckets (standard
// error 1.04/64 = 1.625%) per group, NULL for a group without a non-null value.

import { BIGINT, DOUBLE, HYPER_LOG_LOG, type SqlType } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import type { AggregateFunction } from '../aggregate/aggregate-function.js';
import { HyperLogLog } from '../../types/sketch/hyperloglog.js';
import { HashingAccumulator, SketchAccumulator, type SketchCodec } from './sketch-accumulator.js';

export const APPROX_SET_BUCKETS = 4096;

const HLL_CODEC: SketchCodec<HyperLogLog> = { type: HYPER_LOG_LOG, deserialize: (bytes) => HyperLogLog.deserialize(bytes) };

/** approx_set over bigint (and the integers), double (and real) or varchar; undefined otherwise. */
export function approxSetFunction(argumentType: SqlType): AggregateFunction | undefined {
  const input = argumentType.kind === 'varchar' ? argumentType : [BIGINT, DOUBLE].find((t) => canCoerce(argumentType, t));
  if (input === undefined) return undefined;
  return {
    name: 'approx_set',
    argumentTypes: [input],
    returnType: HYPER_LOG_LOG,
    intermediateTypes: [HYPER_LOG_LOG],
    createAccumulator: () => new HashingAccumulator(HLL_CODEC, () => HyperLogLog.empty(APPROX_SET_BUCKETS)),
  };
}

/** merge(HyperLogLog) (a P4HyperLogLog is coerced to HyperLogLog, as in Trino). */
export function mergeHyperLogLogFunction(argumentType: SqlType): AggregateFunction | undefined {
  if (!canCoerce(argumentType, HYPER_LOG_LOG)) return undefined;
  return {
    name: 'merge',
    argumentTypes: [HYPER_LOG_LOG],
    returnType: HYPER_LOG_LOG,
    intermediateTypes: [HYPER_LOG_LOG],
    createAccumulator: () => new SketchAccumulator(HLL_CODEC),
  };
}
