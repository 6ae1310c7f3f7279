// Any aggregate function over a window frame. Frames that only grow (a fixed start, ends that never
// move back: the default frame, UNBOUNDED PRECEDING .. anything) are accumulated incrementally into
// one group; other (sliding) frames are recomputed per distinct frame into a group of their own.

import type { AggregateFunction, ColumnOutput, GroupedAccumulator, LambdaCompiler } from '../aggregate/aggregate-function.js';
import type { WindowEvaluator, WindowFunction, WindowPartition } from './window-function.js';

/** Groups one accumulator holds before it is replaced, so its state stays bounded. */
const MAX_GROUPS = 65536;

class AggregateWindowEvaluator implements WindowEvaluator {
  private accumulator: GroupedAccumulator;
  private groups = 0;
  private groupIds = new Int32Array(0);

  constructor(
    private readonly fn: AggregateFunction,
    private readonly compileLambda: LambdaCompiler | undefined,
  ) {
    this.accumulator = fn.createAccumulator(compileLambda);
  }

  private newGroup(): number {
    if (this.groups >= MAX_GROUPS) {
      this.accumulator = this.fn.createAccumulator(this.compileLambda);
      this.groups = 0;
    }
    const g = this.groups++;
    this.accumulator.ensureCapacity(this.groups);
    return g;
  }

  evaluate(p: WindowPartition, out: ColumnOutput): void {
    if (this.groupIds.length < p.end) this.groupIds = new Int32Array(Math.max(p.end, this.groupIds.length * 2));
    if (framesOnlyGrow(p)) this.evaluateGrowing(p, out);
    else this.evaluateSliding(p, out);
  }

  private evaluateGrowing(p: WindowPartition, out: ColumnOutput): void {
    const g = this.newGroup();
    let added = p.frameStart[p.start];
    for (let i = p.start; i < p.end; i++) {
      const end = p.frameEnd[i];
      if (end > added) {
        this.groupIds.fill(g, added, end);
        this.accumulator.addInput(this.groupIds, p.args, added, end);
        added = end;
      }
      this.accumulator.writeFinalAt(g, out, i);
    }
  }

  private evaluateSliding(p: WindowPartition, out: ColumnOutput): void {
    let g = -1;
    let lastStart = -1;
    let lastEnd = -1;
    for (let i = p.start; i < p.end; i++) {
      const start = p.frameStart[i];
      const end = Math.max(start, p.frameEnd[i]);
      if (g < 0 || start !== lastStart || end !== lastEnd) {
        g = this.newGroup();
        if (end > start) {
          this.groupIds.fill(g, start, end);
          this.accumulator.addInput(this.groupIds, p.args, start, end);
        }
        lastStart = start;
        lastEnd = end;
      }
      this.accumulator.writeFinalAt(g, out, i);
    }
  }
}

/**
 * True when every frame of the partition starts at the same row and no frame ends before the
 * previous one (so an empty frame can only come before every non-empty one).
 */
function framesOnlyGrow(p: WindowPartition): boolean {
  const start = p.frameStart[p.start];
  for (let i = p.start; i < p.end; i++) {
    if (p.frameStart[i] !== start) return false;
    if (i > p.start && p.frameEnd[i] < p.frameEnd[i - 1]) return false;
  }
  return true;
}

export function aggregateWindowFunction(fn: AggregateFunction): WindowFunction {
  return {
    name: fn.name,
    argumentTypes: fn.argumentTypes,
    returnType: fn.returnType,
    createEvaluator: (compileLambda) => new AggregateWindowEvaluator(fn, compileLambda),
  };
}
