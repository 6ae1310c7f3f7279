// approx_percentile(x, [w,] percentage | percentages) over bigint, double and real (decimals as real,
// as Trino binds them): a t-digest per
// group (tdigest.ts), as Trino's. The percentage is constant for the query (the last one seen is
// used, as in Trino); it travels in the intermediate state with the digest's centroids, so the final
// step needs no plan constant. bigint results are the digest's value rounded, real results rounded
// to float. Empty groups are NULL.

import { EngineError } from '../../errors/engine-error.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { listColumnFromRows } from '../../columnar/list-column.js';
import { BIGINT, DOUBLE, REAL, type SqlType, arrayOf } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, toFloat64 } from './accumulator-support.js';
import { TDigest } from '../../types/sketch/tdigest.js';

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** Number formatting in these messages follows Java's Double.toString for the common cases. */
const javaDouble = (x: number) => (Number.isFinite(x) && Number.isInteger(x) ? x.toFixed(1) : String(x));

class ApproxPercentileAccumulator implements GroupedAccumulator {
  private digests: (TDigest | undefined)[] = [];
  private percentiles: number | readonly number[] | undefined;

  constructor(
    private readonly valueType: SqlType,
    private readonly weighted: boolean,
    private readonly many: boolean,
  ) {}

  ensureCapacity(groupCount: number): void {
    if (this.digests.length < groupCount) this.digests.length = groupCount;
  }

  private digest(group: number): TDigest {
    let digest = this.digests[group];
    if (digest === undefined) {
      digest = new TDigest();
      this.digests[group] = digest;
    }
    return digest;
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [values, weights, percentages] = this.weighted ? args : [args[0], undefined, args[1]];
    if (values.type.kind === 'unknown') return;
    const numbers = toFloat64(values);
    const weightNumbers = weights === undefined ? undefined : toFloat64(weights);
    const exactLongs = values.type.kind === 'bigint' ? (values.values as BigInt64Array) : undefined;
    for (let i = start; i < end; i++) {
      if (values.nulls !== null && values.nulls[i] === 1) continue;
      if (weights !== undefined && weights.nulls !== null && weights.nulls[i] === 1) continue;
      if (percentages.nulls !== null && percentages.nulls[i] === 1) continue;
      const value = numbers[i];
      if (exactLongs !== undefined && BigInt(value) !== exactLongs[i])
        throw invalid(`no exact double representation for long: ${exactLongs[i]}`);
      if (!Number.isFinite(value)) throw invalid(`value must be finite; was ${javaDouble(value)}`);
      const weight = weightNumbers === undefined ? 1 : weightNumbers[i];
      if (!Number.isFinite(weight)) throw invalid(`weight must be finite, was ${javaDouble(weight)}`);
      if (weight < 1) throw invalid(`weight must be >= 1, was ${javaDouble(weight)}`);
      this.percentiles = getScalar(percentages, i) as number | readonly number[];
      this.digest(groupIds[i]).add(value, weight);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const [means, weights, bounds, percentages] = intermediates;
    for (let i = start; i < end; i++) {
      const groupMeans = getScalar(means, i) as readonly number[] | null;
      if (groupMeans === null) continue;
      const [min, max] = getScalar(bounds, i) as readonly number[];
      this.digest(groupIds[i]).addDigest(groupMeans, getScalar(weights, i) as readonly number[], min, max);
      this.percentiles = getScalar(percentages, i) as number | readonly number[];
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const groups = this.digests.slice(start, end);
    groups.forEach((d) => d?.compress());
    const length = end - start;
    const list = (f: (d: TDigest) => number[]) =>
      listColumnFromRows(
        arrayOf(DOUBLE),
        groups.map((d) => (d === undefined ? null : f(d))),
        length,
      );
    const percentiles: Scalar = this.percentiles ?? null;
    return [
      list((d) => d.means),
      list((d) => d.weights),
      list((d) => [d.min, d.max]),
      this.many
        ? listColumnFromRows(
            arrayOf(DOUBLE),
            groups.map(() => percentiles),
            length,
          )
        : {
            type: DOUBLE,
            length,
            values: new Float64Array(length).fill(typeof percentiles === 'number' ? percentiles : 0),
            nulls: percentiles === null ? new Uint8Array(length).fill(1) : null,
          },
    ];
  }

  writeFinal(start: number, end: number): Column {
    const returnType = this.many ? arrayOf(this.valueType) : this.valueType;
    return finalColumn(returnType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  private valueOf(digest: TDigest, percentile: number | null): Scalar {
    if (percentile === null) throw invalid('Percentile cannot be null');
    if (!(percentile >= 0 && percentile <= 1)) throw invalid('Percentile must be between 0 and 1');
    const value = digest.valueAt(percentile);
    if (this.valueType.kind === 'bigint') return BigInt(Math.round(value));
    return this.valueType.kind === 'real' ? Math.fround(value) : value;
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const digest = this.digests[group];
    if (digest === undefined || digest.totalWeight === 0 || this.percentiles === undefined) {
      out.nulls[row] = 1;
      return;
    }
    const percentiles = this.percentiles;
    const value = Array.isArray(percentiles)
      ? percentiles.map((p) => this.valueOf(digest, p))
      : this.valueOf(digest, percentiles as number);
    (out.values as Scalar[] | BigInt64Array | Float64Array | Float32Array)[row] = value as never;
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    let bytes = 8 * this.digests.length;
    for (const d of this.digests) if (d !== undefined) bytes += d.sizeInBytes();
    return bytes;
  }
}

/**
 * The signature Trino binds x to among its bigint, real and double ones: the most specific that x
 * coerces to, so a decimal is read as real (decimal coerces to real and double, and real to double)
 * and an untyped NULL as bigint.
 */
function percentileValueType(value: SqlType): SqlType | undefined {
  switch (value.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'unknown':
      return BIGINT;
    case 'real':
    case 'decimal':
      return REAL;
    case 'double':
      return DOUBLE;
    default:
      return undefined;
  }
}

/** approx_percentile over (value, [weight,] percentage or array of percentages). */
export function approxPercentileFunction(types: readonly SqlType[]): AggregateFunction | undefined {
  if (types.length !== 2 && types.length !== 3) return undefined;
  const valueType = percentileValueType(types[0]);
  if (valueType === undefined) return undefined;
  const percentage = types[types.length - 1];
  const many = percentage.kind === 'array';
  const weighted = types.length === 3;
  return {
    name: 'approx_percentile',
    argumentTypes: [valueType, ...(weighted ? [DOUBLE] : []), many ? arrayOf(DOUBLE) : DOUBLE],
    returnType: many ? arrayOf(valueType) : valueType,
    intermediateTypes: [arrayOf(DOUBLE), arrayOf(DOUBLE), arrayOf(DOUBLE), many ? arrayOf(DOUBLE) : DOUBLE],
    createAccumulator: () => new ApproxPercentileAccumulator(valueType, weighted, many),
  };
}
