// reduce_agg(value T, initialState S, inputFunction(S, T) -> S, combineFunction(S, S) -> S), as
// Trino runs it: each row with a non-null value and initial state folds into its group's state (the
// initial state when the group has none yet); partial states merge with the combine function. The
// lambdas are compiled (by the executor's compiler, given to createAccumulator) as expressions over
// two input channels; a batch is folded in rounds, each round taking at most one row per group, so
// the lambda runs over a column at a time.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { columnFromScalars, getScalar, type Column, type Page } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { SHORT_DECIMAL_PRECISION, typeName, type SqlType } from '../../types/types.js';
import { inputRef, mapChildren, type LambdaExpression, type RowExpression } from '../../sql/planner/row-expression.js';
import type { AggregateFunction, ColumnOutput, CompiledLambda, GroupedAccumulator, LambdaCompiler } from './aggregate-function.js';
import { finalColumn } from './accumulator-support.js';

/** Trino keeps a reduce_agg state as a long, double, boolean or slice: no container types, no long decimals. */
function checkStateType(type: SqlType, location?: SourceLocation): void {
  const refused =
    type.kind === 'array' ||
    type.kind === 'map' ||
    type.kind === 'row' ||
    (type.kind === 'decimal' && type.precision > SHORT_DECIMAL_PRECISION);
  if (refused) throw new EngineError('NOT_SUPPORTED', `State type not supported for reduce_agg: ${typeName(type)}`, location);
}

export function reduceAggFunction(
  argumentTypes: readonly SqlType[],
  lambdas: readonly LambdaExpression[],
  location?: SourceLocation,
): AggregateFunction {
  const [inputType, stateType] = argumentTypes;
  checkStateType(stateType, location);
  const bodies = lambdas.map((l) => ({ body: lambdaOverInputs(l), inputTypes: [stateType, l.parameters[1].type] }));
  let folds: CompiledLambda[] | undefined;
  return {
    name: 'reduce_agg',
    argumentTypes: [inputType, stateType],
    returnType: stateType,
    intermediateTypes: [stateType],
    lambdas: [...lambdas],
    createAccumulator: (compileLambda?: LambdaCompiler) => {
      if (compileLambda === undefined)
        throw new EngineError('NOT_SUPPORTED', 'reduce_agg outside a grouped aggregation is not supported', location);
      folds ??= bodies.map((b) => compileLambda(b.body, b.inputTypes));
      return new ReduceAccumulator(stateType, folds[0], folds[1]);
    },
  };
}

/** The lambda's body with its parameters read from input channels 0 and 1 (an inner lambda's own parameters left alone). */
function lambdaOverInputs(lambda: LambdaExpression): RowExpression {
  const channels = new Map(lambda.parameters.map((p, i) => [p.name, inputRef(i, p.type)]));
  const replace = (e: RowExpression, shadowed: ReadonlySet<string>): RowExpression => {
    if (e.kind === 'variable') return shadowed.has(e.name) ? e : (channels.get(e.name) ?? e);
    if (e.kind === 'lambda') return mapChildren(e, (c) => replace(c, new Set([...shadowed, ...e.parameters.map((p) => p.name)])));
    return mapChildren(e, (c) => replace(c, shadowed));
  };
  return replace(lambda.body, new Set());
}

class ReduceAccumulator implements GroupedAccumulator {
  private states: Scalar[] = [];
  private seen = new Uint8Array(16);

  constructor(
    private readonly stateType: SqlType,
    private readonly input: CompiledLambda,
    private readonly combine: CompiledLambda,
  ) {}

  ensureCapacity(groupCount: number): void {
    if (this.seen.length < groupCount) {
      const seen = new Uint8Array(Math.max(groupCount, this.seen.length * 2));
      seen.set(this.seen);
      this.seen = seen;
    }
    while (this.states.length < groupCount) this.states.push(null);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [values, initial] = args;
    this.fold(groupIds, start, end, values, initial, this.input);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.fold(groupIds, start, end, intermediates[0], undefined, this.combine);
  }

  /**
   * Folds rows [start, end) into their groups' states with `f(state, value)`: a group without a
   * state starts from `initial` (input), or takes the value as it is (merging partial states).
   */
  private fold(groupIds: Int32Array, start: number, end: number, values: Column, initial: Column | undefined, f: CompiledLambda): void {
    const rounds: number[][] = [];
    const depth = new Map<number, number>();
    for (let i = start; i < end; i++) {
      if (getScalar(values, i) === null || (initial !== undefined && getScalar(initial, i) === null)) continue;
      const g = groupIds[i];
      if (initial === undefined && this.seen[g] === 0 && !depth.has(g)) {
        // The first partial state of a group is its state.
        this.states[g] = getScalar(values, i);
        this.seen[g] = 1;
        continue;
      }
      const round = depth.get(g) ?? 0;
      depth.set(g, round + 1);
      (rounds[round] ??= []).push(i);
    }
    for (const rows of rounds) {
      const states = rows.map((i) => (this.seen[groupIds[i]] === 1 ? this.states[groupIds[i]] : getScalar(initial as Column, i)));
      const page: Page = {
        rowCount: rows.length,
        columns: [
          columnFromScalars(this.stateType, states),
          columnFromScalars(
            values.type,
            rows.map((i) => getScalar(values, i)),
          ),
        ],
      };
      const folded = f(page);
      rows.forEach((i, j) => {
        this.states[groupIds[i]] = getScalar(folded, j);
        this.seen[groupIds[i]] = 1;
      });
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.stateType, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const value = this.seen[group] === 1 ? this.states[group] : null;
    if (value === null) out.nulls[row] = 1;
    else (out.values as Scalar[])[row] = value;
  }

  sizeInBytes(): number {
    return this.seen.length + this.states.length * 16;
  }
}
