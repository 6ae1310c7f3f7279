// Value functions: lag, lead (by offset within the partition), first_value, last_value, nth_value
// (within the frame), each with RESPECT NULLS (default) or IGNORE NULLS.

import { BIGINT, type SqlType } from '../../types/types.js';
import type { Column } from '../../columnar/page.js';
import type { ColumnOutput } from '../aggregate/aggregate-function.js';
import type { WindowFunction, WindowPartition } from './window-function.js';
import { copyValue, integerArgument, invalidArgument, isNullAt } from './window-support.js';

/**
 * The row `steps` rows away from `from` in `direction` (±1) inside [start, end), counting only
 * non-NULL rows of `column` when ignoring NULLs; -1 when there is none.
 */
function stepRows(
  column: Column,
  from: number,
  steps: number,
  direction: number,
  start: number,
  end: number,
  ignoreNulls: boolean,
): number {
  if (!ignoreNulls) {
    const target = from + direction * steps;
    return target >= start && target < end ? target : -1;
  }
  let row = from;
  let remaining = steps;
  while (remaining > 0) {
    row += direction;
    if (row < start || row >= end) return -1;
    if (!isNullAt(column, row)) remaining--;
  }
  return row;
}

/** lag (direction -1) / lead (+1): x at `offset` rows away, else the default (or NULL). */
function offsetFunction(direction: number) {
  return (p: WindowPartition, out: ColumnOutput): void => {
    const [value, offsetColumn, defaultColumn] = p.args;
    for (let i = p.start; i < p.end; i++) {
      const offset = offsetColumn === undefined ? 1 : integerArgument(offsetColumn, i);
      if (offset === null) {
        out.nulls[i] = 1;
        continue;
      }
      if (offset < 0) throw invalidArgument('Offset must be at least 0');
      const target = offset === 0 ? i : stepRows(value, i, offset, direction, p.start, p.end, p.ignoreNulls);
      if (target >= 0) copyValue(value, target, out, i);
      else if (defaultColumn !== undefined) copyValue(defaultColumn, i, out, i);
      else out.nulls[i] = 1;
    }
  };
}

/** The n-th (1-based) row of the frame from its start (or its end, backwards); -1 when none. */
function nthInFrame(p: WindowPartition, column: Column, i: number, n: number, fromEnd: boolean): number {
  const start = p.frameStart[i];
  const end = p.frameEnd[i];
  if (start >= end) return -1;
  if (fromEnd) return stepRows(column, end, n, -1, start, end, p.ignoreNulls);
  return stepRows(column, start - 1, n, 1, start, end, p.ignoreNulls);
}

function frameValue(fromEnd: boolean, hasN: boolean) {
  return (p: WindowPartition, out: ColumnOutput): void => {
    const value = p.args[0];
    for (let i = p.start; i < p.end; i++) {
      let n = 1;
      if (hasN) {
        const arg = integerArgument(p.args[1], i);
        if (arg === null) {
          out.nulls[i] = 1;
          continue;
        }
        if (arg <= 0) throw invalidArgument('Offset must be at least 1');
        n = arg;
      }
      const target = nthInFrame(p, value, i, n, fromEnd);
      if (target >= 0) copyValue(value, target, out, i);
      else out.nulls[i] = 1;
    }
  };
}

const VALUE_FUNCTIONS = {
  lag: offsetFunction(-1),
  lead: offsetFunction(1),
  first_value: frameValue(false, false),
  last_value: frameValue(true, false),
  nth_value: frameValue(false, true),
};

export const VALUE_FUNCTION_SIGNATURES: Record<string, { args: string[]; returns: string; constraints: string }[]> = {
  lag: [
    { args: ['T'], returns: 'T', constraints: 'T' },
    { args: ['T', 'bigint'], returns: 'T', constraints: 'T' },
    { args: ['T', 'bigint', 'T'], returns: 'T', constraints: 'T' },
  ],
  lead: [
    { args: ['T'], returns: 'T', constraints: 'T' },
    { args: ['T', 'bigint'], returns: 'T', constraints: 'T' },
    { args: ['T', 'bigint', 'T'], returns: 'T', constraints: 'T' },
  ],
  first_value: [{ args: ['T'], returns: 'T', constraints: 'T' }],
  last_value: [{ args: ['T'], returns: 'T', constraints: 'T' }],
  nth_value: [{ args: ['T', 'bigint'], returns: 'T', constraints: 'T' }],
};

/** The value function `name` for these argument types, or undefined when they do not fit. */
export function valueFunction(
  name: string,
  types: readonly SqlType[],
  coercible: (from: SqlType, to: SqlType) => boolean,
): WindowFunction | undefined {
  const evaluate = (VALUE_FUNCTIONS as Record<string, ((p: WindowPartition, out: ColumnOutput) => void) | undefined>)[name];
  if (evaluate === undefined || !VALUE_FUNCTION_SIGNATURES[name].some((s) => s.args.length === types.length)) return undefined;
  // T is the value's type (or the default's, when the value is a bare NULL).
  const valueType = types[0].kind === 'unknown' && types.length === 3 ? types[2] : types[0];
  const argumentTypes = types.map((_, i) => (i === 1 ? BIGINT : valueType));
  if (!types.every((t, i) => coercible(t, argumentTypes[i]))) return undefined;
  return { name, argumentTypes, returnType: valueType, createEvaluator: () => ({ evaluate }) };
}
