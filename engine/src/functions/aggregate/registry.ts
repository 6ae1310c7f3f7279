// The aggregate function registry: resolves a name and argument types to an AggregateFunction, and
// lists every signature (SHOW FUNCTIONS). Failures read as Trino's: FUNCTION_NOT_FOUND with
// "Function 'x' not registered" or "Unexpected parameters (...) for function x. Expected: ...".

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { canCoerce } from '../../types/coercion.js';
import { BIGINT, BOOLEAN, DOUBLE, REAL, isIntegral, typeName, type SqlType } from '../../types/types.js';
import type { FunctionInfo } from '../function-info.js';
import type { AggregateFunction } from './aggregate-function.js';
import { approxDistinctFunction } from './approx-distinct.js';
import { SKETCH_AGGREGATES } from '../sketch/sketch-aggregates.js';
import { approxMostFrequentFunction } from './approx-most-frequent.js';
import { approxPercentileFunction } from './approx-percentile.js';
import { arrayAggFunction, type AggregateOrdering } from './array-agg.js';
import { mapAggFunction } from './map-agg.js';
import { arbitraryFunction } from './arbitrary.js';
import { avgFunction } from './avg.js';
import { bitwiseAggregate, type BitwiseOperation } from './bitwise-aggregates.js';
import { booleanAggregate } from './boolean-aggregates.js';
import { countFunction } from './count.js';
import { geometricMeanFunction } from './geometric-mean.js';
import { listaggFunction } from './listagg.js';
import { orderedAggregate } from './ordered-aggregate.js';
import { byKeyFunction, extremeFunction } from './min-max.js';
import { momentsFunction, type MomentStatistic } from './moments.js';
import { numericHistogramFunction } from './numeric-histogram.js';
import { topNFunction } from './top-n.js';
import { sumFunction } from './sum.js';
import { numberAggregate } from './number-aggregates.js';
import { reduceAggFunction } from './reduce-agg.js';
import { checksumFunction } from './checksum.js';
import type { LambdaExpression } from '../../sql/planner/row-expression.js';
import { isOrderable } from '../scalar/map-comparison.js';
import { varianceFunction, type VarianceKind } from './variance.js';

export type { AggregateFunction, GroupedAccumulator } from './aggregate-function.js';

interface Signature {
  args: string[];
  returns: string;
  /** Type variable constraints as Trino prints them after the signature (`T:orderable`). */
  constraints?: string;
}

export interface Family {
  signatures: Signature[];
  description: string;
  resolve(types: readonly SqlType[]): AggregateFunction | undefined;
  /** For order-sensitive functions: the function with ORDER BY keys (their types follow the arguments'). */
  resolveOrdered?(types: readonly SqlType[], ordering: readonly AggregateOrdering[]): AggregateFunction | undefined;
}

const unary =
  (f: (t: SqlType) => AggregateFunction | undefined) =>
  (types: readonly SqlType[]): AggregateFunction | undefined =>
    types.length === 1 ? f(types[0]) : undefined;

/** Integral input is taken as is (read without a cast); anything else numeric is coerced to double. */
function doubleInput(t: SqlType): SqlType | undefined {
  if (isIntegral(t)) return t;
  return canCoerce(t, DOUBLE) ? DOUBLE : undefined;
}

/** A statistic of one numeric argument, as double: integral input read as is, the rest as double. */
function doubleStatisticFamily(description: string, make: (input: SqlType) => AggregateFunction): Family {
  return {
    signatures: [
      { args: ['bigint'], returns: 'double' },
      { args: ['double'], returns: 'double' },
    ],
    description,
    resolve: unary((t) => {
      const input = doubleInput(t);
      return input && make(input);
    }),
  };
}

const varianceFamily = (name: string, kind: VarianceKind, description: string): Family =>
  doubleStatisticFamily(description, (input) => varianceFunction(name, kind, input));

const centralMomentFamily = (statistic: MomentStatistic, description: string): Family =>
  doubleStatisticFamily(description, (input) => momentsFunction(statistic, [input]));

/** Two-variable statistics of (y, x): real for two reals, as Trino, otherwise double. */
function bivariateFamily(statistic: MomentStatistic, description: string): Family {
  return {
    signatures: [
      { args: ['double', 'double'], returns: 'double' },
      { args: ['real', 'real'], returns: 'real' },
    ],
    description,
    resolve: (types) => {
      if (types.length !== 2) return undefined;
      if (types.every((t) => t.kind === 'real')) return momentsFunction(statistic, [REAL, REAL]);
      return types.every((t) => canCoerce(t, DOUBLE)) ? momentsFunction(statistic, [DOUBLE, DOUBLE]) : undefined;
    },
  };
}

