// The expression parser's nesting constructs (parentheses, calls, CASE, CAST, operators ...) are
// generators run by one loop, so that nesting costs heap instead of stack: a step yields the step it
// needs parsed first and receives its result. Within one level a step may `yield*` another; across
// levels it yields, so the stack stays the same however deep the expression nests.

import type { Expression } from './ast.js';

/** A parse step producing a T; what it yields are the steps whose Expression results it needs. */
export type Steps<T = Expression> = Generator<Steps, T, Expression>;

/** Runs `root` and every step it asks for on an explicit stack, returning root's result. */
export function runSteps<T>(root: Steps<T>): T {
  const pending: Steps<unknown>[] = [root];
  let value: Expression | undefined;
  for (;;) {
    const step = pending[pending.length - 1].next(value as Expression);
    if (!step.done) {
      pending.push(step.value);
      value = undefined;
      continue;
    }
    pending.pop();
    if (pending.length === 0) return step.value as T;
    value = step.value as Expression;
  }
}

/**
 * A step running `parse`, an ordinary function: yielded, it runs from the loop of runSteps with the
 * steps that asked for it suspended, not on top of them. For what nests through ordinary functions
 * (a subquery's query, whose expressions start steps of their own).
 */
export function* offStack(parse: () => Expression): Steps {
  return parse();
}
