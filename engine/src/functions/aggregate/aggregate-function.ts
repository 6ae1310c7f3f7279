// What an aggregate function is to the executor: resolved types plus a factory of grouped
// accumulators. An accumulator holds the state of many groups at once (arrays indexed by group id)
// and takes rows a batch at a time, so the hash aggregation never allocates per row.

import type { Column, Page, SlotValues } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { LambdaExpression, RowExpression } from '../../sql/planner/row-expression.js';

/** A lambda's body compiled to run over a page whose channels are the lambda's parameters. */
export type CompiledLambda = (page: Page) => Column;

/**
 * How the executor compiles a lambda argument (reduce_agg's functions): functions/ sits below
 * exec/, so the expression compiler reaches an aggregate only through this, given when the
 * executor creates the accumulator.
 */
export type LambdaCompiler = (body: RowExpression, inputTypes: readonly SqlType[]) => CompiledLambda;

/** A preallocated output column an accumulator writes single values into (slots: JS arrays for array types). */
export interface ColumnOutput {
  readonly values: SlotValues;
  readonly nulls: Uint8Array;
}

export interface GroupedAccumulator {
  /** Makes room for group ids below `groupCount`; new groups start empty. */
  ensureCapacity(groupCount: number): void;
  /**
   * Adds rows [start, end) of `args` (of the function's argumentTypes): row i belongs to group
   * `groupIds[i]`.
   */
  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void;
  /** Merges rows [start, end) of intermediate columns (of intermediateTypes) into the groups. */
  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void;
  /** The intermediate state of groups [start, end), one column per intermediate type. */
  writeIntermediate(start: number, end: number): Column[];
  /** The final values of groups [start, end). */
  writeFinal(start: number, end: number): Column;
  /** Writes the current final value of `group` at row `row` of `out`; the state stays usable. */
  writeFinalAt(group: number, out: ColumnOutput, row: number): void;
  /** Bytes retained by the state, for memory accounting. */
  sizeInBytes(): number;
}

export interface AggregateFunction {
  readonly name: string;
  /** The types the caller must coerce its arguments to. */
  readonly argumentTypes: SqlType[];
  readonly returnType: SqlType;
  /** The columns a partial aggregation emits and a final aggregation merges. */
  readonly intermediateTypes: SqlType[];
  /** ORDER BY inside the call (its keys are the last arguments), for order-sensitive functions. */
  readonly ordering?: readonly { readonly ascending: boolean; readonly nullsFirst: boolean }[];
  /** Lambda arguments (reduce_agg's functions), given apart from the argument columns. */
  readonly lambdas?: readonly LambdaExpression[];
  /** `compileLambda` is needed by functions with `lambdas` only. */
  createAccumulator(compileLambda?: LambdaCompiler): GroupedAccumulator;
}