function bitwiseFamily(operation: BitwiseOperation): Family {
  return {
    signatures: [{ args: ['bigint'], returns: 'bigint' }],
    description: `Returns the bitwise ${operation.toUpperCase()} of all input values in 2's complement representation`,
    resolve: unary((t) => (canCoerce(t, BIGINT) ? bitwiseAggregate(operation) : undefined)),
  };
}

function booleanFamily(name: string, isAnd: boolean, description: string): Family {
  return {
    signatures: [{ args: ['boolean'], returns: 'boolean' }],
    description,
    resolve: unary((t) => (canCoerce(t, BOOLEAN) ? booleanAggregate(name, isAnd) : undefined)),
  };
}

function arbitraryFamily(name: string): Family {
  return {
    signatures: [{ args: ['T'], returns: 'T', constraints: 'T' }],
    description: 'Return an arbitrary non-null input value',
    resolve: unary((t) => arbitraryFunction(name, t)),
  };
}

function extremeFamily(name: 'min' | 'max'): Family {
  return {
    signatures: [
      { args: ['T'], returns: 'T', constraints: 'T:orderable' },
      { args: ['T', 'bigint'], returns: 'array(T)', constraints: 'T:orderable' },
    ],
    description: `Returns the ${name === 'max' ? 'maximum' : 'minimum'} value of the argument (or the n ${name === 'max' ? 'largest' : 'smallest'} values)`,
    resolve: (types) =>
      !isOrderable(types[0] ?? UNKNOWN_TYPE)
        ? undefined
        : types.length === 1
          ? extremeFunction(name, types[0])
          : types.length === 2 && canCoerce(types[1], BIGINT)
            ? topNFunction(name, types)
            : undefined,
  };
}

function byKeyFamily(name: 'min_by' | 'max_by'): Family {
  return {
    signatures: [
      { args: ['V', 'K'], returns: 'V', constraints: 'V, K:orderable' },
      { args: ['V', 'K', 'bigint'], returns: 'array(V)', constraints: 'V, K:orderable' },
    ],
    description: `Returns the value of the first argument, associated with the ${name === 'max_by' ? 'maximum' : 'minimum'} value of the second argument (or the n values)`,
    resolve: (types) =>
      types.length < 2 || !isOrderable(types[1])
        ? undefined
        : types.length === 2
          ? byKeyFunction(name, types[0], types[1])
          : types.length === 3 && canCoerce(types[2], BIGINT)
            ? topNFunction(name, types)
            : undefined,
  };
}

/** The family's function over the arguments before the ORDER BY keys, fed its rows in their order. */
function orderedForm(family: Family, types: readonly SqlType[], ordering: readonly AggregateOrdering[]): AggregateFunction | undefined {
  const split = types.length - ordering.length;
  const inner = family.resolve(types.slice(0, split));
  return inner && orderedAggregate(inner, types.slice(split), ordering);
}

const NUMERIC_SUM_SIGNATURES = ['bigint', 'decimal(p,s)', 'double', 'real', 'interval day to second', 'interval year to month', 'number'];

