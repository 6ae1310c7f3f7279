// A SQL routine (user-defined function) ready to run: its parameters, return type and body as
// structured statements over typed RowExpressions, self-contained (no symbol or channel references),
// so it travels inside the plan (as the `routine` expression that calls it) to every node that
// evaluates the call, and compiles there like any other expression (exec/expression/routine-code.ts).
//
// Variables (parameters included) are named by ids unique within the routine ('@0', '@1', ...):
// a block's DECLARE may reuse a name of another block with another type, and the body's
// expressions refer to them as `variable`s, the way lambda bodies refer to their parameters.

import type { SqlType } from '../../types/types.js';
import type { RowExpression } from '../planner/row-expression.js';
import { stringifyDeep } from '../planner/deep-json.js';

export interface Routine {
  /** The name it was declared with (messages, EXPLAIN). */
  name: string;
  parameters: RoutineVariable[];
  returnType: SqlType;
  /** CALLED ON NULL INPUT (the default); false: RETURNS NULL ON NULL INPUT, a NULL argument returns NULL without running the body. */
  calledOnNullInput: boolean;
  deterministic: boolean;
  body: RoutineStatement[];
  /** The longest one invocation may run (the query's query_max_execution_time when planned): a body looping forever fails with EXCEEDED_TIME_LIMIT. */
  timeLimitMillis: number;
}

export interface RoutineVariable {
  id: string;
  type: SqlType;
}

export type RoutineStatement =
  /** A variable of the enclosing block, set to its DEFAULT (NULL without one) where the declaration stands. */
  | { kind: 'declare'; variable: RoutineVariable; value?: RowExpression }
  /** BEGIN ... END: its declarations are visible in it only. */
  | { kind: 'block'; statements: RoutineStatement[] }
  | { kind: 'return'; value: RowExpression }
  | { kind: 'set'; variable: string; value: RowExpression }
  /** The `then` statements when the condition is TRUE, else (FALSE or NULL) the `otherwise` ones. */
  | { kind: 'if'; condition: RowExpression; then: RoutineStatement[]; otherwise: RoutineStatement[] }
  /**
   * LOOP (no condition), WHILE (`while`: checked before each round, leaves unless TRUE) or REPEAT
   * (`until`: checked after each round, leaves when TRUE). `label` is unique in the routine;
   * ITERATE starts the next round from the top (before WHILE's check, skipping REPEAT's), as Trino's
   * compiled loops do.
   */
  | { kind: 'loop'; label: string; while?: RowExpression; until?: RowExpression; body: RoutineStatement[] }
  | { kind: 'leave'; label: string }
  | { kind: 'iterate'; label: string };

const keys = new WeakMap<Routine, string>();

/** A key equal for structurally equal routines (compiled code is shared by it), computed once per routine object. */
export function routineKey(routine: Routine): string {
  let key = keys.get(routine);
  if (key === undefined) {
    key = stringifyDeep(routine, (_, value) => {
      if (typeof value === 'bigint') return `${value}n`;
      if (value instanceof Uint8Array) return `x'${Buffer.from(value).toString('hex')}'`;
      return value;
    });
    keys.set(routine, key);
  }
  return key;
}
