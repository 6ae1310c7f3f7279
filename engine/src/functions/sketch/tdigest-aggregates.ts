// tdigest_agg(x [, w]) and merge(tdigest), as Trino has them: any numeric x (and w) read as double.

import type { Column } from '../../columnar/page.js';
import { DOUBLE, TDIGEST, type SqlType } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import type { AggregateFunction } from '../aggregate/aggregate-function.js';
import { toFloat64 } from '../aggregate/accumulator-support.js';
import { SketchAccumulator, type SketchCodec } from './sketch-accumulator.js';
import { TDigestSketch } from '../../types/sketch/tdigest-sketch.js';

const TDIGEST_CODEC: SketchCodec<TDigestSketch> = { type: TDIGEST, deserialize: (bytes) => TDigestSketch.deserialize(bytes) };

class TDigestAggAccumulator extends SketchAccumulator<TDigestSketch> {
  constructor() {
    super(TDIGEST_CODEC);
  }

  override addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [values, weights] = args;
    const x = toFloat64(values);
    const w = weights === undefined ? undefined : toFloat64(weights);
    for (let i = start; i < end; i++) {
      if ((values.nulls !== null && values.nulls[i] === 1) || (weights?.nulls != null && weights.nulls[i] === 1)) continue;
      const g = groupIds[i];
      const sketch = this.sketches[g] ?? (this.sketches[g] = new TDigestSketch());
      sketch.add(x[i], w === undefined ? 1 : w[i]);
    }
  }
}

export function tdigestAggFunction(argumentTypes: readonly SqlType[]): AggregateFunction | undefined {
  if (argumentTypes.length < 1 || argumentTypes.length > 2 || !argumentTypes.every((t) => canCoerce(t, DOUBLE))) return undefined;
  return {
    name: 'tdigest_agg',
    argumentTypes: argumentTypes.map(() => DOUBLE),
    returnType: TDIGEST,
    intermediateTypes: [TDIGEST],
    createAccumulator: () => new TDigestAggAccumulator(),
  };
}

export function mergeTDigestFunction(argumentType: SqlType): AggregateFunction | undefined {
  if (!(argumentType.kind === 'sketch' && argumentType.sketch === 'tdigest')) return undefined;
  return {
    name: 'merge',
    argumentTypes: [TDIGEST],
    returnType: TDIGEST,
    intermediateTypes: [TDIGEST],
    createAccumulator: () => new SketchAccumulator(TDIGEST_CODEC),
  };
}
