// The window function registry: ranking and value functions, plus every aggregate function (through
// the aggregate registry) used over a window. Failures read as Trino's FUNCTION_NOT_FOUND messages.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { canCoerce } from '../../types/coercion.js';
import { BIGINT, typeName, type SqlType } from '../../types/types.js';
import type { AggregateOrdering } from '../aggregate/array-agg.js';
import { isAggregateFunctionName, isOrderSensitiveAggregate, resolveAggregateFunction } from '../aggregate/registry.js';
import type { LambdaExpression } from '../../sql/planner/row-expression.js';
import { distinctWindowAggregate } from './distinct-window.js';
import type { FunctionInfo } from '../function-info.js';
import { aggregateWindowFunction } from './aggregate-window.js';
import { RANKING_FUNCTION_NAMES, rankingFunction, rankingSignature } from './ranking.js';
import { VALUE_FUNCTION_SIGNATURES, valueFunction } from './value-functions.js';
import type { WindowFunction } from './window-function.js';

export type { WindowEvaluator, WindowFunction, WindowPartition } from './window-function.js';

const DESCRIPTIONS: Record<string, string> = {
  row_number: 'Returns a unique, sequential number for each row within its window partition',
  rank: 'Returns the rank of each row within its window partition, with gaps after ties',
  dense_rank: 'Returns the rank of each row within its window partition, without gaps',
  percent_rank: 'Returns (rank - 1) / (partition rows - 1)',
  cume_dist: 'Returns the fraction of partition rows up to and including the current row and its peers',
  ntile: 'Divides the partition rows into n buckets numbered 1 to n',
  lag: 'Returns the value at offset rows before the current row in the partition',
  lead: 'Returns the value at offset rows after the current row in the partition',
  first_value: 'Returns the first value of the window frame',
  last_value: 'Returns the last value of the window frame',
  nth_value: 'Returns the value at the given position (from 1) of the window frame',
};

/** True for functions that exist only as window functions (aggregates are not included). */
export function isWindowFunctionName(name: string): boolean {
  return Object.hasOwn(DESCRIPTIONS, name.toLowerCase());
}

function signatures(name: string): { args: string[]; returns: string; constraints?: string }[] {
  return RANKING_FUNCTION_NAMES.includes(name) ? [rankingSignature(name)] : VALUE_FUNCTION_SIGNATURES[name];
}

/** How an aggregate call over a window reads its rows: ORDER BY and DISTINCT inside the call, lambdas. */
export interface WindowAggregateOptions {
  /** ORDER BY inside the call: its keys are the last argument types. */
  readonly ordering?: readonly AggregateOrdering[];
  readonly distinct?: boolean;
  readonly lambdas?: readonly LambdaExpression[];
}

/** A window function, or an aggregate function used over a window. */
export function resolveWindowFunction(
  name: string,
  argumentTypes: SqlType[],
  location?: SourceLocation,
  options: WindowAggregateOptions = {},
): WindowFunction {
  const key = name.toLowerCase();
  if (!isWindowFunctionName(key)) {
    if (isAggregateFunctionName(key)) return aggregateWindowFunction(windowAggregate(key, argumentTypes, location, options));
    throw new EngineError('FUNCTION_NOT_FOUND', `Function '${key}' not registered`, location);
  }
  const resolved = RANKING_FUNCTION_NAMES.includes(key)
    ? rankingFunction(key, argumentTypes.length)
    : valueFunction(key, argumentTypes, canCoerce);
  if (resolved !== undefined && (key !== 'ntile' || canCoerce(argumentTypes[0], BIGINT))) return resolved;
  const expected = signatures(key)
    .map((s) => `${key}(${s.args.join(', ')}) ${s.constraints ?? ''}`.trimEnd())
    .sort();
  throw new EngineError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${argumentTypes.map(typeName).join(', ')}) for function ${key}. Expected: ${expected.join(', ')}`,
    location,
  );
}

/**
 * The aggregate a window call computes. ORDER BY keys reach an order-sensitive function as its last
 * arguments; any other function ignores their order, and takes them only to tell DISTINCT rows apart.
 */
function windowAggregate(name: string, types: SqlType[], location: SourceLocation | undefined, options: WindowAggregateOptions) {
  const ordering = options.ordering ?? [];
  const ordered = isOrderSensitiveAggregate(name);
  const ownTypes = ordered ? types : types.slice(0, types.length - ordering.length);
  const aggregate = resolveAggregateFunction(name, ownTypes, location, ordered ? ordering : [], options.lambdas);
  return options.distinct ? distinctWindowAggregate(aggregate, types.slice(ownTypes.length)) : aggregate;
}

export function listWindowFunctions(): FunctionInfo[] {
  return Object.keys(DESCRIPTIONS)
    .flatMap((name) =>
      signatures(name).map((s) => ({
        name,
        returnType: s.returns,
        argumentTypes: s.args,
        functionType: 'window' as const,
        deterministic: true,
        description: DESCRIPTIONS[name],
      })),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