const FAMILIES: Record<string, Family> = {
  checksum: {
    signatures: [{ args: ['T'], returns: 'varbinary', constraints: 'T:comparable' }],
    description: 'Checksum of the given values',
    resolve: unary((t) => checksumFunction(t)),
  },
  // Its lambdas come apart from the argument types (resolveAggregateFunction): by types alone it resolves to nothing.
  reduce_agg: {
    signatures: [{ args: ['T', 'S', 'function(S,T,S)', 'function(S,S,S)'], returns: 'S', constraints: 'T, S' }],
    description: 'Reduce input elements into a single value',
    resolve: () => undefined,
  },
  count: {
    signatures: [
      { args: [], returns: 'bigint' },
      { args: ['T'], returns: 'bigint', constraints: 'T' },
    ],
    description: 'Counts the non-null values',
    resolve: (types) =>
      types.length === 0
        ? countFunction('count', 'rows', [])
        : types.length === 1
          ? countFunction('count', 'non-null', [types[0]])
          : undefined,
  },
  count_if: {
    signatures: [{ args: ['boolean'], returns: 'bigint' }],
    description: 'Counts the rows where the argument is TRUE',
    resolve: unary((t) => (canCoerce(t, BOOLEAN) ? countFunction('count_if', 'true', [BOOLEAN]) : undefined)),
  },
  sum: {
    signatures: NUMERIC_SUM_SIGNATURES.map((a) => ({ args: [a], returns: a === 'decimal(p,s)' ? 'decimal(38,s)' : a })),
    description: 'Returns the sum of the argument',
    resolve: unary((t) => numberAggregate('sum', t) ?? sumFunction(t)),
  },
  avg: {
    signatures: NUMERIC_SUM_SIGNATURES.map((a) => ({ args: [a], returns: a === 'bigint' ? 'double' : a })),
    description: 'Returns the average (arithmetic mean) of the argument',
    resolve: unary((t) => numberAggregate('avg', t) ?? avgFunction(t)),
  },
  min: extremeFamily('min'),
  max: extremeFamily('max'),
  min_by: byKeyFamily('min_by'),
  max_by: byKeyFamily('max_by'),
  arbitrary: arbitraryFamily('arbitrary'),
  any_value: arbitraryFamily('any_value'),
  bool_and: booleanFamily('bool_and', true, 'Returns TRUE if every input value is TRUE'),
  every: booleanFamily('every', true, 'Returns TRUE if every input value is TRUE'),
  bool_or: booleanFamily('bool_or', false, 'Returns TRUE if any input value is TRUE'),
  stddev: varianceFamily('stddev', 'stddev_samp', 'Returns the sample standard deviation of the argument'),
  stddev_samp: varianceFamily('stddev_samp', 'stddev_samp', 'Returns the sample standard deviation of the argument'),
  stddev_pop: varianceFamily('stddev_pop', 'stddev_pop', 'Returns the population standard deviation of the argument'),
  variance: varianceFamily('variance', 'var_samp', 'Returns the sample variance of the argument'),
  var_samp: varianceFamily('var_samp', 'var_samp', 'Returns the sample variance of the argument'),
  var_pop: varianceFamily('var_pop', 'var_pop', 'Returns the population variance of the argument'),
  geometric_mean: doubleStatisticFamily('Returns the geometric mean of the argument', geometricMeanFunction),
  array_agg: {
    signatures: [{ args: ['T'], returns: 'array(T)', constraints: 'T' }],
    description: 'return an array of values',
    resolve: unary((t) => arrayAggFunction([t], [])),
    resolveOrdered: (types, ordering) => (types.length === 1 + ordering.length ? arrayAggFunction(types, ordering) : undefined),
  },
  skewness: centralMomentFamily('skewness', 'Returns the skewness of the argument'),
  kurtosis: centralMomentFamily('kurtosis', 'Returns the (excess) kurtosis of the argument'),
  corr: bivariateFamily('corr', 'Returns the correlation coefficient of the arguments'),
  covar_pop: bivariateFamily('covar_pop', 'Returns the population covariance of the arguments'),
  covar_samp: bivariateFamily('covar_samp', 'Returns the sample covariance of the arguments'),
  regr_slope: bivariateFamily('regr_slope', 'Returns the linear regression slope of y (first argument) on x'),
  regr_intercept: bivariateFamily('regr_intercept', 'Returns the linear regression intercept of y (first argument) on x'),
  bitwise_and_agg: bitwiseFamily('and'),
  bitwise_or_agg: bitwiseFamily('or'),
  bitwise_xor_agg: bitwiseFamily('xor'),
  listagg: {
    signatures: [{ args: ['varchar(x)', 'varchar(y)', 'boolean', 'varchar(z)', 'boolean'], returns: 'varchar' }],
    description: 'concatenates the input values with the specified separator',
    resolve: (types) => listaggFunction(types, []),
    resolveOrdered: (types, ordering) => listaggFunction(types, ordering),
  },
  map_agg: {
    signatures: [{ args: ['K', 'V'], returns: 'map(K,V)', constraints: 'K:comparable, V' }],
    description: 'Aggregates all the rows (key/value pairs) into a single map',
    resolve: (types) => (types.length === 2 ? mapAggFunction('map_agg', types) : undefined),
    resolveOrdered: (types, ordering) => orderedForm(FAMILIES.map_agg, types, ordering),
  },
  multimap_agg: {
    signatures: [{ args: ['K', 'V'], returns: 'map(K,array(V))', constraints: 'K:comparable, V' }],
    description: 'Aggregates all the rows (key/value pairs) into a single multimap',
    resolve: (types) => (types.length === 2 ? mapAggFunction('multimap_agg', types) : undefined),
    resolveOrdered: (types, ordering) => orderedForm(FAMILIES.multimap_agg, types, ordering),
  },
  histogram: {
    signatures: [{ args: ['T'], returns: 'map(T,bigint)', constraints: 'T:comparable' }],
    description: 'Count the number of times each value occurs',
    resolve: unary((t) => mapAggFunction('histogram', [t])),
  },
  approx_percentile: {
    signatures: ['bigint', 'double', 'real'].flatMap((t) => [
      { args: [t, 'double'], returns: t },
      { args: [t, 'double', 'double'], returns: t },
      { args: [t, 'array(double)'], returns: `array(${t})` },
      { args: [t, 'double', 'array(double)'], returns: `array(${t})` },
    ]),
    description: 'Returns the approximate percentile of the values (t-digest)',
    resolve: approxPercentileFunction,
  },
  approx_most_frequent: {
    signatures: [
      { args: ['bigint', 'bigint', 'bigint'], returns: 'map(bigint,bigint)' },
      { args: ['bigint', 'varchar', 'bigint'], returns: 'map(varchar,bigint)' },
    ],
    description: 'Computes the top frequent values up to buckets elements approximately (stream summary)',
    resolve: approxMostFrequentFunction,
  },
  numeric_histogram: {
    signatures: [
      { args: ['bigint', 'double'], returns: 'map(double,double)' },
      { args: ['bigint', 'double', 'double'], returns: 'map(double,double)' },
      { args: ['bigint', 'real'], returns: 'map(real,real)' },
      { args: ['bigint', 'real', 'real'], returns: 'map(real,real)' },
    ],
    description: 'Computes an approximate histogram with up to buckets number of buckets',
    resolve: numericHistogramFunction,
  },
  approx_distinct: {
    signatures: [{ args: ['T'], returns: 'bigint', constraints: 'T' }],
    description: 'Returns the approximate number of distinct values (HyperLogLog, standard error 2.3%)',
    resolve: unary(approxDistinctFunction),
  },
  ...SKETCH_AGGREGATES,
  map_union: {
    signatures: [{ args: ['map(K,V)'], returns: 'map(K,V)', constraints: 'K, V' }],
    description: 'Aggregate all the maps into a single map',
    resolve: unary((t) => (t.kind === 'map' ? mapAggFunction('map_union', [t]) : undefined)),
  },
};

