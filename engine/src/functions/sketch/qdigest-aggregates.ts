// qdigest_agg(x [, w [, accuracy]]) and merge(qdigest(T)), as Trino has them: x bigint (any integral
// type), double or real (or decimal); integral weights > 0; the accuracy (default 0.01) of a group's
// first row makes its digest, every row's must lie in (0, 1). Merging digests of different
// accuracies fails, as in Trino.

import type { Column } from '../../columnar/page.js';
import { BIGINT, DOUBLE, REAL, type SqlType, isIntegral } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import { EngineError } from '../../errors/engine-error.js';
import type { AggregateFunction } from '../aggregate/aggregate-function.js';
import { toFloat64 } from '../aggregate/accumulator-support.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { SketchAccumulator, type SketchCodec } from './sketch-accumulator.js';
import { type Key, keyOfDouble, keyOfLongWords, keyOfReal } from '../../types/sketch/qdigest-bits.js';
import { type QDigestElement, qdigestElement, qdigestType } from '../../types/sketch/qdigest-type.js';
import { QuantileDigest } from '../../types/sketch/qdigest.js';

const DEFAULT_ACCURACY = 0.01;
const ELEMENT_TYPES: Record<QDigestElement, SqlType> = { bigint: BIGINT, double: DOUBLE, real: REAL };

/** Java's Double.toString for the values in messages: integers keep a ".0". */
const javaDouble = (x: number): string => (Number.isFinite(x) && Number.isInteger(x) ? x.toFixed(1) : String(x));

function codecOf(element: QDigestElement): SketchCodec<QuantileDigest> {
  return { type: qdigestType(element), deserialize: (bytes) => QuantileDigest.deserialize(bytes) };
}

/** The key reader of a value column of the element type. */
function keyReader(element: QDigestElement, column: Column): (row: number) => Key {
  if (element === 'bigint') {
    const words = int64Words(column.values as BigInt64Array);
    return (row) => keyOfLongWords(words[2 * row + 1], words[2 * row]);
  }
  const values = column.values as Float32Array | Float64Array;
  return element === 'real' ? (row) => keyOfReal(values[row]) : (row) => keyOfDouble(values[row]);
}

const isNull = (column: Column | undefined, row: number): boolean =>
  column !== undefined && column.nulls !== null && column.nulls[row] === 1;

class QDigestAggAccumulator extends SketchAccumulator<QuantileDigest> {
  constructor(private readonly element: QDigestElement) {
    super(codecOf(element));
  }

  override addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [values, weights, accuracies] = args;
    const keyAt = keyReader(this.element, values);
    const w = weights === undefined ? undefined : toFloat64(weights);
    const a = accuracies === undefined ? undefined : toFloat64(accuracies);
    for (let i = start; i < end; i++) {
      if (isNull(values, i) || isNull(weights, i) || isNull(accuracies, i)) continue;
      const accuracy = a === undefined ? DEFAULT_ACCURACY : a[i];
      if (!(accuracy > 0 && accuracy < 1))
        throw new EngineError(
          'INVALID_FUNCTION_ARGUMENT',
          `Percentile accuracy must be exclusively between 0 and 1, was ${javaDouble(accuracy)}`,
        );
      const weight = w === undefined ? 1 : w[i];
      if (!(weight > 0)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Percentile weight must be > 0, was ${weight}`);
      const g = groupIds[i];
      const digest = this.sketches[g] ?? (this.sketches[g] = new QuantileDigest(accuracy));
      digest.add(keyAt(i), weight);
    }
  }
}

/** merge's input and partial states: digests, which must share their accuracy. */
class QDigestMergeAccumulator extends SketchAccumulator<QuantileDigest> {
  override addIntermediate(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    const values = column.values as Uint8Array[];
    for (let i = start; i < end; i++) {
      if (isNull(column, i)) continue;
      const incoming = QuantileDigest.deserialize(values[i]);
      const current = this.sketches[groupIds[i]];
      if (current === undefined) {
        this.sketches[groupIds[i]] = incoming;
        continue;
      }
      if (Math.abs(current.maxError - incoming.maxError) > 1e-6 * Math.max(Math.abs(current.maxError), Math.abs(incoming.maxError))) {
        throw new EngineError(
          'INVALID_FUNCTION_ARGUMENT',
          `Cannot merge qdigests with different accuracies (${javaDouble(current.maxError)} vs. ${javaDouble(incoming.maxError)})`,
        );
      }
      current.mergeWith(incoming);
    }
  }
}

/**
 * The overload Trino picks: the most specific one the argument coerces to. bigint coerces to real
 * and double, real to double, so integral input (and NULL) takes bigint and decimal takes real.
 */
function elementOfInput(type: SqlType): QDigestElement | undefined {
  if (isIntegral(type) || type.kind === 'unknown') return 'bigint';
  if (type.kind === 'real' || type.kind === 'decimal') return 'real';
  return type.kind === 'double' ? 'double' : undefined;
}

export function qdigestAggFunction(argumentTypes: readonly SqlType[]): AggregateFunction | undefined {
  const [value, weight, accuracy] = argumentTypes;
  const element = argumentTypes.length >= 1 && argumentTypes.length <= 3 ? elementOfInput(value) : undefined;
  if (
    element === undefined ||
    (weight !== undefined && !canCoerce(weight, BIGINT)) ||
    (accuracy !== undefined && !canCoerce(accuracy, DOUBLE))
  )
    return undefined;
  const type = qdigestType(element);
  return {
    name: 'qdigest_agg',
    argumentTypes: [ELEMENT_TYPES[element], BIGINT, DOUBLE].slice(0, argumentTypes.length),
    returnType: type,
    intermediateTypes: [type],
    createAccumulator: () => new QDigestAggAccumulator(element),
  };
}

export function mergeQDigestFunction(argumentType: SqlType): AggregateFunction | undefined {
  const element = qdigestElement(argumentType);
  if (element === undefined) return undefined;
  return {
    name: 'merge',
    argumentTypes: [argumentType],
    returnType: argumentType,
    intermediateTypes: [argumentType],
    createAccumulator: () => new QDigestMergeAccumulator(codecOf(element)),
  };
}
