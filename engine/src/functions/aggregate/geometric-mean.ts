// geometric_mean(x): exp of the mean of ln(x) per group — an average of logarithms.

import { BIGINT, DOUBLE, type SqlType } from '../../types/types.js';
import type { AggregateFunction } from './aggregate-function.js';
import { DoubleAverageAccumulator } from './avg.js';

export function geometricMeanFunction(argumentType: SqlType): AggregateFunction {
  return {
    name: 'geometric_mean',
    argumentTypes: [argumentType],
    returnType: DOUBLE,
    intermediateTypes: [DOUBLE, BIGINT],
    createAccumulator: () => new DoubleAverageAccumulator(DOUBLE, Math.log, Math.exp),
  };
}