// Trino declares qdigest_agg and merge order-sensitive (a q-digest's compression depends on the order
// its values come in): ORDER BY in their calls feeds them sorted.
for (const name of ['qdigest_agg', 'merge']) {
  const family = FAMILIES[name];
  FAMILIES[name] = { ...family, resolveOrdered: (types, ordering) => orderedForm(family, types, ordering) };
}

const UNKNOWN_TYPE: SqlType = { kind: 'unknown' };

/**
 * Whether ORDER BY inside a call of the aggregate changes its value (Trino's order-sensitive
 * aggregates); for any other, the planner drops the ORDER BY, as Trino does.
 */
export function isOrderSensitiveAggregate(name: string): boolean {
  const key = name.toLowerCase();
  return Object.hasOwn(FAMILIES, key) && FAMILIES[key].resolveOrdered !== undefined;
}

export function isAggregateFunctionName(name: string): boolean {
  const key = name.toLowerCase();
  return key in FAMILIES;
}

/**
 * The aggregate `name` over `argumentTypes`; with `ordering` (ORDER BY inside the call), the last
 * ordering.length argument types are the keys'.
 */
export function resolveAggregateFunction(
  name: string,
  argumentTypes: SqlType[],
  location?: SourceLocation,
  ordering: readonly AggregateOrdering[] = [],
  lambdas: readonly LambdaExpression[] = [],
): AggregateFunction {
  const key = name.toLowerCase();
  if (key === 'reduce_agg' && lambdas.length === 2) return reduceAggFunction(argumentTypes, lambdas, location);
  const family = Object.hasOwn(FAMILIES, key) ? FAMILIES[key] : undefined;
  if (family === undefined) throw new EngineError('FUNCTION_NOT_FOUND', `Function '${key}' not registered`, location);
  if (ordering.length > 0 && family.resolveOrdered === undefined) {
    throw new EngineError('NOT_SUPPORTED', `ORDER BY in calls of aggregate ${key} is not supported`, location);
  }
  const resolved = ordering.length > 0 ? family.resolveOrdered?.(argumentTypes, ordering) : family.resolve(argumentTypes);
  if (resolved !== undefined) return resolved;
  argumentTypes = argumentTypes.slice(0, argumentTypes.length - ordering.length);
  const expected = [...new Set(family.signatures.map((s) => `${key}(${s.args.join(', ')}) ${s.constraints ?? ''}`.trimEnd()))].sort();
  throw new EngineError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${argumentTypes.map(typeName).join(', ')}) for function ${key}. Expected: ${expected.join(', ')}`,
    location,
  );
}

export function listAggregateFunctions(): FunctionInfo[] {
  const infos: FunctionInfo[] = [];
  for (const [name, family] of Object.entries(FAMILIES)) {
    for (const s of family.signatures) {
      infos.push({
        name,
        returnType: s.returns,
        argumentTypes: s.args,
        functionType: 'aggregate',
        deterministic: true,
        description: family.description,
      });
    }
  }
  return infos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
