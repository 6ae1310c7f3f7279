// make_set_digest(x) and merge_set_digest(setdigest), as Trino has them. make_set_digest takes values
// Trino holds as a long (the integers and date, hashed as that long) or as bytes (varchar, varbinary).

import { SET_DIGEST, isIntegral, type SqlType } from '../../types/types.js';
import type { AggregateFunction } from '../aggregate/aggregate-function.js';
import { SetDigest } from '../../types/sketch/setdigest.js';
import { HashingAccumulator, SketchAccumulator, type SketchCodec } from './sketch-accumulator.js';

const SET_DIGEST_CODEC: SketchCodec<SetDigest> = { type: SET_DIGEST, deserialize: (bytes) => SetDigest.deserialize(bytes) };

function hashableInput(type: SqlType): boolean {
  return isIntegral(type) || type.kind === 'date' || type.kind === 'varchar' || type.kind === 'varbinary' || type.kind === 'unknown';
}

export function makeSetDigestFunction(argumentType: SqlType): AggregateFunction | undefined {
  if (!hashableInput(argumentType)) return undefined;
  return {
    name: 'make_set_digest',
    argumentTypes: [argumentType],
    returnType: SET_DIGEST,
    intermediateTypes: [SET_DIGEST],
    createAccumulator: () => new HashingAccumulator(SET_DIGEST_CODEC, () => SetDigest.empty()),
  };
}

export function mergeSetDigestFunction(argumentType: SqlType): AggregateFunction | undefined {
  if (argumentType.kind !== 'unknown' && !(argumentType.kind === 'sketch' && argumentType.sketch === 'SetDigest')) return undefined;
  return {
    name: 'merge_set_digest',
    argumentTypes: [SET_DIGEST],
    returnType: SET_DIGEST,
    intermediateTypes: [SET_DIGEST],
    createAccumulator: () => new SketchAccumulator(SET_DIGEST_CODEC),
  };
}
