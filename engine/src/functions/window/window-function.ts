// What a window function is to the window operator: it fills its output column for one partition
// at a time, given the partition's rows (sorted), peer groups and, per row, its frame.

import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { ColumnOutput, LambdaCompiler } from '../aggregate/aggregate-function.js';

/** One partition of the sorted rows; every index is a row of the whole sorted input. */
export interface WindowPartition {
  /** Rows [start, end) form the partition. */
  readonly start: number;
  readonly end: number;
  /** The function's argument columns over all sorted rows. */
  readonly args: readonly Column[];
  /** Rows [peerStart[i], peerEnd[i]) are row i's peers (equal ORDER BY values). */
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
  /** Row i's frame is rows [frameStart[i], frameEnd[i]); empty when frameStart[i] >= frameEnd[i]. */
  readonly frameStart: Int32Array;
  readonly frameEnd: Int32Array;
  /** IGNORE NULLS (value functions). */
  readonly ignoreNulls: boolean;
}

export interface WindowEvaluator {
  /** Writes the function's value for rows [partition.start, partition.end) into `out`. */
  evaluate(partition: WindowPartition, out: ColumnOutput): void;
}

export interface WindowFunction {
  readonly name: string;
  /** The types the caller must coerce its arguments to. */
  readonly argumentTypes: SqlType[];
  readonly returnType: SqlType;
  /** `compileLambda`: how an aggregate's lambda arguments are compiled (reduce_agg), given by the executor. */
  createEvaluator(compileLambda?: LambdaCompiler): WindowEvaluator;
}
