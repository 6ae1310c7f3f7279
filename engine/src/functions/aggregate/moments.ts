// Aggregates over central moments, one pass and mergeable (partial and final steps agree with a
// single pass): skewness and kurtosis from the count, mean and the sums of 2nd, 3rd and 4th powers
// of deviations (Pébay's pairwise update); corr, covar_pop, covar_samp, regr_slope and
// regr_intercept from the count, both means, both sums of squared deviations and the co-moment.
// A row is merged as a group of one, so input and intermediate share one update rule.
// Results as Trino's: NULL below the count a statistic needs, or where it is not finite.

import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { BIGINT, DOUBLE, REAL, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow, toFloat64 } from './accumulator-support.js';
import { readInt64Number, writeInt64Number } from '../../columnar/int64-numbers.js';

/** The state of one group, as a view over the accumulator's arrays (index 0: count). */
type Moments = Float64Array[];

interface MomentsShape {
  /** State arrays after the count. */
  readonly fields: number;
  /** Merges group `b` (values of `other` at row j, count nb) into group g of `state`. */
  merge(state: Moments, g: number, other: readonly Float64Array[], j: number, nb: number): void;
  /** The statistic of group g (NaN or infinite: NULL). */
  result(state: Moments, g: number): number;
}

// Univariate: [count, mean, m2, m3, m4].
function mergeCentral(s: Moments, g: number, o: readonly Float64Array[], j: number, nb: number): void {
  const [counts, means, m2s, m3s, m4s] = s;
  const na = counts[g];
  const n = na + nb;
  const delta = o[1][j] - means[g];
  const d2 = delta * delta;
  const [m2a, m3a, m2b, m3b] = [m2s[g], m3s[g], o[2][j], o[3][j]];
  m4s[g] +=
    o[4][j] +
    (d2 * d2 * na * nb * (na * na - na * nb + nb * nb)) / (n * n * n) +
    (6 * d2 * (na * na * m2b + nb * nb * m2a)) / (n * n) +
    (4 * delta * (na * m3b - nb * m3a)) / n;
  m3s[g] += m3b + (d2 * delta * na * nb * (na - nb)) / (n * n) + (3 * delta * (na * m2b - nb * m2a)) / n;
  m2s[g] += m2b + (d2 * na * nb) / n;
  means[g] += (delta * nb) / n;
  counts[g] = n;
}

const SKEWNESS: MomentsShape = {
  fields: 4,
  merge: mergeCentral,
  result: ([counts, , m2s, m3s], g) => (counts[g] < 3 ? NaN : (Math.sqrt(counts[g]) * m3s[g]) / Math.pow(m2s[g], 1.5)),
};

const KURTOSIS: MomentsShape = {
  fields: 4,
  merge: mergeCentral,
  result: ([counts, , m2s, , m4s], g) => {
    const n = counts[g];
    if (n < 4) return NaN;
    const m2 = m2s[g];
    return (((n - 1) * n * (n + 1)) / ((n - 2) * (n - 3))) * (m4s[g] / (m2 * m2)) - (3 * (n - 1) * (n - 1)) / ((n - 2) * (n - 3));
  },
};

// Bivariate (y, x): [count, meanX, meanY, m2X, m2Y, coMoment].
function mergeBivariate(s: Moments, g: number, o: readonly Float64Array[], j: number, nb: number): void {
  const [counts, meanXs, meanYs, m2Xs, m2Ys, cs] = s;
  const na = counts[g];
  const n = na + nb;
  const dx = o[1][j] - meanXs[g];
  const dy = o[2][j] - meanYs[g];
  const weight = (na * nb) / n;
  cs[g] += o[5][j] + dx * dy * weight;
  m2Xs[g] += o[3][j] + dx * dx * weight;
  m2Ys[g] += o[4][j] + dy * dy * weight;
  meanXs[g] += (dx * nb) / n;
  meanYs[g] += (dy * nb) / n;
  counts[g] = n;
}

