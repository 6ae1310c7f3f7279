// avg(x): integers, bigint and doubles average in double precision (returning double), reals return
// real, intervals their own type; decimals average exactly, rounded HALF_UP to decimal(p, s).

import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { divideRoundHalfUp } from '../../types/decimal.js';
import { BIGINT, DOUBLE, MAX_DECIMAL_PRECISION, decimal, isInterval, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow, toFloat64 } from './accumulator-support.js';
import { readInt64Number, writeInt64Number } from '../../columnar/int64-numbers.js';
import { ExactSums } from './exact-sums.js';
import { checkDecimalSum } from './sum.js';

/** Adds the non-NULL counts of a bigint intermediate column into `counts`. */
export function addCounts(counts: Float64Array, groupIds: Int32Array, column: Column, start: number, end: number): void {
  const words = int64Words(column.values as BigInt64Array);
  const nulls = column.nulls;
  for (let i = start; i < end; i++) if (nulls === null || nulls[i] === 0) counts[groupIds[i]] += readInt64Number(words, i);
}

export function countsColumn(counts: Float64Array, start: number, end: number): Column {
  const values = new BigInt64Array(end - start);
  const words = int64Words(values);
  for (let g = start; g < end; g++) writeInt64Number(words, g - start, counts[g]);
  return { type: BIGINT, length: end - start, values, nulls: null };
}

/**
 * The mean of each group in double precision. `scale` maps each input before summing and `unscale`
 * the mean (geometric_mean averages logarithms: ln in, exp out).
 */
export class DoubleAverageAccumulator implements GroupedAccumulator {
  private sums = new Float64Array(16);
  private counts = new Float64Array(16);

  constructor(
    private readonly returnType: SqlType,
    private readonly scale?: (value: number) => number,
    private readonly unscale?: (mean: number) => number,
  ) {}

  ensureCapacity(groupCount: number): void {
    this.sums = grow(this.sums, groupCount);
    this.counts = grow(this.counts, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const values = toFloat64(column);
    const nulls = column.nulls;
    const sums = this.sums;
    const counts = this.counts;
    const scale = this.scale;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      sums[g] += scale === undefined ? values[i] : scale(values[i]);
      counts[g]++;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    // A NULL state (an outer join's unmatched row, below which the partial step ran) adds nothing.
    const { values, nulls } = intermediates[0];
    const sums = values as Float64Array;
    for (let i = start; i < end; i++) if (nulls === null || nulls[i] === 0) this.sums[groupIds[i]] += sums[i];
    addCounts(this.counts, groupIds, intermediates[1], start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    const sums = this.sums.slice(start, end);
    return [{ type: DOUBLE, length: end - start, values: sums, nulls: null }, countsColumn(this.counts, start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const count = this.counts[group];
    if (count === 0) {
      out.nulls[row] = 1;
      return;
    }
    const average = this.sums[group] / count;
    (out.values as Float64Array)[row] = this.unscale ? this.unscale(average) : isInterval(this.returnType) ? Math.round(average) : average;
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.sums.byteLength + this.counts.byteLength;
  }
}

class DecimalAverageAccumulator implements GroupedAccumulator {
  private readonly sums = new ExactSums(checkDecimalSum);
  private counts = new Float64Array(16);

  constructor(
    private readonly returnType: SqlType,
    private readonly sumType: SqlType,
  ) {}

  ensureCapacity(groupCount: number): void {
    this.sums.ensureCapacity(groupCount);
    this.counts = grow(this.counts, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    this.sums.addColumn(groupIds, column, start, end);
    const nulls = column.nulls;
    const counts = this.counts;
    if (nulls === null) for (let i = start; i < end; i++) counts[groupIds[i]]++;
    else for (let i = start; i < end; i++) if (nulls[i] === 0) counts[groupIds[i]]++;
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.sums.addColumn(groupIds, intermediates[0], start, end);
    addCounts(this.counts, groupIds, intermediates[1], start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    const sums =
      this.sums.exactColumn(this.sumType, start, end) ??
      finalColumn(this.sumType, start, end, (g, out, row) => {
        (out.values as bigint[])[row] = this.sums.total(g);
      });
    return [sums, countsColumn(this.counts, start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const count = this.counts[group];
    if (count === 0) {
      out.nulls[row] = 1;
      return;
    }
    (out.values as bigint[])[row] = divideRoundHalfUp(this.sums.checkedTotal(group), BigInt(count));
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.sums.sizeInBytes() + this.counts.byteLength;
  }
}

export function avgFunction(argumentType: SqlType): AggregateFunction | undefined {
  const doubleAverage = (argument: SqlType, returnType: SqlType): AggregateFunction => ({
    name: 'avg',
    argumentTypes: [argument],
    returnType,
    intermediateTypes: [DOUBLE, BIGINT],
    createAccumulator: () => new DoubleAverageAccumulator(returnType),
  });
  switch (argumentType.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'double':
      return doubleAverage(argumentType, DOUBLE);
    case 'unknown':
      return doubleAverage(DOUBLE, DOUBLE);
    case 'real':
    case 'interval year to month':
    case 'interval day to second':
      return doubleAverage(argumentType, argumentType);
    case 'decimal': {
      const sumType = decimal(MAX_DECIMAL_PRECISION, argumentType.scale);
      return {
        name: 'avg',
        argumentTypes: [argumentType],
        returnType: argumentType,
        intermediateTypes: [sumType, BIGINT],
        createAccumulator: () => new DecimalAverageAccumulator(argumentType, sumType),
      };
    }
    default:
      return undefined;
  }
}
