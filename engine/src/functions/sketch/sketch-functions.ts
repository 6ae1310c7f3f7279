// The scalar functions of the sketch types: cardinality(HyperLogLog) and empty_approx_set().

import { BIGINT, HYPER_LOG_LOG } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from '../scalar/signature.js';
import { HyperLogLog } from './hyperloglog.js';
import { APPROX_SET_BUCKETS } from './hyperloglog-aggregates.js';

export const SKETCH_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['cardinality'],
    description: 'Compute the cardinality of a HyperLogLog instance',
    signatures: [{ params: [HYPER_LOG_LOG], returnType: BIGINT, implement: () => body((bytes: Uint8Array) => BigInt(HyperLogLog.deserialize(bytes).cardinality())) }],
  },
  {
    names: ['empty_approx_set'],
    description: 'An empty HyperLogLog instance',
    signatures: [{ params: [], returnType: HYPER_LOG_LOG, implement: () => body(() => HyperLogLog.empty(APPROX_SET_BUCKETS).serialize()) }],
  },
];