const bivariate = (result: MomentsShape['result']): MomentsShape => ({ fields: 5, merge: mergeBivariate, result });

export type MomentStatistic = 'skewness' | 'kurtosis' | 'corr' | 'covar_pop' | 'covar_samp' | 'regr_slope' | 'regr_intercept';

const SHAPES: Record<MomentStatistic, MomentsShape> = {
  skewness: SKEWNESS,
  kurtosis: KURTOSIS,
  corr: bivariate(([, , , m2X, m2Y, c], g) => c[g] / Math.sqrt(m2X[g] * m2Y[g])),
  covar_pop: bivariate(([n, , , , , c], g) => (n[g] === 0 ? NaN : c[g] / n[g])),
  covar_samp: bivariate(([n, , , , , c], g) => (n[g] <= 1 ? NaN : c[g] / (n[g] - 1))),
  regr_slope: bivariate(([, , , m2X, , c], g) => c[g] / m2X[g]),
  regr_intercept: bivariate(([, meanX, meanY, m2X, , c], g) => meanY[g] - (c[g] / m2X[g]) * meanX[g]),
};

class MomentsAccumulator implements GroupedAccumulator {
  private state: Moments;
  /** A row as a group of one: its values, count 1, deviations 0. */
  private readonly row: Float64Array[];

  constructor(
    private readonly shape: MomentsShape,
    private readonly returnType: SqlType,
  ) {
    this.state = Array.from({ length: shape.fields + 1 }, () => new Float64Array(16));
    this.row = Array.from({ length: shape.fields + 1 }, () => new Float64Array(1));
  }

  ensureCapacity(groupCount: number): void {
    this.state = this.state.map((a) => grow(a, groupCount));
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    if (args.some((a) => a.type.kind === 'unknown')) return;
    // Bivariate functions take (y, x): the state keeps x first.
    const values = (args.length === 2 ? [args[1], args[0]] : args).map(toFloat64);
    const nulls = args.map((a) => a.nulls);
    const row = this.row;
    for (let i = start; i < end; i++) {
      if (nulls.some((n) => n !== null && n[i] === 1)) continue;
      for (let v = 0; v < values.length; v++) row[v + 1][0] = values[v][i];
      this.shape.merge(this.state, groupIds[i], row, 0, 1);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const counts = int64Words(intermediates[0].values as BigInt64Array);
    const other = intermediates.map((c) => c.values as Float64Array);
    for (let i = start; i < end; i++) {
      const nb = readInt64Number(counts, i);
      if (nb !== 0) this.shape.merge(this.state, groupIds[i], other, i, nb);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const length = end - start;
    const countValues = new BigInt64Array(length);
    const words = int64Words(countValues);
    for (let g = start; g < end; g++) writeInt64Number(words, g - start, this.state[0][g]);
    return [
      { type: BIGINT, length, values: countValues, nulls: null },
      ...this.state.slice(1).map((a): Column => ({ type: DOUBLE, length, values: a.slice(start, end), nulls: null })),
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const value = this.state[0][group] === 0 ? NaN : this.shape.result(this.state, group);
    const finite = Number.isFinite(value);
    if (finite) (out.values as Float64Array | Float32Array)[row] = value;
    out.nulls[row] = finite ? 0 : 1;
  }

  sizeInBytes(): number {
    return this.state.reduce((bytes, a) => bytes + a.byteLength, 0);
  }
}

/** `statistic` over arguments of `argumentTypes` (double or real; real in, real out, as Trino). */
export function momentsFunction(statistic: MomentStatistic, argumentTypes: SqlType[]): AggregateFunction {
  const shape = SHAPES[statistic];
  const returnType = argumentTypes.every((t) => t.kind === 'real') ? REAL : DOUBLE;
  return {
    name: statistic,
    argumentTypes,
    returnType,
    intermediateTypes: [BIGINT, ...Array.from({ length: shape.fields }, () => DOUBLE)],
    createAccumulator: () => new MomentsAccumulator(shape, returnType),
  };
}
