export type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
export { isAggregateFunctionName, listAggregateFunctions, resolveAggregateFunction } from './registry.js';
