// sum(x): integers and bigint sum exactly into bigint (overflow is an error), decimals exactly into
// decimal(38, s), doubles and reals in double precision, intervals into their own type.

import type { Column } from '../../columnar/page.js';
import { EngineError } from '../../errors/engine-error.js';
import { checkDecimalOverflow } from '../../types/decimal.js';
import { BIGINT, DOUBLE, MAX_DECIMAL_PRECISION, decimal, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow, toFloat64 } from './accumulator-support.js';
import { ExactSums, type RangeCheck } from './exact-sums.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export const checkBigintSum: RangeCheck = (before, added, sum) => {
  if (sum < INT64_MIN || sum > INT64_MAX) {
    throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `bigint addition overflow: ${before} + ${added}`);
  }
};

export const checkDecimalSum: RangeCheck = (_before, _added, sum) => {
  checkDecimalOverflow(sum, MAX_DECIMAL_PRECISION);
};

/** Exact sums of integral or decimal input, into bigint or decimal(38, s). */
class ExactSumAccumulator implements GroupedAccumulator {
  private readonly sums: ExactSums;

  constructor(
    private readonly returnType: SqlType,
    check: RangeCheck,
  ) {
    this.sums = new ExactSums(check);
  }

  ensureCapacity(groupCount: number): void {
    this.sums.ensureCapacity(groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.sums.addColumn(groupIds, args[0], start, end);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.sums.addColumn(groupIds, intermediates[0], start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return (
      this.sums.exactColumn(this.returnType, start, end) ??
      finalColumn(this.returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row))
    );
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    if (this.sums.has[group] === 0) {
      out.nulls[row] = 1;
      return;
    }
    (out.values as bigint[])[row] = this.sums.checkedTotal(group);
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.sums.sizeInBytes();
  }
}

/** Sums in double precision; the output array's type rounds (real) or keeps (double, intervals). */
export class DoubleSumAccumulator implements GroupedAccumulator {
  private sums = new Float64Array(16);
  private has = new Uint8Array(16);

  constructor(private readonly returnType: SqlType) {}

  ensureCapacity(groupCount: number): void {
    this.sums = grow(this.sums, groupCount);
    this.has = grow(this.has, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const values = column.values instanceof Float64Array ? column.values : toFloat64(column);
    const nulls = column.nulls;
    const sums = this.sums;
    const has = this.has;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      sums[g] += values[i];
      has[g] = 1;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addInput(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [finalColumn(DOUBLE, start, end, (g, out, row) => this.writeFinalAt(g, out, row))];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    if (this.has[group] === 0) {
      out.nulls[row] = 1;
      return;
    }
    (out.values as Float64Array)[row] = this.sums[group];
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.sums.byteLength + this.has.byteLength;
  }
}

/** sum for one argument type, or undefined when sum does not take it. */
export function sumFunction(argumentType: SqlType): AggregateFunction | undefined {
  switch (argumentType.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return exactSum(argumentType, BIGINT, checkBigintSum);
    case 'unknown':
      return exactSum(BIGINT, BIGINT, checkBigintSum);
    case 'decimal': {
      const returnType = decimal(MAX_DECIMAL_PRECISION, argumentType.scale);
      return exactSum(argumentType, returnType, checkDecimalSum);
    }
    case 'real':
    case 'double':
    case 'interval year to month':
    case 'interval day to second':
      return {
        name: 'sum',
        argumentTypes: [argumentType],
        returnType: argumentType,
        intermediateTypes: [DOUBLE],
        createAccumulator: () => new DoubleSumAccumulator(argumentType),
      };
    default:
      return undefined;
  }
}

function exactSum(argumentType: SqlType, returnType: SqlType, check: RangeCheck): AggregateFunction {
  return {
    name: 'sum',
    argumentTypes: [argumentType],
    returnType,
    intermediateTypes: [returnType],
    createAccumulator: () => new ExactSumAccumulator(returnType, check),
  };
}
